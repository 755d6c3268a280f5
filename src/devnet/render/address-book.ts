import type { RenderContext } from './context.js';

/** `address_book` keyed by raw address, for every account a response mentions. */
export function renderAddressBook(ctx: RenderContext, accounts: Iterable<number>): Record<string, unknown> {
  const book: Record<string, unknown> = {};
  for (const account of [...accounts].sort((a, b) => a - b)) {
    book[ctx.raw(account)] = {
      user_friendly: ctx.userFriendly(account),
      domain: null,
      interfaces: ctx.chain.population.accountAt(account).interfaces,
    };
  }
  return book;
}

/** `metadata` for the accounts that have token info (jetton masters, jetton wallets, NFT items). */
export function renderMetadata(ctx: RenderContext, accounts: Iterable<number>): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  const population = ctx.chain.population;
  for (const index of [...accounts].sort((a, b) => a - b)) {
    const account = population.accountAt(index);
    const tokenInfo = tokenInfoOf(ctx, index);
    if (tokenInfo === undefined) continue;
    metadata[account.raw] = { is_indexed: true, token_info: [tokenInfo] };
  }
  return metadata;
}

function tokenInfoOf(ctx: RenderContext, index: number): Record<string, unknown> | undefined {
  const population = ctx.chain.population;
  const account = population.accountAt(index);
  switch (account.kind) {
    case 'jetton_master': {
      const token = account.token!;
      return {
        type: 'jetton_masters',
        valid: true,
        name: token.name,
        symbol: token.symbol,
        description: `${token.name} on the devnet`,
        image: `https://devnet.invalid/${token.symbol.toLowerCase()}.png`,
        extra: { decimals: String(token.decimals) },
      };
    }
    case 'jetton_wallet': {
      const master = population.accountAt(account.jettonMaster!);
      return {
        type: 'jetton_wallets',
        valid: true,
        name: master.token!.name,
        symbol: master.token!.symbol,
        extra: { jetton: master.raw, owner: population.accountAt(account.owner!).raw },
      };
    }
    case 'nft_item':
      return {
        type: 'nft_items',
        valid: true,
        name: `Devnet Item #${account.nftIndex}`,
        nft_index: String(account.nftIndex),
        description: 'An NFT item of the devnet collection',
        image: `https://devnet.invalid/nft/${account.nftIndex}.png`,
        extra: {},
      };
    case 'nft_collection':
      return { type: 'nft_collections', valid: true, name: 'Devnet Collection', description: 'The devnet NFT collection', extra: {} };
    default:
      return undefined;
  }
}
