/**
 * GET /getTokenData: what the gateway reads from a jetton or NFT contract's standard getters, as one
 * typed object. Any other contract (or an address without code) is 409 `Smart contract is not Jetton or NFT`.
 */
import { Address } from '@ton/core';
import type { Handler } from '../../http/types.js';
import type { Account } from '../../chain/model.js';
import { ApiError } from '../../http/api-error.js';
import type { DevnetApi } from '../context.js';
import { friendlyAddress } from './address-forms.js';
import { boc, jettonWalletCode } from '../../render/contract-cells.js';
import { addressParam } from './params.js';

export function tokensHandlers(api: DevnetApi): Record<string, Handler> {
  const population = api.view.chain.population;
  const friendly = (account: number | undefined): string | undefined =>
    account === undefined ? undefined : friendlyAddress(api, api.render.address(account));
  return {
    getTokenData: (req) => {
      const raw = addressParam(req.query);
      const index = population.byRaw.get(raw);
      const account = index === undefined ? undefined : population.accountAt(index);
      const address = friendlyAddress(api, Address.parseRaw(raw));
      switch (account?.status === 'active' ? account.kind : undefined) {
        case 'jetton_master':
          return {
            '@type': 'ext.tokens.jettonMasterData',
            address,
            contract_type: 'jetton_master',
            total_supply: (account!.token?.totalSupply ?? 0n).toString(),
            mintable: true,
            jetton_content: { type: 'onchain', data: onchainContent(account!) },
            jetton_wallet_code: boc(jettonWalletCode(api.render)),
          };
        case 'jetton_wallet':
          return {
            '@type': 'ext.tokens.jettonWalletData',
            address,
            contract_type: 'jetton_wallet',
            balance: (account!.jettonBalance ?? 0n).toString(),
            owner: friendly(account!.owner),
            jetton: friendly(account!.jettonMaster),
            jetton_wallet_code: boc(jettonWalletCode(api.render)),
          };
        case 'nft_collection':
          return {
            '@type': 'ext.tokens.nftCollectionData',
            address,
            contract_type: 'nft_collection',
            next_item_index: String(population.accounts.filter((a) => a.kind === 'nft_item').length),
            collection_content: { type: 'offchain', data: 'collection.json' },
          };
        case 'nft_item':
          return {
            '@type': 'ext.tokens.nftItemData',
            address,
            contract_type: 'nft_item',
            init: true,
            index: String(account!.nftIndex ?? 0),
            collection_address: friendly(population.collection),
            owner_address: friendly(account!.owner),
            content: { type: 'offchain', data: `${account!.nftIndex ?? 0}.json` },
          };
        default:
          throw new ApiError(409, 'Smart contract is not Jetton or NFT');
      }
    },
  };
}

/** The TEP-64 on-chain content the master's data cell holds (contract-cells.ts `jettonContent`), as a dict. */
function onchainContent(account: Account): Record<string, string> {
  const token = account.token;
  return token === undefined ? {} : { name: token.name, symbol: token.symbol, decimals: String(token.decimals) };
}
