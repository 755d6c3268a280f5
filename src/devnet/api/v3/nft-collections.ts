/**
 * GET /nft/collections: the devnet collection and the TON DNS collection, in address order.
 * Neither has an owner, so an `owner_address` filter finds none.
 */
import type { Handler } from '../../http/types.js';
import { accountsParam, enrich, Refs, type DevnetApi } from '../context.js';
import { renderCollection } from '../../render/nft-item.js';
import { renderDnsCollection } from '../../render/dns-item.js';

export function nftCollectionHandlers(api: DevnetApi): Record<string, Handler> {
  const chain = api.view.chain;
  const collections = [
    { account: chain.population.collection, render: () => renderCollection(api.render) },
    { account: chain.services.dnsCollection, render: () => renderDnsCollection(api.render) },
  ].sort((a, b) => (api.render.raw(a.account) < api.render.raw(b.account) ? -1 : 1));
  return {
    'nft/collections': (req) => {
      const q = req.query;
      const addresses = accountsParam(api, q, 'collection_address');
      const owners = accountsParam(api, q, 'owner_address');
      const limit = q.limit(10, 1000);
      const offset = q.offset();
      const picked = collections.filter((c) => (addresses === undefined || addresses.includes(c.account)) && owners === undefined).slice(offset, offset + limit);
      const refs = new Refs();
      for (const c of picked) refs.add(c.account);
      return enrich(api, req, { nft_collections: picked.map((c) => c.render()) }, refs, { addressBook: true, metadata: true });
    },
  };
}
