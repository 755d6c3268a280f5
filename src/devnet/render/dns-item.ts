/** TON DNS items as NFTItem objects (/nft/sales, /dns/activeAuctions), with the DNS collection. */
import type { DnsItem } from '../chain/services.js';
import type { RenderContext } from './context.js';
import type { Refs } from './refs.js';
import { accountSnapshot } from './account-state.js';

export function renderDnsItem(ctx: RenderContext, item: DnsItem, refs: Refs): Record<string, unknown> {
  const services = ctx.chain.services;
  const s = accountSnapshot(ctx, item.account);
  const sale = services.sales.find((candidate) => candidate.item.account === item.account);
  refs.add(item.account);
  refs.add(services.dnsCollection);
  refs.add(item.owner);
  return {
    address: s.account.raw,
    init: true,
    index: item.index.toString(),
    collection_address: ctx.raw(services.dnsCollection),
    owner_address: item.owner === null ? null : ctx.raw(item.owner),
    content: { domain: item.domain },
    last_transaction_lt: s.lastTransactionLt,
    code_hash: s.codeHash,
    data_hash: s.dataHash,
    collection: renderDnsCollection(ctx),
    on_sale: sale !== undefined,
    ...(sale === undefined ? {} : { sale_contract_address: ctx.raw(sale.account), real_owner: ctx.raw(sale.seller) }),
  };
}

export function renderDnsCollection(ctx: RenderContext): Record<string, unknown> {
  const s = accountSnapshot(ctx, ctx.chain.services.dnsCollection);
  return {
    address: s.account.raw,
    owner_address: null,
    next_item_index: '-1',
    collection_content: { uri: 'https://dns.ton.org/collection.json' },
    data_hash: s.dataHash,
    code_hash: s.codeHash,
    last_transaction_lt: s.lastTransactionLt,
  };
}
