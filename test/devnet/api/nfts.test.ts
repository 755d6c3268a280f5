import { beforeAll, describe, expect, it } from 'vitest';
import { buildDevnetApi } from '../../../src/devnet/index.js';
import type { NftTransfer } from '../../../src/devnet/chain/model.js';
import { callV3 } from '../../support/devnet-routes.js';
import { apiErrorOf } from '../../support/api-error.js';
import type { Query } from '../../support/http.js';

type Row = Record<string, unknown>;

let api: ReturnType<typeof buildDevnetApi>;
const transfers = (query: Query): Row[] => callV3<{ nft_transfers: Row[] }>(api, 'nft/transfers', query).nft_transfers;
const items = (query: Query): Row[] => callV3<{ nft_items: Row[] }>(api, 'nft/items', query).nft_items;

beforeAll(() => {
  api = buildDevnetApi({ seed: 7, blocks: 400 });
});

function visible(): NftTransfer[] {
  const chain = api.view.chain;
  return chain.nftTransfers.slice(0, api.view.visibleRecords(chain.nftTransfers));
}

const lt = (r: NftTransfer): number => api.view.chain.tx(r.tx).lt;
const hash = (r: NftTransfer): string => api.view.chain.tx(r.tx).hash;

describe('GET /nft/transfers', () => {
  it('includes rows at exactly start_lt and end_lt, ordered by lt', () => {
    const all = visible();
    const from = lt(all[20]!);
    const to = lt(all[120]!);
    const rows = transfers({ start_lt: from, end_lt: to, limit: 1000, sort: 'asc' });
    expect(rows.map((r) => r.transaction_hash).sort()).toEqual(all.filter((r) => lt(r) >= from && lt(r) <= to).map(hash).sort());
    expect(rows[0]!.transaction_lt).toBe(String(from));
    expect(rows.at(-1)!.transaction_lt).toBe(String(to));
    const desc = transfers({ limit: 100 }).map((r) => Number(r.transaction_lt));
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
  });

  it('returns rows sharing an lt in a different order across requests', () => {
    const counts = new Map<number, number>();
    for (const r of visible()) counts.set(lt(r), (counts.get(lt(r)) ?? 0) + 1);
    const [tieLt, size] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    expect(size).toBeGreaterThanOrEqual(2);
    const orders = new Set<string>();
    for (let i = 0; i < 8; i++) orders.add(transfers({ start_lt: tieLt, end_lt: tieLt }).map((r) => r.transaction_hash).join(','));
    expect(orders.size).toBeGreaterThan(1);
  });

  it('filters by owner: in = new owner, out = old owner, none = either', () => {
    const owner = api.render.raw(visible()[0]!.newOwner);
    const incoming = transfers({ owner_address: owner, direction: 'in', limit: 1000 });
    const out = transfers({ owner_address: owner, direction: 'out', limit: 1000 });
    expect(incoming.length).toBeGreaterThan(0);
    expect(incoming.every((r) => r.new_owner === owner)).toBe(true);
    expect(out.every((r) => r.old_owner === owner)).toBe(true);
    expect(transfers({ owner_address: owner, limit: 1000 })).toHaveLength(incoming.length + out.length);
  });

  it('filters by item and collection', () => {
    const first = visible()[0]!;
    const item = api.render.raw(first.item);
    const rows = transfers({ item_address: item, limit: 1000 });
    expect(rows.map((r) => r.transaction_hash).sort()).toEqual(visible().filter((r) => r.item === first.item).map(hash).sort());
    expect(transfers({ collection_address: api.render.raw(first.collection), limit: 1000 })).toHaveLength(visible().length);
  });

  it('rejects a limit above 1000', () => {
    expect(apiErrorOf(() => transfers({ limit: 1001 })).message).toBe('limit is not allowed: 1001 > 1000');
  });
});

describe('GET /nft/items', () => {
  it('lists items by internal id with owner, collection and content', () => {
    const population = api.view.chain.population;
    const rows = items({ limit: 20 });
    expect(rows.map((r) => r.address)).toEqual(population.nftItems.slice(0, 20).map((i) => api.render.raw(i)));
    const first = population.accountAt(population.nftItems[0]!);
    expect(rows[0]).toMatchObject({
      index: '0',
      init: true,
      on_sale: false,
      owner_address: api.render.raw(first.owner!),
      collection_address: api.render.raw(population.collection),
      collection: { address: api.render.raw(population.collection), next_item_index: String(population.nftItems.length) },
    });
  });

  it('orders an owner filter by (owner, collection, index) and a collection by index', () => {
    const population = api.view.chain.population;
    const owners = [...new Set(population.nftItems.map((i) => population.accountAt(i).owner!))].slice(0, 3).map((o) => api.render.raw(o));
    const rows = items({ owner_address: owners, limit: 1000 });
    const keys = rows.map((r) => [r.owner_address as string, Number(r.index)] as const);
    expect(keys).toEqual([...keys].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1])));
    expect(new Set(keys.map((k) => k[0]))).toEqual(new Set(owners));
    const collection = api.render.raw(population.collection);
    expect(items({ collection_address: collection, index: [7, 3] }).map((r) => r.index)).toEqual(['3', '7']);
  });

  it('rejects index without collection_address, and a non-decimal index', () => {
    expect(apiErrorOf(() => items({ index: 3 }))).toMatchObject({ status: 422, message: 'index parameter is not allowed without the collection_address' });
    const collection = api.render.raw(api.view.chain.population.collection);
    expect(apiErrorOf(() => items({ collection_address: collection, index: 'x1' })).status).toBe(422);
  });
});
