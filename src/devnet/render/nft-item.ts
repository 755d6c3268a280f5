/** NFTItem objects (/nft/items) with their collection, from the population's state. */
import type { RenderContext } from './context.js';
import type { Refs } from './refs.js';
import { accountSnapshot } from './account-state.js';

export function renderNftItem(ctx: RenderContext, item: number, refs: Refs): Record<string, unknown> {
  const population = ctx.chain.population;
  const s = accountSnapshot(ctx, item);
  const { owner, nftIndex } = s.account;
  if (owner === undefined || nftIndex === undefined) throw new Error(`account ${item} is not an NFT item`);
  refs.add(item);
  refs.add(population.collection);
  refs.add(owner);
  return {
    address: s.account.raw,
    init: true,
    index: String(nftIndex),
    collection_address: ctx.raw(population.collection),
    owner_address: ctx.raw(owner),
    content: { uri: `https://devnet.invalid/nft/${nftIndex}.json` },
    last_transaction_lt: s.lastTransactionLt,
    code_hash: s.codeHash,
    data_hash: s.dataHash,
    collection: renderCollection(ctx),
    on_sale: false,
  };
}

export function renderCollection(ctx: RenderContext): Record<string, unknown> {
  const population = ctx.chain.population;
  const s = accountSnapshot(ctx, population.collection);
  return {
    address: s.account.raw,
    owner_address: null,
    next_item_index: String(population.nftItems.length),
    collection_content: { uri: 'https://devnet.invalid/nft/collection.json' },
    data_hash: s.dataHash,
    code_hash: s.codeHash,
    last_transaction_lt: s.lastTransactionLt,
  };
}
