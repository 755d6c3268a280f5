import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pageWindow } from '../../src/extract/position-pager.js';
import type { StreamDefinition, PageRequest } from '../../src/core/stream.js';
import type { V3Api } from '../../src/api/v3.js';

interface Item {
  readonly id: string;
  readonly pos: bigint;
}

/** A service whose rows sharing a position come back in a different order on every request (unless `stable`). */
function fakeStream(rows: readonly Item[], requests: PageRequest[], stable = false): StreamDefinition<Item, unknown> {
  let shuffle = 0;
  return {
    name: 'fake',
    doc: 'test',
    tables: [],
    axis: 'lt',
    endpoint: '/api/v3/fake',
    itemsKey: 'items',
    item: z.object({ id: z.string(), pos: z.string().transform(BigInt) }),
    rescansOverlap: false,
    fetchPage: async (_api, _filters, request) => {
      requests.push(request);
      if (!stable) shuffle += 1;
      const inRange = rows.filter((r) => r.pos >= request.from && r.pos <= request.to);
      const ordered = [...inRange].sort((a, b) => (a.pos === b.pos ? ((a.id < b.id) === (shuffle % 2 === 0) ? -1 : 1) : a.pos < b.pos ? -1 : 1));
      const page = ordered.slice(request.offset, request.offset + request.limit);
      return { items: page.map((r) => ({ id: r.id, pos: String(r.pos) })) };
    },
    position: (item) => item.pos,
    key: (item) => item.id,
    toRows: () => new Map(),
  };
}

async function collect(rows: Item[], limit: number, from = 0n, to = 1000n, stable = false): Promise<{ ids: string[]; requests: PageRequest[] }> {
  const requests: PageRequest[] = [];
  const ids: string[] = [];
  for await (const page of pageWindow(fakeStream(rows, requests, stable), {} as V3Api, {}, { from, to, limit })) {
    ids.push(...page.items.map((i) => i.id));
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

  it('respects inclusive window bounds', async () => {
    const { ids } = await collect(rows, 4, 10n, 12n);
    const expected = rows.filter((r) => r.pos >= 10n && r.pos <= 12n).map((r) => r.id);
    expect(ids.sort()).toEqual(expected.sort());
  });
});
