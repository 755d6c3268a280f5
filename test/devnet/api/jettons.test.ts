import { beforeAll, describe, expect, it } from 'vitest';
import { buildDevnetApi } from '../../../src/devnet/index.js';
import { TOKENS } from '../../../src/devnet/chain/population.js';
import type { JettonTransfer } from '../../../src/devnet/chain/model.js';
import { callV3 } from '../../support/devnet-routes.js';
import { apiErrorOf } from '../../support/api-error.js';
import type { Query } from '../../support/http.js';

type Row = Record<string, string | number | boolean | null>;
interface Transfers {
  jetton_transfers: Row[];
  address_book: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

let api: ReturnType<typeof buildDevnetApi>;
const get = <T = Transfers>(endpoint: string, query: Query = {}, headers: Record<string, string> = {}): T => callV3<T>(api, endpoint, query, headers);

beforeAll(() => {
  api = buildDevnetApi({ seed: 7, blocks: 400 });
});

/** Visible, non-aborted transfers, as the service lists them, ascending by lt. */
function expectedTransfers(): JettonTransfer[] {
  const chain = api.view.chain;
  return chain.jettonTransfers.slice(0, api.view.visibleRecords(chain.jettonTransfers)).filter((r) => !chain.tx(r.tx).aborted);
}

const lt = (r: JettonTransfer): number => api.view.chain.tx(r.tx).lt;
const hash = (r: JettonTransfer): string => api.view.chain.tx(r.tx).hash;

describe('GET /jetton/transfers', () => {
  it('includes rows at exactly start_lt and end_lt and nothing outside', () => {
    const all = expectedTransfers();
    const from = lt(all[40]!);
    const to = lt(all[90]!);
    const body = get('jetton/transfers', { start_lt: from, end_lt: to, sort: 'asc', limit: 1000 });
    const inside = all.filter((r) => lt(r) >= from && lt(r) <= to);
    expect(body.jetton_transfers.map((r) => r.transaction_hash).sort()).toEqual(inside.map(hash).sort());
    expect(body.jetton_transfers[0]!.transaction_lt).toBe(String(from));
    expect(body.jetton_transfers.at(-1)!.transaction_lt).toBe(String(to));
  });

  it('orders by tx_lt, desc by default and asc on request', () => {
    const desc = get('jetton/transfers', { limit: 200 }).jetton_transfers.map((r) => Number(r.transaction_lt));
    expect(desc).toHaveLength(200);
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    expect(desc[0]).toBe(lt(expectedTransfers().at(-1)!));
    const asc = get('jetton/transfers', { limit: 200, sort: 'asc' }).jetton_transfers.map((r) => Number(r.transaction_lt));
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    expect(asc[0]).toBe(lt(expectedTransfers()[0]!));
  });

  it('returns rows sharing an lt in a different order across requests (no tie-breaker)', () => {
    const counts = new Map<number, number>();
    for (const r of expectedTransfers()) counts.set(lt(r), (counts.get(lt(r)) ?? 0) + 1);
    const [tieLt, size] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    expect(size).toBeGreaterThanOrEqual(2);
    const orders = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const rows = get('jetton/transfers', { start_lt: tieLt, end_lt: tieLt, limit: 1000 }).jetton_transfers;
      expect(rows).toHaveLength(size);
      orders.add(rows.map((r) => r.transaction_hash).join(','));
    }
    expect(orders.size).toBeGreaterThan(1);
    expect(new Set([...orders].map((o) => o.split(',').sort().join(',')))).toHaveProperty('size', 1);
  });

  it('orders by tx_now only with a utime filter, bounds inclusive', () => {
    const all = expectedTransfers();
    const chain = api.view.chain;
    const from = chain.tx(all[100]!.tx).now;
    const to = chain.tx(all[160]!.tx).now;
    const rows = get('jetton/transfers', { start_utime: from, end_utime: to, limit: 1000, sort: 'asc' }).jetton_transfers;
    const inside = all.filter((r) => chain.tx(r.tx).now >= from && chain.tx(r.tx).now <= to);
    expect(rows.map((r) => r.transaction_hash).sort()).toEqual(inside.map(hash).sort());
    const nows = rows.map((r) => r.transaction_now as number);
    expect(nows).toEqual([...nows].sort((a, b) => a - b));
    expect(nows[0]).toBe(from);
    expect(nows.at(-1)).toBe(to);
  });

  it('filters owners by direction: out = source, in = destination, none = either', () => {
    const owner = expectedTransfers()[0]!.source;
    const raw = api.render.raw(owner);
    const rows = (direction?: string): Row[] => get('jetton/transfers', { owner_address: raw, limit: 1000, direction }).jetton_transfers;
    const out = rows('out');
    const incoming = rows('in');
    expect(out.length).toBeGreaterThan(0);
    expect(out.every((r) => r.source === raw)).toBe(true);
    expect(incoming.every((r) => r.destination === raw)).toBe(true);
    expect(rows().length).toBe(out.length + incoming.filter((r) => r.source !== raw).length);
    expect(apiErrorOf(() => rows('sideways')).status).toBe(422);
  });

  it('carries GIGA amounts above 2^100 digit for digit', () => {
    const giga = api.view.chain.population.masters[TOKENS.findIndex((t) => t.symbol === 'GIGA')]!;
    const rows = get('jetton/transfers', { jetton_master: api.render.raw(giga), limit: 1000 }).jetton_transfers;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.jetton_master === api.render.raw(giga))).toBe(true);
    expect(rows.some((r) => BigInt(r.amount as string) > 1n << 100n)).toBe(true);
    const byHash = new Map(expectedTransfers().map((r) => [hash(r), r.amount]));
    for (const r of rows) expect(r.amount).toBe(byHash.get(r.transaction_hash as string)!.toString());
  });

  it('rejects a limit above 1000 naming the parameter', () => {
    const err = apiErrorOf(() => get('jetton/transfers', { limit: 1001 }));
    expect(err.status).toBe(422);
    expect(err.message).toBe('limit is not allowed: 1001 > 1000');
  });

  it('honours X-No-Address-Book and X-No-Metadata', () => {
    const full = get('jetton/transfers', { limit: 5 });
    expect(Object.keys(full.address_book).length).toBeGreaterThan(0);
    expect(Object.keys(full.metadata).length).toBeGreaterThan(0);
    const bare = get('jetton/transfers', { limit: 5 }, { 'X-No-Address-Book': 'true', 'X-No-Metadata': 'true' });
    expect(bare.address_book).toEqual({});
    expect(bare.metadata).toEqual({});
  });
});

describe('aborted transfers and burns', () => {
  it('the generated chain records no aborted jetton transfer: over-balance transfers abort before recording', () => {
    const chain = api.view.chain;
    expect(chain.jettonTransfers.filter((r) => chain.tx(r.tx).aborted)).toEqual([]);
    expect(chain.txs.some((tx) => tx.aborted && chain.population.accountAt(tx.account).kind === 'jetton_wallet')).toBe(true);
  });

  it('never lists an aborted transfer, but lists an aborted burn', () => {
    const own = buildDevnetApi({ seed: 7, blocks: 400 });
    const chain = own.view.chain;
    const aborted = chain.txs.find((tx) => tx.aborted && chain.population.accountAt(tx.account).kind === 'jetton_wallet')!;
    const wallet = chain.population.accountAt(aborted.account);
    const at = chain.jettonTransfers.findIndex((r) => chain.tx(r.tx).lt > aborted.lt);
    chain.jettonTransfers.splice(at, 0, {
      tx: aborted.index,
      queryId: 1n,
      source: wallet.owner!,
      destination: wallet.owner!,
      amount: 1n,
      sourceWallet: wallet.index,
      master: wallet.jettonMaster!,
      responseDestination: wallet.owner!,
      forwardTonAmount: 0n,
      comment: null,
    });
    const burnAt = chain.jettonBurns.findIndex((r) => chain.tx(r.tx).lt > aborted.lt);
    chain.jettonBurns.splice(burnAt, 0, {
      tx: aborted.index,
      queryId: 2n,
      owner: wallet.owner!,
      wallet: wallet.index,
      master: wallet.jettonMaster!,
      amount: 1n,
      responseDestination: wallet.owner!,
    });
    const window = { start_lt: aborted.lt, end_lt: aborted.lt, limit: 1000 };
    const transfers = callV3<Transfers>(own, 'jetton/transfers', window).jetton_transfers;
    expect(transfers.map((r) => r.transaction_hash)).not.toContain(aborted.hash);
    expect(callV3<Transfers>(own, 'jetton/transfers', { jetton_wallet: wallet.raw, limit: 1000 }).jetton_transfers.some((r) => r.transaction_aborted)).toBe(false);
    const burns = callV3<{ jetton_burns: Row[] }>(own, 'jetton/burns', window).jetton_burns;
    expect(burns.find((r) => r.transaction_hash === aborted.hash)).toMatchObject({ transaction_aborted: true, query_id: '2' });
  });
});

describe('GET /jetton/burns', () => {
  it('filters by owner_address, with the single `address` as fallback, lt bounds inclusive', () => {
    const chain = api.view.chain;
    const burns = chain.jettonBurns.slice(0, api.view.visibleRecords(chain.jettonBurns));
    const owner = burns[0]!.owner;
    const raw = api.render.raw(owner);
    const mine = burns.filter((r) => r.owner === owner).map((r) => chain.tx(r.tx).hash).sort();
    const hashes = (query: Query): string[] =>
      get<{ jetton_burns: Row[] }>('jetton/burns', query).jetton_burns.map((r) => r.transaction_hash as string).sort();
    expect(hashes({ owner_address: raw, limit: 1000 })).toEqual(mine);
    expect(hashes({ address: raw, limit: 1000 })).toEqual(mine);
    const from = chain.tx(burns[10]!.tx).lt;
    const to = chain.tx(burns[30]!.tx).lt;
    const inside = burns.filter((r) => chain.tx(r.tx).lt >= from && chain.tx(r.tx).lt <= to).map((r) => chain.tx(r.tx).hash).sort();
    expect(hashes({ start_lt: from, end_lt: to, limit: 1000 })).toEqual(inside);
  });
});

describe('GET /jetton/masters', () => {
  it('lists the masters in internal id order with supply, admin and content', () => {
    const population = api.view.chain.population;
    const body = get<{ jetton_masters: Row[]; address_book: Record<string, unknown> }>('jetton/masters');
    expect(body.jetton_masters.map((m) => m.address)).toEqual(population.masters.map((m) => api.render.raw(m)));
    const giga = body.jetton_masters[2]!;
    const token = population.accountAt(population.masters[2]!).token!;
    expect(giga).toMatchObject({ total_supply: token.totalSupply.toString(), mintable: true, admin_address: api.render.raw(population.wallets[2]!) });
    expect(giga.jetton_content).toMatchObject({ name: 'Giga', symbol: 'GIGA', decimals: '18' });
    expect(body.address_book).toHaveProperty(giga.admin_address as string);
    const byAdmin = get<{ jetton_masters: Row[] }>('jetton/masters', { admin_address: giga.admin_address as string }).jetton_masters;
    expect(byAdmin.map((m) => m.address)).toEqual([giga.address]);
    expect(get<{ jetton_masters: Row[] }>('jetton/masters', { limit: 1, offset: 1 }).jetton_masters.map((m) => m.address)).toEqual([api.render.raw(population.masters[1]!)]);
  });
});

describe('GET /jetton/wallets', () => {
  it('without sort: internal id asc; with sort: by balance; owner and zero-balance filters', () => {
    const population = api.view.chain.population;
    const existing = population.accounts.filter((a) => a.kind === 'jetton_wallet' && a.status !== 'nonexist');
    const rows = (query: Query): Row[] => get<{ jetton_wallets: Row[] }>('jetton/wallets', query).jetton_wallets;
    expect(rows({ limit: 50 }).map((w) => w.address)).toEqual(existing.slice(0, 50).map((a) => a.raw));
    const desc = rows({ limit: 1000, sort: 'desc' }).map((w) => BigInt(w.balance as string));
    expect(desc.every((b, i) => i === 0 || desc[i - 1]! >= b)).toBe(true);
    const asc = rows({ limit: 1000, sort: 'asc' }).map((w) => BigInt(w.balance as string));
    expect(asc.every((b, i) => i === 0 || asc[i - 1]! <= b)).toBe(true);
    const owner = existing[0]!.owner!;
    const owned = rows({ owner_address: api.render.raw(owner), limit: 1000 });
    expect(owned.map((w) => w.address).sort()).toEqual(existing.filter((a) => a.owner === owner).map((a) => a.raw).sort());
    expect(owned.every((w) => w.owner === api.render.raw(owner))).toBe(true);
    const nonZero = rows({ exclude_zero_balance: true, limit: 1000, sort: 'asc' });
    expect(nonZero.every((w) => BigInt(w.balance as string) > 0n)).toBe(true);
  });
});
