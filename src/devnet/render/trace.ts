import type { Transaction } from '../chain/model.js';
import type { RenderContext } from './context.js';
import type { Refs } from './refs.js';
import { renderAction } from './action.js';
import { renderTransaction } from './transaction.js';

interface TraceNode {
  readonly tx_hash: string;
  readonly in_msg_hash: string | null;
  readonly children: TraceNode[];
}

/** A complete trace as /traces returns it: the message tree, transactions keyed by hash, and optionally its actions. */
export function renderTrace(ctx: RenderContext, traceIndex: number, refs: Refs, includeActions: boolean): Record<string, unknown> {
  const chain = ctx.chain;
  const trace = chain.trace(traceIndex);
  const txs = trace.txs.map((i) => chain.tx(i));
  const root = txs[0]!;
  const end = chain.traceEnd(traceIndex);
  const messages = txs.reduce((n, tx) => n + tx.outMsgs.length + (tx.inMsg?.source === null ? 1 : 0), 0);
  const ordered = [...txs].sort((a, b) => a.lt - b.lt || (ctx.raw(a.account) < ctx.raw(b.account) ? -1 : 1));
  const node = (tx: Transaction): TraceNode => ({
    tx_hash: tx.hash,
    in_msg_hash: tx.inMsg?.hash ?? null,
    children: tx.outMsgs.filter((m) => m.inTx >= 0).map((m) => node(chain.tx(m.inTx))),
  });
  const transactions: Record<string, unknown> = {};
  for (const tx of ordered) transactions[tx.hash] = renderTransaction(ctx, tx, refs);
  const rendered: Record<string, unknown> = {
    trace_id: root.hash,
    external_hash: trace.externalHash,
    mc_seqno_start: String(root.mcSeqno),
    mc_seqno_end: String(trace.completedMc),
    start_lt: String(root.lt),
    start_utime: root.now,
    end_lt: String(end.lt),
    end_utime: end.now,
    trace_info: { trace_state: 'complete', messages, transactions: txs.length, pending_messages: 0, classification_state: 'ok' },
    is_incomplete: false,
    trace: node(root),
    transactions_order: ordered.map((tx) => tx.hash),
    transactions,
  };
  if (includeActions) {
    rendered.actions = (trace.actions ?? []).map((a) => renderAction(ctx, a, refs, { includeAccounts: false, includeTransactions: false }));
  }
  return rendered;
}
