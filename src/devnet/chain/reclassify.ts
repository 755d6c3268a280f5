/**
 * Upstream re-classifies old traces when its parser learns new action types; the action_id changes
 * with the type (docs/design.md §2). This re-labels completed traces' actions in place.
 */
import type { Chain } from './chain.js';
import { classifyTrace } from './classify.js';

/** Gives the newest `count` completed ton_transfer traces up to `maxSeqno` the type `newType`; returns their trace ids. */
export function reclassifyTraces(chain: Chain, count: number, maxSeqno: number, newType = 'call_contract'): string[] {
  const chosen: number[] = [];
  for (let i = chain.completedTraces.length - 1; i >= 0 && chosen.length < count; i--) {
    const trace = chain.trace(chain.completedTraces[i]!);
    if (trace.kind === 'ton_transfer' && (trace.completedMc ?? Infinity) <= maxSeqno && trace.actions?.[0]?.type === 'ton_transfer') chosen.push(trace.index);
  }
  const replaced = new Map(chosen.map((trace) => [trace, classifyTrace(chain, trace, newType)]));
  for (let i = 0; i < chain.actions.length; i++) {
    const fresh = replaced.get(chain.actions[i]!.trace);
    if (fresh !== undefined) chain.actions[i] = fresh[0]!;
  }
  for (const [trace, actions] of replaced) chain.trace(trace).actions = actions;
  return chosen.map((trace) => chain.traceId(trace));
}
