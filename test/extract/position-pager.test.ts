import { describe, expect, it } from 'vitest';
import { pageWindow } from '../../src/extract/position-pager.js';
import { pageReader } from '../../src/extract/page-reader.js';
import type { PreparedItem } from '../../src/transform/prepared-page.js';
import type { StreamDefinition, PageRequest } from '../../src/core/stream.js';
import type { V3Api } from '../../src/api/v3.js';
import { fakeStream, ltListApi } from './fake-lt-list.js';

interface Item {
  readonly id: string;
  readonly pos: bigint;
  /** Sent with a broken position: fails validation. */
  readonly broken?: boolean;
}

/**
 * A service whose rows sharing a position come back in a different order on every request (unless
 * `stable`); `fixedOrder` declares the stable order to the pager.
 */
function fakeService(rows: readonly Item[], requests: PageRequest[], stable = false, fixedOrder = false): { stream: StreamDefinition<Item, unknown>; api: V3Api } {
  let shuffle = 0;
  const stream: StreamDefinition<Item, unknown> = { ...fakeStream, orderWithinPosition: fixedOrder ? (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : undefined };
  const api = ltListApi((request) => {
    requests.push(request);
    if (!stable) shuffle += 1;
    const inRange = rows.filter((r) => r.pos >= request.from && r.pos <= request.to);
    const ordered = [...inRange].sort((a, b) => (a.pos === b.pos ? ((a.id < b.id) === (shuffle % 2 === 0) ? -1 : 1) : a.pos < b.pos ? -1 : 1));
    const page = ordered.slice(request.offset, request.offset + request.limit);
    return { items: page.map((r) => ({ id: r.id, pos: r.broken === true ? 'broken' : String(r.pos) })) };
  });
  return { stream, api };
}

async function collect(rows: Item[], limit: number, from = 0n, to = 1000n, stable = false, fixedOrder = false): Promise<{ ids: string[]; requests: PageRequest[] }> {
  const requests: PageRequest[] = [];
  const ids: string[] = [];
  const { stream, api } = fakeService(rows, requests, stable, fixedOrder);
  for await (const page of pageWindow(stream, pageReader(stream, api, {}), { from, to, limit })) {
    ids.push(...page.items.map((i) => i.key));
  }
  return { ids, requests };
}

describe('pageWindow', () => {
  const rows: Item[] = [];
  for (let pos = 1n; pos <= 40n; pos++) {
    const ties = Number(pos % 4n) + 1;
    for (let t = 0; t < ties; t++) rows.push({ id: `${pos}-${t}`, pos });
  }

  it('returns every row exactly once though ties come back in a new order on every request', async () => {
    // Up to 4 rows share a position; any page larger than that never splits a position it keeps.
    for (const limit of [5, 6, 7, 1000]) {
      const { ids } = await collect(rows, limit);
      expect(ids.length, `limit ${limit}`).toBe(rows.length);
      expect(new Set(ids).size, `limit ${limit}`).toBe(rows.length);
    }
  });

  it('restarts a full page at its last position, inclusive', async () => {
    const { requests } = await collect(rows, 5);
    expect(requests[0]).toMatchObject({ from: 0n, to: 1000n, offset: 0 });
    // First page: 1-0,1-1, 2-0..2-2 (positions 1, 2) → rows at 2 dropped, restart at 2.
    expect(requests[1]).toMatchObject({ from: 2n, offset: 0 });
  });

  it('reads a position holding more rows than a page by offset (needs a stable order within the position)', async () => {
    const crowded: Item[] = [{ id: 'a', pos: 1n }, ...Array.from({ length: 7 }, (_, i) => ({ id: `c${i}`, pos: 2n })), { id: 'z', pos: 3n }];
    const { ids, requests } = await collect(crowded, 3, 0n, 1000n, true);
    expect(new Set(ids)).toEqual(new Set(crowded.map((r) => r.id)));
    expect(requests.some((r) => r.offset > 0 && r.from === 2n && r.to === 2n)).toBe(true);
  });

  it('with an order within a position, keeps full pages whole and goes on by offset: every row once, only the last of each page read twice', async () => {
    for (const limit of [3, 5, 7, 1000]) {
      const { ids, requests } = await collect(rows, limit, 0n, 1000n, true, true);
      expect(ids, `limit ${limit}`).toEqual([...rows].sort((a, b) => (a.pos === b.pos ? (a.id < b.id ? -1 : 1) : a.pos < b.pos ? -1 : 1)).map((r) => r.id));
      // Each continuation asks for the last item read again, which must come first: limit − 1 new items a page.
      expect(requests, `limit ${limit}`).toHaveLength(rows.length < limit ? 1 : Math.floor((rows.length - limit) / (limit - 1)) + 2);
    }
    const { requests } = await collect(rows, 5, 0n, 1000n, true, true);
    // First page: 1-0, 1-1, 2-0, 2-1, 2-2: all kept, the next starts at 2 with its third row again.
    expect(requests[1]).toMatchObject({ from: 2n, to: 1000n, offset: 2 });
  });

  it('yields only the positions a full first page completes when the caller reads no further (firstPageOnly)', async () => {
    const requests: PageRequest[] = [];
    const { stream, api } = fakeService(rows, requests, true, true);
    const pages = pageWindow(stream, pageReader(stream, api, {}), { from: 0n, to: 1000n, limit: 5, firstPageOnly: true });
    const first = await pages.next();
    await pages.return(undefined);
    expect(first.value).toMatchObject({ through: 1n, last: false });
    expect(first.value?.items.map((i: PreparedItem) => i.key)).toEqual(['1-0', '1-1']);
  });

  it('reads an invalid item again rather than skip a valid one after it', async () => {
    const withBroken = rows.map((r) => (r.id === '2-1' || r.id === '7-3' ? { ...r, broken: true } : r));
    const valid = withBroken.filter((r) => r.broken !== true).map((r) => r.id);
    for (const fixedOrder of [false, true]) {
      for (const limit of [3, 4, 5, 6]) {
        const { ids } = await collect(withBroken, limit, 0n, 1000n, true, fixedOrder);
        expect(ids.sort(), `limit ${limit}, fixed order ${fixedOrder}`).toEqual([...valid].sort());
      }
      // A page of one position after an invalid item: [b, c0, c1, c2], then position 3 by offset 3, not 4.
      const crowded: Item[] = [
        ...['a0', 'a1', 'a2'].map((id) => ({ id, pos: 1n })),
        { id: 'b', pos: 2n, broken: true },
        ...Array.from({ length: 6 }, (_, i) => ({ id: `c${i}`, pos: 3n })),
      ];
      const { ids } = await collect(crowded, 4, 0n, 1000n, true, fixedOrder);
      expect(ids.sort(), `fixed order ${fixedOrder}`).toEqual(['a0', 'a1', 'a2', 'c0', 'c1', 'c2', 'c3', 'c4', 'c5']);
    }
  });

  it('respects inclusive window bounds', async () => {
    const { ids } = await collect(rows, 4, 10n, 12n);
    const expected = rows.filter((r) => r.pos >= 10n && r.pos <= 12n).map((r) => r.id);
    expect(ids.sort()).toEqual(expected.sort());
  });
});
