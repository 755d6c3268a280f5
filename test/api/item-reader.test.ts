/**
 * The compiled item reader against zod, stream by stream, on the devnet's items: for an item zod
 * accepts the reader gives zod's output exactly (or leaves it to zod), and for an item zod refuses
 * the reader never answers. Mutated items (a value anywhere replaced by a bad or borderline one, or
 * removed) hold it to the same.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { UNDECIDED, itemReader } from '../../src/api/item-reader.js';
import { isSnapshot, type AnyStream } from '../../src/core/stream.js';
import { buildDevnetApi } from '../../src/devnet/index.js';
import { allStreams } from '../../src/streams/index.js';
import { addressBookEntry } from '../../src/api/wire.js';
import { callV3 } from '../support/devnet-routes.js';
import type { Query } from '../support/http.js';
import { seededRandom } from '../support/seeded-random.js';

let api: ReturnType<typeof buildDevnetApi>;

beforeAll(() => {
  api = buildDevnetApi({ seed: 7, blocks: 120 });
});

/** One page of the stream's items from the devnet, as the stream reads them. */
function itemsOf(stream: AnyStream): unknown[] {
  const query = isSnapshot(stream) ? stream.query({}, { limit: 100, offset: 0 }) : stream.query({}, { from: 0n, to: stream.axis === 'utime' ? 2n ** 31n : 2n ** 62n, limit: 100, offset: 0 });
  const response = callV3(api, stream.endpoint.replace('/api/v3/', ''), query as Query);
  const items = (response[stream.itemsKey] ?? []) as unknown[];
  return isSnapshot(stream) && stream.withResponse !== undefined ? items.map((item) => stream.withResponse!(item, response)) : items;
}

/** What the reader answers beside what zod answers, for one input. */
function agree(schema: Parameters<typeof itemReader>[0], input: unknown): void {
  const read = itemReader(schema)(input);
  const parsed = schema.safeParse(input);
  if (read === UNDECIDED) return;
  expect(parsed.success, `the reader accepted an item zod refuses: ${parsed.error?.message}`).toBe(true);
  expect(read).toStrictEqual(parsed.data);
}

const BAD_VALUES: readonly unknown[] = [
  null,
  undefined,
  '',
  'x',
  '0',
  '007',
  '-1',
  '1.5',
  '18446744073709551616',
  '9223372036854775808',
  '99999999999999999999999999999999999999',
  '100000000000000000000000000000000000000',
  1.5,
  -1,
  2 ** 53,
  true,
  [],
  {},
  ['a'],
  'te\ud800xt',
];

/** Every path to a value inside `value` (object keys and array indexes). */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [prefix];
  const entries = Array.isArray(value) ? value.map((item, index) => [index, item] as const) : Object.entries(value);
  return [prefix, ...entries.flatMap(([key, item]) => paths(item, [...prefix, key]))];
}

/** `value` with the value at `path` replaced (`undefined` removes an object key). */
function replaced(value: unknown, path: readonly (string | number)[], by: unknown): unknown {
  if (path.length === 0) return by;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? replaced(item, rest, by) : item));
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const next = replaced(copy[head!], rest, by);
  if (next === undefined && rest.length === 0) delete copy[head!];
  else copy[head!] = next;
  return copy;
}

describe.each(allStreams.map((stream) => [stream.name, stream] as const))('%s', (_name, stream) => {
  test("reads every devnet item as zod does, and answers for them itself", () => {
    const items = itemsOf(stream);
    expect(items.length).toBeGreaterThan(0);
    const reader = itemReader(stream.item);
    for (const item of items) {
      expect(reader(item)).toStrictEqual(stream.item.parse(item));
    }
  });

  test('never answers for an item zod refuses, and answers as zod for one it accepts (mutated items)', () => {
    const random = seededRandom(13);
    const items = itemsOf(stream).slice(0, 20);
    let refused = 0;
    for (const item of items) {
      const all = paths(item);
      for (let i = 0; i < 40; i++) {
        const path = all[Math.floor(random() * all.length)]!;
        const mutated = replaced(item, path, BAD_VALUES[Math.floor(random() * BAD_VALUES.length)]);
        agree(stream.item, mutated);
        if (!stream.item.safeParse(mutated).success) refused++;
      }
    }
    expect(refused).toBeGreaterThan(0);
  });
});

test('an address book entry is read as zod reads it, and a bad one is left to zod', () => {
  const entry = { user_friendly: 'EQabc', domain: null, interfaces: ['wallet_v4r2'], extra: 1 };
  expect(itemReader(addressBookEntry)(entry)).toStrictEqual(addressBookEntry.parse(entry));
  expect(itemReader(addressBookEntry)({ ...entry, interfaces: [1] })).toBe(UNDECIDED);
  expect(itemReader(addressBookEntry)({ user_friendly: null })).toStrictEqual({ user_friendly: null, domain: null, interfaces: [] });
});
