import type { Action } from '../chain/model.js';
import type { RenderContext } from './context.js';
import type { Refs } from './refs.js';
import { renderTransaction } from './transaction.js';

export interface ActionRenderOptions {
  readonly includeAccounts: boolean;
  readonly includeTransactions: boolean;
}

export function renderAction(ctx: RenderContext, action: Action, refs: Refs, options: ActionRenderOptions): Record<string, unknown> {
  const chain = ctx.chain;
  const trace = chain.trace(action.trace);
  const txs = action.txs.map((i) => chain.tx(i));
  const traceEnd = chain.traceEnd(action.trace);
  let first = txs[0]!;
  let last = txs[0]!;
  for (const tx of txs) {
    if (tx.lt < first.lt) first = tx;
    if (tx.lt > last.lt) last = tx;
  }
  for (const account of action.accounts) refs.add(account);
  const rendered: Record<string, unknown> = {
    trace_id: chain.traceId(action.trace),
    action_id: action.actionId,
    start_lt: String(first.lt),
    end_lt: String(last.lt),
    start_utime: first.now,
    end_utime: last.now,
    trace_end_lt: String(traceEnd.lt),
    trace_end_utime: traceEnd.now,
    trace_mc_seqno_end: trace.completedMc,
    transactions: txs.map((tx) => tx.hash),
    success: action.success,
    type: action.type,
    details: action.details,
  };
  if (trace.externalHash !== null) {
    rendered.trace_external_hash = trace.externalHash;
    rendered.trace_external_hash_norm = ctx.normalizedHash(ctx.chain.tx(trace.txs[0]!).inMsg!);
  }
  if (options.includeAccounts) rendered.accounts = action.accounts.map((account) => ctx.raw(account));
  if (options.includeTransactions) rendered.transactions_full = txs.map((tx) => renderTransaction(ctx, tx, refs));
  rendered.finality = 'finalized';
  return rendered;
}
