/** JettonMaster and JettonWallet objects (/jetton/masters, /jetton/wallets) from the population's state. */
import type { Population } from '../chain/population.js';
import type { RenderContext } from './context.js';
import type { Refs } from './refs.js';
import { accountSnapshot } from './account-state.js';

/**
 * The devnet's masters have no admin in the chain model; the admin of the n-th master is the n-th
 * wallet of the population, so `admin_address` is stable and filterable.
 */
export function jettonAdminOf(population: Population, master: number): number {
  const wallet = population.wallets[population.masters.indexOf(master)];
  if (wallet === undefined) throw new Error(`account ${master} is not a jetton master`);
  return wallet;
}

export function renderJettonMaster(ctx: RenderContext, master: number, refs: Refs): Record<string, unknown> {
  const population = ctx.chain.population;
  const s = accountSnapshot(ctx, master);
  const token = s.account.token;
  if (token === undefined) throw new Error(`account ${master} is not a jetton master`);
  const admin = jettonAdminOf(population, master);
  refs.add(master);
  refs.add(admin);
  return {
    address: s.account.raw,
    total_supply: token.totalSupply.toString(),
    mintable: true,
    admin_address: ctx.raw(admin),
    jetton_content: {
      name: token.name,
      symbol: token.symbol,
      decimals: String(token.decimals),
      description: `${token.name} on the devnet`,
      image: `https://devnet.invalid/${token.symbol.toLowerCase()}.png`,
    },
    jetton_wallet_code_hash: jettonWalletCodeHash(population),
    code_hash: s.codeHash,
    data_hash: s.dataHash,
    last_transaction_lt: s.lastTransactionLt,
  };
}

export function renderJettonWallet(ctx: RenderContext, wallet: number, refs: Refs): Record<string, unknown> {
  const s = accountSnapshot(ctx, wallet);
  const { owner, jettonMaster } = s.account;
  if (owner === undefined || jettonMaster === undefined) throw new Error(`account ${wallet} is not a jetton wallet`);
  refs.add(wallet);
  refs.add(owner);
  refs.add(jettonMaster);
  return {
    address: s.account.raw,
    balance: (s.account.jettonBalance ?? 0n).toString(),
    owner: ctx.raw(owner),
    jetton: ctx.raw(jettonMaster),
    last_transaction_lt: s.lastTransactionLt,
    code_hash: s.codeHash,
    data_hash: s.dataHash,
  };
}

/** Every jetton wallet runs the same code, so any one's code hash is the masters' wallet code hash. */
function jettonWalletCodeHash(population: Population): string | null {
  return population.accounts.find((a) => a.kind === 'jetton_wallet')?.codeHash ?? null;
}
