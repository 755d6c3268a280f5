/**
 * GET /nft/sales: fixed-price sale contracts (GetGems sale v3) holding DNS items for their sellers,
 * looked up by the sale contract's address; unknown addresses are left out.
 */
import type { Handler } from '../../http/types.js';
import { ApiError } from '../../http/api-error.js';
import { accountsParam, enrich, Refs, type DevnetApi } from '../context.js';
import { accountSnapshot } from '../../render/account-state.js';
import { renderDnsItem } from '../../render/dns-item.js';

/** Marketplace fee and royalty, in 1/1000 of the price, as GetGems charges them. */
const MARKETPLACE_FEE = 50n;
const ROYALTY = 50n;

export function nftSaleHandlers(api: DevnetApi): Record<string, Handler> {
  const services = api.view.chain.services;
  return {
    'nft/sales': (req) => {
      const addresses = accountsParam(api, req.query, 'address');
      if (addresses === undefined || addresses.length === 0) throw new ApiError(422, 'missing required parameter: address');
      const refs = new Refs();
      const nft_sales = services.sales
        .filter((sale) => addresses.includes(sale.account))
        .map((sale) => {
          const s = accountSnapshot(api.render, sale.account);
          refs.add(sale.account);
          refs.add(sale.marketplace);
          refs.add(sale.seller);
          return {
            address: s.account.raw,
            type: 'getgems_sale',
            nft_address: api.render.raw(sale.item.account),
            nft_owner_address: api.render.raw(sale.seller),
            marketplace_address: api.render.raw(sale.marketplace),
            created_at: sale.createdAt,
            details: {
              full_price: sale.price.toString(),
              marketplace_fee_address: api.render.raw(sale.marketplace),
              marketplace_fee: ((sale.price * MARKETPLACE_FEE) / 1000n).toString(),
              royalty_address: api.render.raw(services.dnsCollection),
              royalty_amount: ((sale.price * ROYALTY) / 1000n).toString(),
              is_complete: false,
            },
            code_hash: s.codeHash,
            data_hash: s.dataHash,
            last_transaction_lt: s.lastTransactionLt,
            nft_item: renderDnsItem(api.render, sale.item, refs),
          };
        });
      return enrich(api, req, { nft_sales }, refs, { addressBook: true, metadata: true });
    },
  };
}
