import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WireProblem, nullish, refused, wireValue } from '../../src/core/wire-value.js';
import { parseItems } from '../../src/api/wire.js';

const even = wireValue((input) => (Number.isInteger(input) && (input as number) % 2 === 0 ? (input as number) : refused('an even integer', input)));

describe('wireValue', () => {
  it('parses a value in one step and names what it expected and what it got', () => {
    expect(even.parse(4)).toBe(4);
    expect(even.safeParse(3).error?.issues[0]?.message).toBe('expected an even integer, got 3');
    expect(even.safeParse(undefined).error?.issues[0]?.message).toBe('expected an even integer, got nothing');
  });

  it('refuses an absent key of a required field, and takes null or an absent key as null once nullish', () => {
    const item = z.object({ n: even, m: nullish(even) });
    expect(parseItems(item, [{ n: 2 }, { n: 2, m: null }, { n: 2, m: 6 }, { m: 2 }, { n: 2, m: 1 }])).toEqual({
      ok: [
        { n: 2, m: null },
        { n: 2, m: null },
        { n: 2, m: 6 },
      ],
      rejects: [
        { raw: { m: 2 }, reason: 'n: expected an even integer, got nothing' },
        { raw: { n: 2, m: 1 }, reason: 'm: expected an even integer, got 1' },
      ],
    });
  });

  it('keeps nullish of any other zod schema working as before', () => {
    const plain = nullish(z.string());
    expect(plain.parse(undefined)).toBeNull();
    expect(plain.parse('x')).toBe('x');
    expect(plain.safeParse(1).success).toBe(false);
  });

  it('lets a parser return its own message', () => {
    const field = wireValue(() => new WireProblem('never valid'));
    expect(field.safeParse('x').error?.issues[0]?.message).toBe('never valid');
  });
});
