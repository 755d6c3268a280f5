/**
 * GET /nft/collections: the devnet collection and the TON DNS collection, in address order (the
 * devnet's stand-in for the service's internal id: stable while paging). Neither has an owner, so an
 * `owner_address` filter finds none.
 */
import type { Handler } from '../../http/types.js';
import { accountsParam, enrich, Refs, type DevnetApi } from '../context.js';
import { renderCollection } from '../../render/nft-item.js';
import { renderDnsCollection } from '../../render/dns-item.js';

interface DevnetCollection {
  readonly account: number;
  render(): Record<string, unknown>;
}

/** Every collection as the endpoint lists it unfiltered, in its order. */
export function nftCollections(api: DevnetApi): DevnetCollection[] {
  const chain = api.view.chain;
  return [
    { account: chain.population.collection, render: () => renderCollection(api.render) },
    { account: chain.services.dnsCollection, render: () => renderDnsCollection(api.render) },
  ].sort((a, b) => (api.render.raw(a.account) < api.render.raw(b.account) ? -1 : 1));
}

export function nftCollectionHandlers(api: DevnetApi): Record<string, Handler> {
  const collections = nftCollections(api);
  return {
    'nft/collections': (req) => {
      const q = req.query;
      const addresses = accountsParam(api, q, 'collection_address', 1024);
      const owners = accountsParam(api, q, 'owner_address', 1024);
      const limit = q.limit(10, 1000);
      const offset = q.offset();
      const picked = collections.filter((c) => (addresses === undefined || addresses.includes(c.account)) && owners === undefined).slice(offset, offset + limit);
      const refs = new Refs();
      for (const c of picked) refs.add(c.account);
      return enrich(api, req, { nft_collections: picked.map((c) => c.render()) }, refs, { addressBook: true, metadata: true });
    },
  };
}
