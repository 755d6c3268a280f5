/**
 * GET /nft/transfers, /nft/items. Transfers: ORDER BY tx_lt only (tx_now with a utime filter), rows
 * sharing it in random order, aborted ones included. Items: head state, ordered by internal id, or
 * (owner, collection, index) with an owner filter, or index within one collection.
 */
import type { Handler } from '../../http/types.js';
import type { Account } from '../../chain/model.js';
import { ApiError } from '../../http/api-error.js';
import { accountsParam, enrich, pageParams, Refs, type DevnetApi } from '../context.js';
import { selectPage } from '../paging.js';
import { optionalAccountParam, ownerMatches, ownersParam, selectRecords, txWindowParams } from '../record-page.js';
import { renderNftTransfer } from '../../render/records.js';
import { renderNftItem } from '../../render/nft-item.js';

const ENRICH = { addressBook: true, metadata: true } as const;

export function nftHandlers(api: DevnetApi): Record<string, Handler> {
  const chain = api.view.chain;
  const population = chain.population;
  return {
    'nft/transfers': (req) => {
      const q = req.query;
      const owners = ownersParam(api, q);
      const items = accountsParam(api, q, 'item_address');
      const collection = optionalAccountParam(api, q, 'collection_address');
      const direction = q.enumOf('direction', ['in', 'out', 'both'] as const);
      const rows = selectRecords(
        api,
        chain.nftTransfers,
        txWindowParams(q),
        (r) =>
          (owners === undefined || ownerMatches(owners, r.oldOwner, r.newOwner, direction)) &&
          (items === undefined || items.includes(r.item)) &&
          (collection === undefined || r.collection === collection),
        pageParams(q),
      );
      const refs = new Refs();
      const nft_transfers = rows.map((r) => renderNftTransfer(api.render, r, refs));
      return enrich(api, req, { nft_transfers }, refs, ENRICH);
    },
    'nft/items': (req) => {
      const q = req.query;
      const addresses = accountsParam(api, q, 'address');
      const owners = accountsParam(api, q, 'owner_address');
      const collections = accountsParam(api, q, 'collection_address');
      const indexes = indexParams(q.getAll('index'));
      if (indexes !== undefined && collections === undefined) {
        throw new ApiError(422, 'index parameter is not allowed without the collection_address');
      }
      const page = { ...pageParams(q), sort: 'asc' as const };
      const items = population.nftItems
        .map((i) => population.accountAt(i))
        .filter(
          (a) =>
            a.status !== 'nonexist' &&
            (addresses === undefined || addresses.includes(a.index)) &&
            (owners === undefined || owners.includes(a.owner!)) &&
            (collections === undefined || collections.includes(population.collection)) &&
            (indexes === undefined || indexes.includes(a.nftIndex!)),
        );
      if (owners !== undefined) items.sort((a, b) => compare(api.render.raw(a.owner!), api.render.raw(b.owner!)) || byIndex(a, b));
      else if (collections?.length === 1) items.sort(byIndex);
      const picked = selectPage(0, items.length, (i) => items[i]!, () => true, page);
      const refs = new Refs();
      const nft_items = picked.map((a) => renderNftItem(api.render, a.index, refs));
      return enrich(api, req, { nft_items }, refs, ENRICH);
    },
  };
}

/** `index[]`: digits only (empty values are dropped, as the service does). */
function indexParams(values: readonly string[]): number[] | undefined {
  const present = values.filter((v) => v !== '');
  if (present.length === 0) return undefined;
  if (present.length > 1000) throw new ApiError(422, `index: too many values: ${present.length} > 1000`);
  return present.map((v) => {
    if (!/^\d+$/.test(v)) throw new ApiError(422, `failed to parse index: ${JSON.stringify(v)} is not a decimal number`);
    return Number(v);
  });
}

function byIndex(a: Account, b: Account): number {
  return a.nftIndex! - b.nftIndex!;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
