/**
 * GET /traces, as the indexer serves it (docs/design.md §2): a trace is listed from its first indexed
 * transaction on, `pending` and at the lt of its newest transaction until it completes; bounds apply
 * to end_lt / end_utime; order (end_lt, trace_id). A completed trace is `unclassified` until its
 * actions are (classifyDelay blocks later).
 */
import type { Handler } from '../../http/types.js';
import { ApiError } from '../../http/api-error.js';
import type { IndexedTrace } from '../../render/trace.js';
import { renderTrace } from '../../render/trace.js';
import { accountParam, enrich, ltParam, pageParams, Refs, type DevnetApi } from '../context.js';
import { lowerBound, selectPage } from '../paging.js';
import { actionTypes, hashes } from './actions.js';

/** A listed trace with its position (end lt, id) and end time. */
interface Listed {
  readonly trace: IndexedTrace;
  readonly endLt: number;
  readonly id: string;
  readonly endsAt: number;
}

export function traceHandlers(api: DevnetApi): Record<string, Handler> {
  const chain = api.view.chain;
  return {
    traces: (req) => {
      const q = req.query;
      const selectors = ['account', 'trace_id', 'tx_hash', 'msg_hash'].filter((name) => q.has(name));
      if (selectors.length > 1) throw new ApiError(422, `only one of account, trace_id, tx_hash, msg_hash may be given, got ${selectors.join(', ')}`);
      const account = q.has('account') ? accountParam(api, 'account', q.get('account')!) : undefined;
      const traceIds = hashes(req, 'trace_id');
      const txHashes = hashes(req, 'tx_hash');
      const msgHashes = hashes(req, 'msg_hash');
      const mcSeqno = q.int('mc_seqno');
      const startUtime = q.int('start_utime');
      const endUtime = q.int('end_utime');
      const startLt = ltParam(q, 'start_lt');
      const endLt = ltParam(q, 'end_lt');
      const includeActions = q.bool('include_actions') === true;
      actionTypes(req, 'supported_action_types');
      const page = pageParams(q);

      const listed = listedTraces(api, startLt, endLt);
      const seqno = api.view.indexedSeqno;
      const accept = ({ trace, endsAt }: Listed): boolean => {
        const state = chain.trace(trace.index);
        const txs = state.txs.map((tx) => chain.tx(tx)).filter((tx) => tx.mcSeqno <= seqno);
        return (
          (account === undefined || txs.some((tx) => tx.account === account)) &&
          (traceIds === undefined || traceIds.includes(chain.traceId(trace.index))) &&
          (txHashes === undefined || txs.some((tx) => txHashes.includes(tx.hash))) &&
          (msgHashes === undefined || txs.some((tx) => tx.inMsg !== null && msgHashes.includes(tx.inMsg.hash))) &&
          (mcSeqno === undefined || state.completedMc === mcSeqno) &&
          (startUtime === undefined || endsAt >= startUtime) &&
          (endUtime === undefined || endsAt <= endUtime)
        );
      };
      const refs = new Refs();
      const traces = selectPage(0, listed.count, listed.at, accept, page).map(({ trace }) => renderTrace(api.render, trace, refs, includeActions));
      return enrich(api, req, { traces }, refs, { addressBook: true, metadata: true });
    },
  };
}

/** The completed traces the index holds, in (end_lt, trace_id) order, each as it holds it (classified or not yet). */
export function completeTraces(api: DevnetApi): IndexedTrace[] {
  const completed = api.view.chain.completedTraces;
  return completed.slice(0, completedCount(api)).map((index) => indexedTrace(api, index));
}

/**
 * The traces listed with end_lt in [startLt, endLt], in (end_lt, trace_id) order: the completed ones
 * (a range of chain.completedTraces) merged with those in flight at the indexed block.
 */
function listedTraces(api: DevnetApi, startLt: number | undefined, endLt: number | undefined): { count: number; at: (index: number) => Listed } {
  const chain = api.view.chain;
  const completed = chain.completedTraces;
  const visible = completedCount(api);
  const completedAt = (i: number): Listed => {
    const index = completed[i]!;
    const end = chain.traceEnd(index);
    return { trace: indexedTrace(api, index), endLt: end.lt, id: chain.traceId(index), endsAt: end.now };
  };
  const endLtAt = (i: number): number => chain.traceEnd(completed[i]!).lt;
  const lo = startLt === undefined ? 0 : lowerBound(visible, endLtAt, startLt);
  const hi = endLt === undefined ? visible : lowerBound(visible, endLtAt, endLt, true);
  const inBounds = (lt: number): boolean => (startLt === undefined || lt >= startLt) && (endLt === undefined || lt <= endLt);
  const pending = (chain.inFlightAfterStep[api.view.indexedStep] ?? [])
    .map((index) => pendingTrace(api, index))
    .filter((listed) => inBounds(listed.endLt))
    .sort(compareListed);
  // Where each pending trace falls among the completed ones of [lo, hi), counted in the merged list.
  const slots = pending.map((listed, j) => {
    let before = lowerBound(visible, endLtAt, listed.endLt);
    while (before < hi && compareListed(completedAt(before), listed) < 0) before++;
    return { listed, at: j + before - lo };
  });
  const at = (index: number): Listed => {
    let before = 0;
    for (const slot of slots) {
      if (slot.at === index) return slot.listed;
      if (slot.at > index) break;
      before++;
    }
    return completedAt(lo + index - before);
  };
  return { count: hi - lo + pending.length, at };
}

function completedCount(api: DevnetApi): number {
  const chain = api.view.chain;
  const seqno = api.view.indexedSeqno;
  return lowerBound(chain.completedTraces.length, (i) => chain.trace(chain.completedTraces[i]!).completedMc!, seqno, true);
}

function indexedTrace(api: DevnetApi, index: number): IndexedTrace {
  const seqno = api.view.indexedSeqno;
  const completedMc = api.view.chain.trace(index).completedMc;
  return { index, seqno, classified: completedMc !== undefined && completedMc + api.view.options.classifyDelay <= seqno };
}

/** A trace in flight at the indexed block, at the lt of its newest indexed transaction. */
function pendingTrace(api: DevnetApi, index: number): Listed {
  const chain = api.view.chain;
  const seqno = api.view.indexedSeqno;
  const txs = chain.trace(index).txs.map((tx) => chain.tx(tx)).filter((tx) => tx.mcSeqno <= seqno);
  const end = txs.reduce((newest, tx) => (tx.lt > newest.lt ? tx : newest));
  return { trace: { index, seqno, classified: false }, endLt: end.lt, id: chain.traceId(index), endsAt: end.now };
}

function compareListed(a: Listed, b: Listed): number {
  return a.endLt - b.endLt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
