/**
 * The paging contract from the pager's side: every page is checked against its request, a position
 * fuller than a page is read by counting whatever order the service returns its ties in, and a service
 * that breaks the contract ends the window with a PagingContractError after a bounded number of
 * requests, never a loop and never a silent hole. Generated cases (fast-check) draw the rows, the page
 * size and the service's behaviour.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { V3Api } from '../../src/api/v3.js';
import type { PageRequest, StreamDefinition } from '../../src/core/stream.js';
import { CheckpointTracker } from '../../src/run/checkpoint-tracker.js';
import { MAX_POSITION_PAGES } from '../../src/extract/crowded-position.js';
import { PagingContractError, checkPage } from '../../src/extract/page-check.js';
import { pageWindow, type Page } from '../../src/extract/position-pager.js';
import { pageReader } from '../../src/extract/page-reader.js';
import { seededRandom } from '../support/seeded-random.js';
import { fakeStream, ltListApi } from './fake-lt-list.js';

interface Item {
  readonly id: string;
  readonly pos: bigint;
}

/** How the fake service answers. */
interface Behaviour {
  /** Order of items sharing a position: by id, a fresh random order per request, or a fresh random order per request with each page then sorted by id. */
  readonly ties: 'stable' | 'shuffled' | 'sortedPages';
  readonly descending?: boolean;
  readonly beyondBounds?: boolean;
  readonly ignoreOffset?: boolean;
  readonly repeatPages?: boolean;
  readonly overLimit?: boolean;
  /** Pages after the first of a position read alone repeat items of the first: the rest never arrives. */
  readonly hidesTail?: boolean;
  /** Share of items sent broken (an invalid field beside a sound key), drawn afresh for every answer. */
  readonly flakyItems?: number;
  /** The stream claims the by-id order within a position (as transactions claim (lt, account)). */
  readonly claimsOrder?: boolean;
  readonly seed?: number;
}

const byId = (a: Item, b: Item): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function fakeService(rows: readonly Item[], behaviour: Behaviour, requests: PageRequest[]): { stream: StreamDefinition<Item, unknown>; api: V3Api } {
  const random = seededRandom(behaviour.seed ?? 1);
  let previous: unknown[] | undefined;
  const stream = { ...fakeStream, orderWithinPosition: behaviour.claimsOrder === true ? byId : undefined };
  const api = ltListApi((request) => {
    requests.push(request);
    if (requests.length > 10_000) throw new Error('the pager loops: 10,000 requests');
    const inRange = rows.filter((r) => r.pos >= request.from && (behaviour.beyondBounds === true || r.pos <= request.to));
    const keyed = inRange.map((r) => ({ r, tie: behaviour.ties === 'stable' ? 0 : random() }));
    keyed.sort((a, b) => (a.r.pos !== b.r.pos ? (a.r.pos < b.r.pos ? -1 : 1) : a.tie - b.tie || byId(a.r, b.r)));
    let ordered = keyed.map((k) => k.r);
    if (behaviour.descending === true) ordered = ordered.reverse();
    const offset = behaviour.ignoreOffset === true ? 0 : request.offset;
    let page = ordered.slice(offset, offset + request.limit + (behaviour.overLimit === true ? 1 : 0));
    if (behaviour.hidesTail === true && request.from === request.to && offset > 0) page = ordered.slice(0, page.length);
    if (behaviour.ties === 'sortedPages') sortTies(page);
    const items = page.map((r) => ({ id: r.id, pos: random() < (behaviour.flakyItems ?? 0) ? 'broken' : String(r.pos) }));
    const answer = behaviour.repeatPages === true && previous !== undefined ? previous : items;
    previous = items;
    return { items: answer };
  });
  return { stream, api };
}

/** Sorts each run of items sharing a position by id, in place. */
function sortTies(page: Item[]): void {
  for (let start = 0; start < page.length; ) {
    let end = start + 1;
    while (end < page.length && page[end]!.pos === page[start]!.pos) end++;
    page.splice(start, end - start, ...page.slice(start, end).sort(byId));
    start = end;
  }
}

interface Outcome {
  readonly pages: Page[];
  readonly ids: string[];
  readonly requests: PageRequest[];
  readonly error?: unknown;
}

async function read(rows: readonly Item[], behaviour: Behaviour, limit: number, from = 0n, to = 1_000_000n): Promise<Outcome> {
  const requests: PageRequest[] = [];
  const pages: Page[] = [];
  try {
    const { stream, api } = fakeService(rows, behaviour, requests);
    for await (const page of pageWindow(stream, pageReader(stream, api, {}), { from, to, limit })) pages.push(page);
  } catch (error) {
    return { pages, ids: pages.flatMap((p) => p.items.map((i) => i.key)), requests, error };
  }
  return { pages, ids: pages.flatMap((p) => p.items.map((i) => i.key)), requests };
}

/** `count` items at each of the given positions. */
function rowsAt(counts: Readonly<Record<string, number>>): Item[] {
  return Object.entries(counts).flatMap(([pos, count]) => Array.from({ length: count }, (_, i) => ({ id: `${pos}-${String(i).padStart(5, '0')}`, pos: BigInt(pos) })));
}

const sorted = (ids: readonly string[]): string[] => [...ids].sort();

describe('checkPage', () => {
  const stream = fakeStream;
  const request: PageRequest = { from: 10n, to: 20n, limit: 3, offset: 0 };
  const item = (key: string, position: bigint): { key: string; position: bigint } => ({ key, position });
  const problem = (items: { key: string; position: bigint }[], received = items.length): string => {
    try {
      checkPage(stream, request, items, received);
    } catch (error) {
      expect(error).toBeInstanceOf(PagingContractError);
      return (error as Error).message;
    }
    return 'accepted';
  };

  it('accepts a page inside the bounds, ascending, each item once, within the limit', () => {
    expect(problem([item('a', 10n), item('b', 10n), item('c', 20n)])).toBe('accepted');
  });

  it('names the endpoint, the request, the violation and what to do', () => {
    expect(problem([item('a', 10n), item('b', 21n)])).toBe(
      '/api/v3/fake?start_lt=10&end_lt=20&limit=3&offset=0 broke the paging contract: item b is at lt 21, outside the requested 10..20; ' +
        'nothing of it was stored and the checkpoint stays before it: run again once the service pages correctly (or point base_url at one that does)',
    );
    expect(problem([item('a', 9n)])).toContain(': item a is at lt 9, outside the requested 10..20;');
    expect(problem([item('a', 12n), item('b', 11n)])).toContain(': items are not in ascending lt order (lt 11 after 12);');
    expect(problem([item('a', 12n), item('a', 12n)])).toContain(': item a appears twice in one page;');
    expect(problem([item('a', 12n)], 4)).toContain(': it sent 4 items for limit 3;');
  });
});

describe('pageWindow against a service that keeps the contract', () => {
  it('reads 2,500 items sharing one position, returned in a fresh order per request, each once and in one page', async () => {
    const rows = rowsAt({ 5: 3, 7: 2500, 9: 4 });
    for (const claimsOrder of [false, true]) {
      const { ids, pages, requests, error } = await read(rows, { ties: 'shuffled', claimsOrder, seed: 3 }, 1000);
      expect(error, `claims order ${claimsOrder}`).toBeUndefined();
      expect(ids.length, `claims order ${claimsOrder}`).toBe(rows.length);
      expect(sorted(ids)).toEqual(sorted(rows.map((r) => r.id)));
      // The crowded position arrives whole in one page: a trace is never split between commits.
      expect(pages.some((page) => page.items.filter((i) => i.position === 7n).length === 2500)).toBe(true);
      expect(requests.length).toBeLessThan(80);
    }
  });

  it('uses the promised order to read each item once when every page keeps it', async () => {
    const rows = rowsAt({ 1: 2, 2: 3, 3: 1, 4: 4, 5: 2, 6: 7 });
    const { ids, requests } = await read(rows, { ties: 'stable', claimsOrder: true }, 4);
    expect(ids).toEqual([...rows].sort((a, b) => (a.pos !== b.pos ? (a.pos < b.pos ? -1 : 1) : byId(a, b))).map((r) => r.id));
    // Each continuation asks for the last item again (it must come first): 3 new items per page after the first.
    expect(requests).toHaveLength(Math.floor((rows.length - 4) / 3) + 2);
  });

  it('loses nothing when the promised order is not kept across requests (each page sorted, offsets over a fresh order)', async () => {
    const rows = rowsAt({ 1: 2, 2: 5, 3: 1, 4: 9, 5: 2, 6: 7 });
    for (const limit of [3, 4, 5]) {
      const { ids, error } = await read(rows, { ties: 'sortedPages', claimsOrder: true, seed: limit }, limit);
      expect(error, `limit ${limit}`).toBeUndefined();
      expect(sorted(ids), `limit ${limit}`).toEqual(sorted(rows.map((r) => r.id)));
      expect(new Set(ids).size, `limit ${limit}: no item yielded twice`).toBe(ids.length);
    }
  });

  it('holds an item sent broken in one answer and sound in another once, as sound: the position is not complete while another is missing', async () => {
    const rows = rowsAt({ 7: 1500 });
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const { pages, error } = await read(rows, { ties: 'shuffled', flakyItems: 0.03, seed }, 1000);
      expect(error, `seed ${seed}`).toBeUndefined();
      const sound = pages.flatMap((p) => p.items.map((i) => i.key));
      const broken = pages.flatMap((p) => p.rejects.map((r) => (r.raw as { id: string }).id));
      expect(new Set(sound).size, `seed ${seed}: each sound item once`).toBe(sound.length);
      expect(broken.filter((id) => sound.includes(id)), `seed ${seed}: no item both stored and rejected`).toEqual([]);
      expect(sorted([...sound, ...broken]), `seed ${seed}: every item stored or rejected`).toEqual(sorted(rows.map((r) => r.id)));
    }
  });

  it('succeeds without offset where no position is fuller than a page (offset ignored)', async () => {
    const rows = rowsAt({ 1: 2, 2: 2, 3: 1, 4: 2, 5: 2 });
    const { ids, error } = await read(rows, { ties: 'stable', claimsOrder: true, ignoreOffset: true }, 3);
    expect(error).toBeUndefined();
    expect(sorted(ids)).toEqual(sorted(rows.map((r) => r.id)));
  });
});

describe('pageWindow against a service that breaks the contract', () => {
  const rows = rowsAt({ 1: 2, 2: 1, 3: 2, 4: 1, 5: 2, 6: 1 });
  const cases: [string, Behaviour, RegExp][] = [
    ['descending pages', { ties: 'stable', descending: true }, /\?start_lt=0&end_lt=5&limit=3&offset=0 broke the paging contract: items are not in ascending lt order \(lt 4 after 5\)/],
    ['items beyond the end', { ties: 'stable', beyondBounds: true }, /\?start_lt=5&end_lt=5&limit=3&offset=0 broke the paging contract: item 6-00000 is at lt 6, outside the requested 5\.\.5/],
    ['a repeated page', { ties: 'stable', repeatPages: true }, /item 1-00000 is at lt 1, outside the requested 2\.\./],
    ['one item over the limit', { ties: 'stable', overLimit: true }, /it sent 4 items for limit 3/],
  ];

  it('a page of one position above the start, with items below it: fails after one more request', async () => {
    const { error, requests, pages } = await read(rowsAt({ 1: 1, 2: 3 }), { ties: 'stable', descending: true }, 3, 1n, 2n);
    expect((error as Error).message).toMatch(/\?start_lt=1&end_lt=2&limit=3&offset=0 broke the paging contract: it began at lt 2, but lt 1 lies between: the items are not in ascending order;/);
    expect(requests).toHaveLength(2);
    expect(pages).toEqual([]);
  });
  it.each(cases)('%s: fails on the first bad page, having yielded only verified positions', async (_name, behaviour, message) => {
    const { error, pages, requests } = await read(rows, behaviour, 3, 0n, 5n);
    expect(error).toBeInstanceOf(PagingContractError);
    expect((error as Error).message).toMatch(message);
    expect(requests.length).toBeLessThanOrEqual(5);
    for (const page of pages) for (const item of page.items) expect(item.position).toBeLessThanOrEqual(page.through);
  });

  it('a crowded position and offset ignored: fails after a bounded number of requests', async () => {
    const crowded = rowsAt({ 3: 12 });
    const stable = await read(crowded, { ties: 'stable', ignoreOffset: true }, 5, 3n);
    expect((stable.error as Error).message).toMatch(/\?start_lt=3&end_lt=3&limit=5&offset=5 broke the paging contract: it repeats the page at offset 0 of lt 3: the service ignores offset;/);
    expect(stable.requests.length).toBe(3);
    const shuffled = await read(crowded, { ties: 'shuffled', ignoreOffset: true, seed: 9 }, 5, 3n);
    expect((shuffled.error as Error).message).toMatch(new RegExp(`more than ${MAX_POSITION_PAGES * 5} items at lt 3 .*: the service seems to ignore offset`));
    expect(shuffled.requests.length).toBeLessThanOrEqual(MAX_POSITION_PAGES + 1);
    expect(shuffled.pages).toEqual([]);
  });
});

describe('a crowded position that cannot be completed', () => {
  it('fails after its request budget instead of storing part of it', async () => {
    const { error, requests, pages } = await read(rowsAt({ 4: 15 }), { ties: 'stable', hidesTail: true }, 10, 4n, 9n);
    expect((error as Error).message).toMatch(/\?start_lt=4&end_lt=4&limit=10&offset=\d+ broke the paging contract: only 10 of the 15 items at lt 4 arrived in 40 requests \(its pages overlap: the order within a position changes between requests\);/);
    expect(requests).toHaveLength(41);
    expect(pages).toEqual([]);
  });
});

describe('generated cases', () => {
  const behaviour = fc.record({
    ties: fc.constantFrom('stable', 'shuffled', 'sortedPages'),
    claimsOrder: fc.boolean(),
    descending: fc.boolean(),
    beyondBounds: fc.boolean(),
    ignoreOffset: fc.boolean(),
    repeatPages: fc.boolean(),
    overLimit: fc.boolean(),
    seed: fc.integer({ min: 1, max: 1_000_000 }),
  }) as fc.Arbitrary<Behaviour>;
  const positions = fc.array(fc.integer({ min: 1, max: 14 }), { minLength: 1, maxLength: 12 });

  it('every window ends with every item in it exactly once, or with a PagingContractError and only verified positions yielded', async () => {
    await fc.assert(
      fc.asyncProperty(positions, behaviour, fc.integer({ min: 2, max: 6 }), fc.integer({ min: 1, max: 12 }), async (counts, b, limit, to) => {
        const rows = rowsAt(Object.fromEntries(counts.map((count, i) => [String(i + 1), count])));
        const inWindow = rows.filter((r) => r.pos <= BigInt(to));
        const { ids, pages, requests, error } = await read(rows, b, limit, 1n, BigInt(to));
        expect(requests.length).toBeLessThan(2000);
        let through = 0n;
        for (const page of pages) {
          expect(page.through).toBeGreaterThanOrEqual(through);
          expect(page.through).toBeLessThanOrEqual(BigInt(to));
          through = page.through;
        }
        const verified = inWindow.filter((r) => r.pos <= through).map((r) => r.id);
        // Whatever was yielded is real and in the window; everything up to `through` was yielded.
        expect(sorted([...new Set(ids)].filter((id) => verified.includes(id)))).toEqual(sorted(verified));
        expect(ids.every((id) => inWindow.some((r) => r.id === id))).toBe(true);
        if (error === undefined) {
          expect(through).toBe(BigInt(to));
          expect(sorted(ids)).toEqual(sorted(inWindow.map((r) => r.id)));
        } else {
          expect(error).toBeInstanceOf(PagingContractError);
        }
      }),
      { numRuns: 300, seed: 4242 },
    );
  });
});

describe('CheckpointTracker', () => {
  it('refuses to move a checkpoint past its window', () => {
    const tracker = new CheckpointTracker(0n);
    const index = tracker.add({ from: 1n, to: 10n });
    expect(tracker.advance(index, 10n)).toBe(10n);
    expect(() => tracker.advance(index, 11n)).toThrow('a page of the window 1..10 would move the checkpoint to 11, past the window');
    expect(tracker.position()).toBe(10n);
  });
});
