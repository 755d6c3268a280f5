/**
 * GET /transactions, /transactionsByMasterchainBlock, /adjacentTransactions.
 * Order (lt, account) in the sort direction; with utime filters (now, lt, account), which on the
 * devnet is the same sequence because utime never decreases with lt.
 */
import type { DevnetRequest, Handler } from '../../http/types.js';
import type { Transaction } from '../../chain/model.js';
import { ApiError } from '../../http/api-error.js';
import { accountsParam, enrich, ltParam, pageParams, parseHash, Refs, type DevnetApi } from '../context.js';
import { lowerBound, selectPage, type PageRequest } from '../paging.js';
import { renderTransaction } from '../../render/transaction.js';
import { FIRST_MC_SEQNO } from '../../chain/constants.js';

interface TxFilter {
  readonly accounts?: readonly number[];
  readonly workchain?: number;
  readonly shard?: string;
  readonly seqno?: number;
  readonly mcSeqno?: number;
  readonly hash?: readonly string[];
  readonly lt?: number;
  readonly startLt?: number;
  readonly endLt?: number;
  readonly startUtime?: number;
  readonly endUtime?: number;
}

export function transactionsHandlers(api: DevnetApi): Record<string, Handler> {
  return {
    transactions: (req) => {
      const q = req.query;
      const filter: TxFilter = {
        accounts: accountsParam(api, q, 'account'),
        workchain: q.int('workchain'),
        shard: q.get('shard')?.toUpperCase(),
        seqno: q.int('seqno'),
        mcSeqno: q.int('mc_seqno'),
        hash: q.getAll('hash').map((h) => parseHash('hash', h)),
        lt: ltParam(q, 'lt'),
        startLt: ltParam(q, 'start_lt'),
        endLt: ltParam(q, 'end_lt'),
        startUtime: q.int('start_utime'),
        endUtime: q.int('end_utime'),
      };
      if ((filter.shard !== undefined || filter.seqno !== undefined) && filter.workchain === undefined) {
        throw new ApiError(422, 'workchain is required when shard or seqno is given');
      }
      return respondWithTransactions(api, req, queryTransactions(api, filter, pageParams(q)));
    },
    transactionsByMasterchainBlock: (req) => {
      const seqno = req.query.int('seqno', { required: true });
      return respondWithTransactions(api, req, queryTransactions(api, { mcSeqno: seqno }, pageParams(req.query)));
    },
  };
}

export function respondWithTransactions(api: DevnetApi, req: DevnetRequest, txs: readonly Transaction[]): Record<string, unknown> {
  const refs = new Refs();
  const transactions = txs.map((tx) => renderTransaction(api.render, tx, refs));
  return enrich(api, req, { transactions }, refs, { addressBook: true, metadata: false });
}

export function queryTransactions(api: DevnetApi, filter: TxFilter, page: PageRequest): Transaction[] {
  const chain = api.view.chain;
  const visible = api.view.visibleTxs;
  const pop = chain.population;
  const accept = (tx: Transaction): boolean =>
    api.view.isIndexed(tx.index) &&
    (filter.accounts === undefined || filter.accounts.includes(tx.account)) &&
    (filter.hash === undefined || filter.hash.length === 0 || filter.hash.includes(tx.hash)) &&
    (filter.lt === undefined || tx.lt === filter.lt) &&
    (filter.startLt === undefined || tx.lt >= filter.startLt) &&
    (filter.endLt === undefined || tx.lt <= filter.endLt) &&
    (filter.startUtime === undefined || tx.now >= filter.startUtime) &&
    (filter.endUtime === undefined || tx.now <= filter.endUtime) &&
    (filter.mcSeqno === undefined || tx.mcSeqno === filter.mcSeqno) &&
    (filter.workchain === undefined || pop.accountAt(tx.account).workchain === filter.workchain) &&
    (filter.shard === undefined || chain.blocks[tx.block]!.shard === filter.shard) &&
    (filter.seqno === undefined || chain.blocks[tx.block]!.seqno === filter.seqno);

  // A single account is ordered by (account, lt): its own list. Several accounts merge into (lt, account).
  if (filter.accounts !== undefined) {
    const lists = filter.accounts.filter((a) => a >= 0).map((a) => chain.accountTxs[a] ?? []);
    const merged = lists.length === 1 ? lists[0]! : mergeByOrder(api, lists);
    return selectPage(0, merged.length, (i) => chain.tx(merged[i]!), accept, page);
  }
  let lo = 0;
  let hi = visible;
  if (filter.mcSeqno !== undefined) {
    const step = filter.mcSeqno - FIRST_MC_SEQNO;
    if (step < 0 || step > api.view.indexedStep) return [];
    lo = step === 0 ? 0 : chain.txCountAfterStep[step - 1]!;
    hi = chain.txCountAfterStep[step]!;
  }
  const ltAt = (i: number): number => chain.tx(chain.txOrder[i]!).lt;
  const from = filter.lt ?? filter.startLt;
  const to = filter.lt ?? filter.endLt;
  if (from !== undefined) lo = Math.max(lo, lowerBound(visible, ltAt, from));
  if (to !== undefined) hi = Math.min(hi, lowerBound(visible, ltAt, to, true));
  return selectPage(lo, hi, (i) => chain.tx(chain.txOrder[i]!), accept, page);
}

function mergeByOrder(api: DevnetApi, lists: readonly (readonly number[])[]): number[] {
  const chain = api.view.chain;
  const raw = (tx: number): string => chain.population.accountAt(chain.tx(tx).account).raw;
  return lists.flat().sort((a, b) => chain.tx(a).lt - chain.tx(b).lt || (raw(a) < raw(b) ? -1 : 1));
}
