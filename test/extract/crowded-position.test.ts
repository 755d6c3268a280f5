/**
 * readCrowdedPosition keeps every address-book entry of the pages it reads, whatever the address
 * says: an entry a hostile service files under `__proto__` is a reject like any other, not a
 * prototype (src/transform/prepared-page.ts reads the book with no prototype either).
 */
import { expect, it } from 'vitest';
import type { PreparedBook } from '../../src/transform/prepared-page.js';
import type { CheckedPage } from '../../src/extract/page-reader.js';
import { readCrowdedPosition } from '../../src/extract/crowded-position.js';

const rejected = (reason: string): PreparedBook[string] => ({ reject: { json: '{"user_friendly":"x"}', reason } });

it('keeps an address-book entry filed under __proto__', async () => {
  const book = Object.create(null) as Record<string, PreparedBook[string]>;
  book['__proto__'] = rejected('not an address');
  book['0:AA'] = rejected('friendly form of another address');
  const page: CheckedPage = { ok: [], rejects: [], received: 0, addressBook: book, ordered: false };
  const crowded = await readCrowdedPosition({ endpoint: '/api/v3/transactions', axis: 'lt' }, async () => page, { position: 7n, atLeast: 0, limit: 10 });
  expect(Object.keys(crowded.addressBook).sort()).toEqual(['0:AA', '__proto__']);
  expect(Object.getPrototypeOf(crowded.addressBook)).toBe(null);
  expect(crowded.addressBook['__proto__']).toEqual(rejected('not an address'));
});
