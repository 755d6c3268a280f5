import { describe, expect, it } from 'vitest';
import { BIG_INTEGER, entryPoison, poisonItem, withBadValues, withRawNumbers } from '../../../src/devnet/http/value-faults.js';

const validatorEvent = (n: number) => ({ tx_hash: `hash-${n}`, utime: 1_700_000_000 + n, type: 'stake_accepted', election_id: '1700000000' });

describe('badValues', () => {
  it('poisons the same items the same way on every request, and only the chosen fraction', () => {
    const items = Array.from({ length: 400 }, (_, n) => validatorEvent(n));
    const first = items.map((item) => poisonItem(item, 0.1));
    expect(items.map((item) => poisonItem(item, 0.1))).toEqual(first);
    const poisoned = first.filter((result) => result.poison !== undefined);
    expect(poisoned.length).toBeGreaterThan(20);
    expect(poisoned.length).toBeLessThan(70);
    expect(new Set(poisoned.map((result) => result.poison))).toEqual(new Set(['bigInteger', 'fraction', 'loneSurrogate']));
    expect(first.filter((result) => result.poison === undefined).map((result) => result.item)).toEqual(items.filter((_, n) => first[n]!.poison === undefined));
  });

  it('writes the poisons into the body text as the broken server would: raw number tokens and escaped lone surrogates', () => {
    const items = Array.from({ length: 400 }, (_, n) => validatorEvent(n));
    const text = withRawNumbers(JSON.stringify(withBadValues({ validator_events: items, address_book: {} }, 0.1)));
    expect(text).toContain(`"election_id":${BIG_INTEGER}`);
    expect(text).toMatch(/"utime":\d+\.5[,}]/);
    expect(text).toContain('\\ud800');
    expect(text).not.toContain('devnet-raw-number');
  });

  it('poisons chosen address-book entries with a wrong type or a lone surrogate', () => {
    const addresses = Array.from({ length: 200 }, (_, n) => `0:${String(n).padStart(64, '0')}`);
    const book = Object.fromEntries(addresses.map((address) => [address, { user_friendly: 'EQx', domain: null, interfaces: [] }]));
    const served = withBadValues({ address_book: book }, 0.1) as { address_book: Record<string, { interfaces: unknown; user_friendly: string }> };
    for (const address of addresses) {
      const poison = entryPoison(address, 0.1);
      const entry = served.address_book[address]!;
      expect(entry.interfaces === 7, address).toBe(poison === 'wrongType');
      expect(entry.user_friendly.endsWith('\ud800'), address).toBe(poison === 'loneSurrogate');
    }
    expect(addresses.filter((address) => entryPoison(address, 0.1) !== undefined).length).toBeGreaterThan(5);
  });
});
