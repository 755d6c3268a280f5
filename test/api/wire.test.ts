import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  addressBook,
  finality,
  int256String,
  looseObject,
  metadata,
  nullableString,
  parseItems,
  safeUint,
  uint256String,
  uint64String,
} from '../../src/api/wire.js';

const example = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/examples/${name}`, import.meta.url), 'utf8'));

describe('integers as decimal strings', () => {
  test('amounts above 2^100 stay exact', () => {
    expect(uint256String.parse('1267650600228229401496703205376000')).toBe(1267650600228229401496703205376000n);
    expect(uint256String.parse((2n ** 256n - 1n).toString())).toBe(2n ** 256n - 1n);
    expect(int256String.parse('-1267650600228229401496703205376001')).toBe(-1267650600228229401496703205376001n);
  });

  test('u64 keeps its range', () => {
    expect(uint64String.parse('18446744073709551615')).toBe(2n ** 64n - 1n);
    expect(uint64String.parse('0')).toBe(0n);
    expect(uint64String.safeParse('18446744073709551616').success).toBe(false);
  });

  test.each(['12a', '-1', '1e5', ' 1', '', '0x10', '1.0'])('u64 rejects %j', (text) => {
    expect(uint64String.safeParse(text).success).toBe(false);
  });

  test('a JSON number is refused (precision may already be lost) with a readable message', () => {
    const result = uint64String.safeParse(93307000000009);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'expected an unsigned 64-bit integer as a decimal string, got 93307000000009',
    );
  });

  test('int256 bounds', () => {
    expect(int256String.safeParse((2n ** 255n).toString()).success).toBe(false);
    expect(int256String.parse((-(2n ** 255n)).toString())).toBe(-(2n ** 255n));
    expect(int256String.safeParse('--1').success).toBe(false);
  });

  test('safeUint takes a number or a decimal string', () => {
    expect(safeUint.parse(1748517657)).toBe(1748517657);
    expect(safeUint.parse('1748517657')).toBe(1748517657);
    expect(safeUint.safeParse(-1).success).toBe(false);
    expect(safeUint.safeParse('9999999999999999').success).toBe(false);
  });
});

describe('enums and nullables', () => {
  test.each([
    [0, 'pending'],
    [1, 'confirmed'],
    [2, 'finalized'],
    [3, 'unknown_3'],
    ['finalized', 'finalized'],
    ['unknown_3', 'unknown_3'],
    ['some_future_state', 'some_future_state'],
  ])('finality %j → %j', (input, output) => {
    expect(finality.parse(input)).toBe(output);
  });

  test('finality rejects what is neither a code nor a name', () => {
    expect(finality.safeParse(null).success).toBe(false);
    expect(finality.safeParse(-1).success).toBe(false);
  });

  test('nullableString: string kept, null and absent → null', () => {
    const schema = looseObject({ comment: nullableString });
    expect(schema.parse({ comment: 'hi' }).comment).toBe('hi');
    expect(schema.parse({ comment: null }).comment).toBeNull();
    expect(schema.parse({}).comment).toBeNull();
    expect(schema.safeParse({ comment: 5 }).success).toBe(false);
  });
});

describe('objects and items', () => {
  const item = looseObject({ hash: z.string(), lt: uint64String, finality });

  test('unknown fields are tolerated and kept', () => {
    const parsed = item.parse({ hash: 'h', lt: '5', finality: 2, new_field: { x: 1 } });
    expect(parsed).toEqual({ hash: 'h', lt: 5n, finality: 'finalized', new_field: { x: 1 } });
  });

  test('parseItems: each item on its own; an invalid one is a reject with a reason', () => {
    const bad = { hash: 'h2', lt: '12a', finality: 'unknown_3' };
    const result = parseItems(item, [{ hash: 'h1', lt: '1', finality: 'unknown_3' }, bad, null]);
    expect(result.ok).toEqual([{ hash: 'h1', lt: 1n, finality: 'unknown_3' }]);
    expect(result.rejects).toEqual([
      { raw: bad, reason: 'lt: expected an unsigned 64-bit integer as a decimal string, got "12a"' },
      { raw: null, reason: expect.stringMatching(/^\(item\): /) },
    ]);
  });

  test('a missing field names the field', () => {
    const { rejects } = parseItems(item, [{ hash: 'h', finality: 2 }]);
    expect(rejects[0]?.reason).toBe('lt: expected an unsigned 64-bit integer as a decimal string, got nothing');
  });
});

describe('shared objects of the real traces example', () => {
  const page = example('v3-traces.mainnet.2025-09.docs-pr493.json') as { address_book: unknown; metadata: unknown };

  test('address_book parses; entries without interfaces get an empty list', () => {
    const book = addressBook.parse(page.address_book);
    const entry = book['0:1C2201823E6DAE55FADD08CAD27845C77267C462D81B0620FE664DEE28BB8E34'];
    expect(entry).toEqual({
      user_friendly: 'UQAcIgGCPm2uVfrdCMrSeEXHcmfEYtgbBiD-Zk3uKLuONNKi',
      domain: null,
      interfaces: [],
    });
    expect(Object.keys(book).length).toBeGreaterThan(1);
  });

  test('metadata parses (empty here) and a filled entry keeps its token info', () => {
    expect(metadata.parse(page.metadata)).toEqual({});
    const filled = metadata.parse({
      '0:AB': { is_indexed: true, token_info: [{ valid: true, type: 'jetton_masters', symbol: 'USD₮', extra: { decimals: '6' } }] },
      '0:CD': { is_indexed: false, token_info: null },
    });
    expect(filled['0:AB']?.token_info[0]?.symbol).toBe('USD₮');
    expect(filled['0:CD']?.token_info).toEqual([]);
  });
});
