/**
 * An account's latest state as the indexer's `latest_account_states` shows it: AccountStateFull
 * (/accountStates) and WalletState (/walletStates). Hashes are derived the way the transaction
 * renderer derives `account_state_after`, so both views of one account agree.
 */
import { createHash } from 'node:crypto';
import type { Account } from '../chain/model.js';
import type { RenderContext } from './context.js';
import type { Refs } from './refs.js';
import { SUBWALLET_ID } from '../chain/constants.js';

const walletTypes: Partial<Record<Account['kind'], string>> = {
  wallet: 'wallet v4 r2',
  validator_wallet: 'wallet v3 r2',
};

/** The wallet contract an account runs (`wallet v4 r2`…), undefined for other contracts. */
export function walletTypeOf(account: Account): string | undefined {
  return walletTypes[account.kind];
}

export interface AccountSnapshot {
  readonly account: Account;
  /** account_state_hash: the state after its last transaction (a hash of its id before any). */
  readonly stateHash: string;
  readonly codeHash: string | null;
  readonly dataHash: string | null;
  readonly lastTransactionHash: string | null;
  readonly lastTransactionLt: string;
}

export function accountSnapshot(ctx: RenderContext, index: number): AccountSnapshot {
  const chain = ctx.chain;
  const account = chain.population.accountAt(index);
  const last = account.lastTx < 0 ? undefined : chain.tx(account.lastTx);
  const stateHash = last?.stateHashAfter ?? sha256(account.id);
  const active = account.status === 'active';
  return {
    account,
    stateHash,
    codeHash: active ? account.codeHash : null,
    dataHash: active ? sha256(stateHash) : null,
    lastTransactionHash: last?.hash ?? null,
    lastTransactionLt: String(last?.lt ?? 0),
  };
}

/** AccountStateFull. The devnet has no contract code, so `code_boc`/`data_boc` are always null. */
export function renderAccountStateFull(ctx: RenderContext, index: number, refs: Refs): Record<string, unknown> {
  const s = accountSnapshot(ctx, index);
  refs.add(index);
  return {
    address: s.account.raw,
    account_state_hash: s.stateHash,
    balance: s.account.balance.toString(),
    extra_currencies: {},
    status: s.account.status,
    frozen_hash: null,
    code_hash: s.codeHash,
    data_hash: s.dataHash,
    code_boc: null,
    data_boc: null,
    last_transaction_hash: s.lastTransactionHash,
    last_transaction_lt: s.lastTransactionLt,
    interfaces: s.account.interfaces,
  };
}

/** WalletState: wallet fields only for a deployed wallet contract, `is_wallet: false` otherwise. */
export function renderWalletState(ctx: RenderContext, index: number, refs: Refs): Record<string, unknown> {
  const s = accountSnapshot(ctx, index);
  refs.add(index);
  const walletType = walletTypes[s.account.kind];
  const isWallet = walletType !== undefined && s.account.status === 'active';
  const rendered: Record<string, unknown> = {
    address: s.account.raw,
    is_wallet: isWallet,
  };
  if (isWallet) {
    rendered.wallet_type = walletType;
    rendered.seqno = s.account.seqno;
    rendered.wallet_id = SUBWALLET_ID;
    rendered.is_signature_allowed = true;
  }
  Object.assign(rendered, {
    balance: s.account.balance.toString(),
    extra_currencies: {},
    status: s.account.status,
    code_hash: s.codeHash,
    last_transaction_hash: s.lastTransactionHash,
    last_transaction_lt: s.lastTransactionLt,
  });
  return rendered;
}

function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('base64');
}
