/**
 * GET /getAddressInformation: `raw.fullAccountState` of any address, at the HEAD or at the
 * masterchain block `seqno`. Balance, state and last transaction come from the account's history;
 * code and data are those of the head state (the devnet keeps no historical contract data).
 */
import type { Handler } from '../../http/types.js';
import type { Account, AccountStatus, Block, Transaction } from '../../chain/model.js';
import type { QueryParams } from '../../http/query-params.js';
import { ZERO_HASH } from '../../render/context.js';
import type { DevnetApi } from '../context.js';
import { blockIdExt, headMcBlock, mcBlockAt } from './block-id.js';
import { boc, codeCell, dataCell } from '../../render/contract-cells.js';
import { addressParam, seqnoParam } from './params.js';

export type V2AccountState = 'uninitialized' | 'active' | 'frozen';

export function accountsHandlers(api: DevnetApi): Record<string, Handler> {
  return {
    getAddressInformation: (req) => {
      const { account, block, state, v2State } = addressAt(api, req.query);
      const deployed = account !== undefined && v2State === 'active';
      return {
        '@type': 'raw.fullAccountState',
        balance: (state?.balance ?? 0n).toString(),
        extra_currencies: [],
        last_transaction_id: lastTransactionId(state),
        block_id: blockIdExt(block),
        code: deployed ? boc(codeCell(account)) : '',
        data: deployed ? boc(dataCell(api.render, account)) : '',
        frozen_hash: '',
        sync_utime: block.genUtime,
        state: v2State,
        suspended: false,
      };
    },
  };
}

/** An address parameter's account (undefined when the chain never saw it) and its state at the `seqno` parameter or the HEAD. */
export interface AddressAt {
  readonly raw: string;
  readonly account: Account | undefined;
  readonly block: Block;
  readonly state: AccountStateAt | undefined;
  readonly v2State: V2AccountState;
}

export function addressAt(api: DevnetApi, query: QueryParams): AddressAt {
  const chain = api.view.chain;
  const raw = addressParam(query);
  const seqno = seqnoParam(query, false);
  const block = seqno === undefined ? headMcBlock(api) : mcBlockAt(api, seqno);
  const index = chain.population.byRaw.get(raw);
  const account = index === undefined ? undefined : chain.population.accountAt(index);
  const state = account === undefined ? undefined : accountStateAt(api, account, block.mcSeqno);
  return { raw, account, block, state, v2State: v2StateOf(state?.status ?? 'nonexist') };
}

/** The id of the last transaction as of the state; lt 0 and the zero hash before any. */
export function lastTransactionId(state: AccountStateAt | undefined): Record<string, unknown> {
  return { '@type': 'internal.transactionId', lt: String(state?.lastTx?.lt ?? 0), hash: state?.lastTx?.hash ?? ZERO_HASH };
}

export interface AccountStateAt {
  readonly status: AccountStatus;
  readonly balance: bigint;
  readonly lastTx: Transaction | undefined;
}

/** An account's status, balance and last transaction as of the end of masterchain block `mcSeqno`. */
export function accountStateAt(api: DevnetApi, account: Account, mcSeqno: number): AccountStateAt {
  const chain = api.view.chain;
  const txs = chain.accountTxs[account.index] ?? [];
  // Transactions are in lt order, so their masterchain seqnos never decrease: find the last one ≤ mcSeqno.
  let lo = 0;
  let hi = txs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (chain.tx(txs[mid]!).mcSeqno <= mcSeqno) lo = mid + 1;
    else hi = mid;
  }
  const last = lo === 0 ? undefined : chain.tx(txs[lo - 1]!);
  if (last !== undefined) return { status: last.endStatus, balance: last.balanceAfter, lastTx: last };
  const first = txs[0] === undefined ? undefined : chain.tx(txs[0]);
  if (first !== undefined) return { status: first.origStatus, balance: first.balanceBefore, lastTx: undefined };
  return { status: account.status, balance: account.balance, lastTx: undefined };
}

/** The node knows no `nonexist`: an address without state reads as `uninitialized`. */
export function v2StateOf(status: AccountStatus): V2AccountState {
  return status === 'active' ? 'active' : status === 'frozen' ? 'frozen' : 'uninitialized';
}
