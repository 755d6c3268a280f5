/**
 * GET /dns/records, /dns/activeAuctions over the genesis DNS population (chain/services.ts).
 * Records are the `dns_wallet` records of claimed domains, in domain order. Auctions are those whose
 * leading bidder is `bidder`: `won` once their end time is at or before the indexed head, else
 * `bidding`; ordered by (end time, address), paged by offset or by the opaque `after` cursor.
 */
import type { Handler } from '../../http/types.js';
import type { DnsItem } from '../../chain/services.js';
import { ApiError } from '../../http/api-error.js';
import { accountParam, enrich, Refs, type DevnetApi } from '../context.js';
import { renderDnsItem } from '../../render/dns-item.js';

const AUCTION_STATES = ['all', 'won', 'bidding'] as const;

export function dnsHandlers(api: DevnetApi): Record<string, Handler> {
  const services = api.view.chain.services;
  const byDomain = [...services.dnsItems].sort((a, b) => (a.domain < b.domain ? -1 : 1));
  return {
    'dns/records': (req) => {
      const q = req.query;
      const wallet = q.has('wallet') && q.get('wallet') !== '' ? accountParam(api, 'wallet', q.get('wallet')!) : undefined;
      const domain = q.get('domain');
      if (wallet === undefined && domain === undefined) throw new ApiError(422, 'wallet or domain is required');
      const limit = q.limit(100, 1000);
      const offset = q.offset();
      const matches = byDomain.filter((item) => item.owner !== null && (wallet === undefined || item.wallet === wallet) && (domain === undefined || item.domain === domain.toLowerCase()));
      const refs = new Refs();
      const records = matches.slice(offset, offset + limit).map((item) => {
        refs.add(item.account);
        refs.add(item.owner);
        refs.add(item.wallet);
        return {
          nft_item_address: api.render.raw(item.account),
          nft_item_owner: item.owner === null ? null : api.render.raw(item.owner),
          domain: item.domain,
          dns_next_resolver: null,
          dns_wallet: item.wallet === null ? null : api.render.raw(item.wallet),
          dns_site_adnl: null,
          dns_storage_bag_id: null,
        };
      });
      return enrich(api, req, { records }, refs, { addressBook: true, metadata: false });
    },
    'dns/activeAuctions': (req) => {
      const q = req.query;
      const bidderText = q.get('bidder');
      if (bidderText === undefined || bidderText === '') throw new ApiError(422, 'missing required parameter: bidder');
      const bidder = accountParam(api, 'bidder', bidderText);
      const state = q.enumOf('state', AUCTION_STATES) ?? 'all';
      const includeItems = q.bool('include_nft_items') === true;
      const limit = q.limit(100, 1000);
      const after = q.get('after');
      if (after !== undefined && q.has('offset')) throw new ApiError(422, 'use either after or offset, not both');
      const offset = q.offset();
      const now = api.view.chain.utimes[api.view.indexedStep]!;
      const finished = (item: DnsItem): boolean => item.auction!.endTime <= now;
      const auctions = services.dnsItems
        .filter((item) => item.auction !== null && item.auction.bidder === bidder && (state === 'all' || (state === 'won') === finished(item)))
        .sort((a, b) => a.auction!.endTime - b.auction!.endTime || (api.render.raw(a.account) < api.render.raw(b.account) ? -1 : 1));
      const start = after === undefined ? offset : auctions.findIndex((item) => cursorOf(api, item) === after) + 1;
      if (after !== undefined && start === 0) throw new ApiError(422, `failed to parse after: ${JSON.stringify(after)} is not a cursor of this list`);
      const page = auctions.slice(start, start + limit);
      const refs = new Refs();
      const rendered = page.map((item) => {
        const auction = item.auction!;
        refs.add(item.account);
        refs.add(auction.bidder);
        return {
          nft_item_address: api.render.raw(item.account),
          domain: item.domain,
          max_bid_address: api.render.raw(auction.bidder),
          max_bid_amount: auction.bid.toString(),
          auction_end_time: String(auction.endTime),
          last_fill_up_time: String(auction.lastFillUp),
          finished: finished(item),
          ...(includeItems ? { nft_item: renderDnsItem(api.render, item, refs) } : {}),
        };
      });
      const body: Record<string, unknown> = { auctions: rendered };
      if (start + limit < auctions.length && page.length > 0) body.next_cursor = cursorOf(api, page[page.length - 1]!);
      return enrich(api, req, body, refs, { addressBook: true, metadata: true });
    },
  };
}

/** Opaque to clients: the row's end time and address, base64url. */
function cursorOf(api: DevnetApi, item: DnsItem): string {
  return Buffer.from(`${item.auction!.endTime}:${api.render.raw(item.account)}`).toString('base64url');
}
