/**
 * GET /jetton/burns as the `jetton_burns` stream reads it (API-NOTES §2): ORDER BY tx_lt only, burns
 * sharing an lt in a fresh order per request; lt bounds inclusive; jetton_master and jetton_wallet
 * filters; limit ≤ 1000. (Owners, the `address` fallback and aborted burns: jettons.test.ts.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDevnetApi } from '../../../src/devnet/index.js';
import { truthRows } from '../../../src/devnet/truth.js';
import { callV3 } from '../../support/devnet-routes.js';
import { apiErrorOf } from '../../support/api-error.js';
import type { Query } from '../../support/http.js';

type Burn = Record<string, unknown>;

let api: ReturnType<typeof buildDevnetApi>;
let truth: Burn[];
const get = (query: Query): Burn[] => callV3<{ jetton_burns: Burn[] }>(api, 'jetton/burns', query).jetton_burns;
const lt = (b: Burn): bigint => BigInt(b.transaction_lt as string);
const hashes = (burns: readonly Burn[]): string[] => burns.map((b) => b.transaction_hash as string).sort();

beforeAll(() => {
  api = buildDevnetApi({ seed: 7, blocks: 400 });
  truth = truthRows(api, 'jetton_burns');
});

describe('GET /jetton/burns', () => {
  it('orders by tx_lt with sort=asc, includes both lt bounds and nothing outside', () => {
    const from = lt(truth[5]!);
    const to = lt(truth.at(-5)!);
    const page = get({ start_lt: String(from), end_lt: String(to), sort: 'asc', limit: 1000 });
    expect(hashes(page)).toEqual(hashes(truth.filter((b) => lt(b) >= from && lt(b) <= to)));
    expect(page.map(lt)).toEqual([...page.map(lt)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect([lt(page[0]!), lt(page.at(-1)!)]).toEqual([from, to]);
  });

  it('returns burns sharing an lt in a different order across requests (no tie-breaker)', () => {
    const counts = new Map<bigint, number>();
    for (const b of truth) counts.set(lt(b), (counts.get(lt(b)) ?? 0) + 1);
    const [tieLt, size] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    expect(size).toBeGreaterThanOrEqual(2);
    const orders = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const burns = get({ start_lt: String(tieLt), end_lt: String(tieLt), sort: 'asc', limit: 1000 });
      expect(burns).toHaveLength(size);
      orders.add(burns.map((b) => b.transaction_hash).join(','));
    }
    expect(orders.size).toBeGreaterThan(1);
  });

  it('filters by jetton_master and by jetton_wallet', () => {
    const master = truth[0]!.jetton_master as string;
    expect(hashes(get({ jetton_master: master, limit: 1000 }))).toEqual(hashes(truth.filter((b) => b.jetton_master === master)));
    const wallet = truth[0]!.jetton_wallet as string;
    expect(hashes(get({ jetton_wallet: wallet, limit: 1000 }))).toEqual(hashes(truth.filter((b) => b.jetton_wallet === wallet)));
  });

  it('rejects a limit above 1000 naming the parameter', () => {
    const err = apiErrorOf(() => get({ limit: 1001 }));
    expect(err.status).toBe(422);
    expect(err.message).toBe('limit is not allowed: 1001 > 1000');
  });
});
