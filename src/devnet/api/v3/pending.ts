/**
 * GET /pendingTransactions, /pendingTraces, /pendingActions: what the service lists from its
 * emulation cache, the traces not finalized yet. While the chain grows (`--grow`, `grow()`), those are
 * the traces in flight at the indexed block (the ones /traces lists as `pending`), as far as the node
 * has them (up to the head): their transactions marked `emulated`, `finalized` where indexed and
 * `confirmed` above it, and the actions of those the head has completed. A static chain has no
 * mempool: the lists are empty. Parameters are checked as the service checks them, one selector required.
 */
import type { DevnetRequest, Handler } from '../../http/types.js';
import type { Transaction } from '../../chain/model.js';
import { ApiError } from '../../http/api-error.js';
import { accountParam, accountsParam, enrich, parseHash, Refs, type DevnetApi } from '../context.js';
import { actionTypes } from './actions.js';
import { renderTransaction } from '../../render/transaction.js';
import { renderTrace } from '../../render/trace.js';
import { renderAction } from '../../render/action.js';

export function pendingHandlers(api: DevnetApi): Record<string, Handler> {
  const chain = api.view.chain;
  const hashes = (req: DevnetRequest, name: string): string[] | undefined => {
    const values = req.query.getAll(name).filter((v) => v !== '');
    return values.length === 0 ? undefined : values.map((v) => parseHash(name, v));
  };
  const account = (req: DevnetRequest): number | undefined => {
    const text = req.query.get('account');
    return text === undefined || text === '' ? undefined : accountParam(api, 'account', text);
  };
  const requireOne = (present: readonly unknown[], names: string): void => {
    if (present.every((p) => p === undefined)) throw new ApiError(422, `${names} is required`);
  };
  /** The traces not finalized yet that a selector matches: an account of theirs, their id or their external message hash. */
  const pendingTraces = (selector: { accounts?: readonly number[]; traceIds?: readonly string[]; externals?: readonly string[] }): number[] => {
    if (!api.view.growing) return [];
    const { accounts, traceIds, externals } = selector;
    return (chain.inFlightAfterStep[api.view.indexedStep] ?? []).filter((index) => {
      const trace = chain.trace(index);
      return (
        (accounts !== undefined && trace.txs.some((tx) => accounts.includes(chain.tx(tx).account))) ||
        (traceIds !== undefined && traceIds.includes(chain.traceId(index))) ||
        (externals !== undefined && trace.externalHash !== null && externals.includes(trace.externalHash))
      );
    });
  };
  const bySelector = (req: DevnetRequest): { accounts?: readonly number[]; externals?: readonly string[] } => {
    const selected = account(req);
    const externals = hashes(req, 'ext_msg_hash');
    requireOne([selected, externals], 'account or ext_msg_hash');
    return { accounts: selected === undefined ? undefined : [selected], externals };
  };
  const finalityOf = (tx: Transaction): string => (api.view.isIndexed(tx.index) ? 'finalized' : 'confirmed');
  const emulated = (tx: Transaction, refs: Refs): Record<string, unknown> => ({ ...renderTransaction(api.render, tx, refs), emulated: true, finality: finalityOf(tx) });
  return {
    pendingTransactions: (req) => {
      const accounts = accountsParam(api, req.query, 'account');
      const traceIds = hashes(req, 'trace_id');
      requireOne([accounts, traceIds], 'account or trace_id');
      const refs = new Refs();
      // The service reads trace_id only without account (account takes precedence).
      const transactions = pendingTraces(accounts === undefined ? { traceIds } : { accounts })
        .flatMap((index) => chain.trace(index).txs.map((tx) => chain.tx(tx)))
        .filter((tx) => accounts === undefined || accounts.includes(tx.account))
        .sort((a, b) => a.lt - b.lt)
        .map((tx) => emulated(tx, refs));
      return enrich(api, req, { transactions }, refs, { addressBook: true, metadata: false });
    },
    pendingTraces: (req) => {
      const selector = bySelector(req);
      const refs = new Refs();
      const traces = pendingTraces(selector).map((index) => {
        const rendered = renderTrace(api.render, { index, seqno: chain.headSeqno, classified: false }, refs, false);
        const transactions = rendered.transactions as Record<string, Record<string, unknown>>;
        for (const tx of chain.trace(index).txs.map((i) => chain.tx(i))) Object.assign(transactions[tx.hash]!, { emulated: true, finality: finalityOf(tx) });
        return rendered;
      });
      return enrich(api, req, { traces }, refs, { addressBook: true, metadata: true });
    },
    pendingActions: (req) => {
      const selector = bySelector(req);
      actionTypes(req, 'supported_action_types');
      const includeTransactions = req.query.bool('include_transactions') === true;
      const refs = new Refs();
      const actions = pendingTraces(selector)
        .flatMap((index) => chain.trace(index).actions ?? [])
        .map((action) => {
          const rendered = renderAction(api.render, action, refs, { includeAccounts: false, includeTransactions: false });
          if (includeTransactions) rendered.transactions_full = action.txs.map((tx) => emulated(chain.tx(tx), refs));
          return { ...rendered, finality: 'confirmed' };
        });
      return enrich(api, req, { actions }, refs, { addressBook: true, metadata: true });
    },
  };
}
