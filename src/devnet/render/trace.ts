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

/** A trace as the index holds it after masterchain block `seqno`: its transactions indexed by then, classified or not yet. */
export interface IndexedTrace {
  readonly index: number;
  readonly seqno: number;
  readonly classified: boolean;
}

/**
 * A trace as /traces returns it: the message tree, transactions keyed by hash, and optionally its
 * actions. One still in flight at `seqno` is `pending`, ending at its newest indexed transaction.
 */
export function renderTrace(ctx: RenderContext, indexed: IndexedTrace, refs: Refs, includeActions: boolean): Record<string, unknown> {
  const chain = ctx.chain;
  const trace = chain.trace(indexed.index);
  const isIndexed = (tx: Transaction): boolean => tx.mcSeqno <= indexed.seqno;
  const txs = trace.txs.map((i) => chain.tx(i)).filter(isIndexed);
  const root = txs[0]!;
  const complete = trace.completedMc !== undefined && trace.completedMc <= indexed.seqno;
  const ordered = [...txs].sort((a, b) => a.lt - b.lt || (ctx.raw(a.account) < ctx.raw(b.account) ? -1 : 1));
  const end = complete ? chain.traceEnd(indexed.index) : ordered[ordered.length - 1]!;
  const messages = txs.reduce((n, tx) => n + tx.outMsgs.length + (tx.inMsg?.source === null ? 1 : 0), 0);
  const pendingMessages = txs.reduce((n, tx) => n + tx.outMsgs.filter((m) => m.inTx < 0 || !isIndexed(chain.tx(m.inTx))).length, 0);
  const node = (tx: Transaction): TraceNode => ({
    tx_hash: tx.hash,
    in_msg_hash: tx.inMsg?.hash ?? null,
    children: tx.outMsgs.filter((m) => m.inTx >= 0 && isIndexed(chain.tx(m.inTx))).map((m) => node(chain.tx(m.inTx))),
  });
  const transactions: Record<string, unknown> = {};
  for (const tx of ordered) transactions[tx.hash] = renderTransaction(ctx, tx, refs);
  const rendered: Record<string, unknown> = {
    trace_id: root.hash,
    external_hash: trace.externalHash,
    mc_seqno_start: String(root.mcSeqno),
    mc_seqno_end: String(complete ? trace.completedMc : end.mcSeqno),
    start_lt: String(root.lt),
    start_utime: root.now,
    end_lt: String(end.lt),
    end_utime: end.now,
    trace_info: {
      trace_state: complete ? 'complete' : 'pending',
      messages,
      transactions: txs.length,
      pending_messages: pendingMessages,
      classification_state: indexed.classified ? 'ok' : 'unclassified',
    },
    is_incomplete: false,
    trace: node(root),
    transactions_order: ordered.map((tx) => tx.hash),
    transactions,
  };
  if (includeActions) {
    const actions = indexed.classified ? (trace.actions ?? []) : [];
    rendered.actions = actions.map((a) => renderAction(ctx, a, refs, { includeAccounts: false, includeTransactions: false }));
  }
  return rendered;
}
