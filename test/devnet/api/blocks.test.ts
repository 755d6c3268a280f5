/**
 * GET /blocks as the `blocks` stream reads it (API-NOTES §2): `sort` orders by gen_utime, the blocks of
 * one second in a fresh order per request; utime bounds inclusive; workchain and shard filters; limit ≤ 1000.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDevnetApi } from '../../../src/devnet/index.js';
import { truthRows } from '../../../src/devnet/truth.js';
import { callV3 } from '../../support/devnet-routes.js';
import { apiErrorOf } from '../../support/api-error.js';
import type { Query } from '../../support/http.js';

type Block = Record<string, unknown>;

let api: ReturnType<typeof buildDevnetApi>;
let truth: Block[];
const get = (query: Query): Block[] => callV3<{ blocks: Block[] }>(api, 'blocks', query).blocks;
const id = (b: Block): string => `${String(b.workchain)}:${String(b.shard)}:${String(b.seqno)}`;
const utime = (b: Block): number => Number(b.gen_utime);

beforeAll(() => {
  api = buildDevnetApi({ seed: 7, blocks: 60 });
  truth = truthRows(api, 'blocks');
});

describe('GET /blocks', () => {
  it('serves masterchain and shard blocks, several per second', () => {
    expect(new Set(truth.map((b) => `${String(b.workchain)}:${String(b.shard)}`))).toEqual(
      new Set(['-1:8000000000000000', '0:4000000000000000', '0:C000000000000000']),
    );
    expect(truth.filter((b) => utime(b) === utime(truth[10]!)).length).toBeGreaterThan(1);
  });

  it('orders by gen_utime with sort=asc, includes both utime bounds and nothing outside', () => {
    const from = utime(truth[30]!);
    const to = utime(truth[90]!);
    const page = get({ start_utime: from, end_utime: to, sort: 'asc', limit: 1000 });
    expect(page.map(id).sort()).toEqual(truth.filter((b) => utime(b) >= from && utime(b) <= to).map(id).sort());
    expect(page.map(utime)).toEqual([...page.map(utime)].sort((a, b) => a - b));
    expect(utime(page[0]!)).toBe(from);
    expect(utime(page.at(-1)!)).toBe(to);
  });

  it('returns the blocks of one second in a different order across requests (no tie-breaker promised)', () => {
    const second = utime(truth[30]!);
    const orders = new Set<string>();
    for (let i = 0; i < 12; i++) orders.add(get({ start_utime: second, end_utime: second, sort: 'asc', limit: 1000 }).map(id).join(','));
    expect(orders.size).toBeGreaterThan(1);
    expect(new Set([...orders].map((order) => order.split(',').sort().join(',')))).toHaveProperty('size', 1);
  });

  it('filters by workchain, and by shard with its workchain', () => {
    expect(get({ workchain: -1, sort: 'asc', limit: 1000 }).map(id)).toEqual(truth.filter((b) => b.workchain === -1).map(id));
    const shard = get({ workchain: 0, shard: 'c000000000000000', sort: 'asc', limit: 1000 });
    expect(shard.map(id).sort()).toEqual(truth.filter((b) => b.shard === 'C000000000000000').map(id).sort());
  });

  it('rejects a limit above 1000 naming the parameter', () => {
    const err = apiErrorOf(() => get({ limit: 1001 }));
    expect(err.status).toBe(422);
    expect(err.message).toBe('limit is not allowed: 1001 > 1000');
  });
});
