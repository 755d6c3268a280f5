/**
 * GET /actions. Actions exist only for completed, classified traces; bounds apply to
 * trace_end_lt / trace_end_utime; order (trace_end_lt, trace_id, end_lt, action_id).
 */
import type { DevnetRequest, Handler } from '../../http/types.js';
import type { Action } from '../../chain/model.js';
import { ApiError } from '../../http/api-error.js';
import { accountParam, enrich, ltParam, pageParams, parseHash, Refs, type DevnetApi } from '../context.js';
import { lowerBound, selectPage } from '../paging.js';
import { renderAction } from '../../render/action.js';

const ACTION_TYPE = /^[A-Za-z0-9_.]+$/;

export function actionHandlers(api: DevnetApi): Record<string, Handler> {
  const chain = api.view.chain;
  return {
    actions: (req) => {
      const q = req.query;
      const account = q.has('account') ? accountParam(api, 'account', q.get('account')!) : undefined;
      const txHashes = hashes(req, 'tx_hash');
      const msgHashes = hashes(req, 'msg_hash');
      const actionIds = hashes(req, 'action_id');
      const traceIds = hashes(req, 'trace_id');
      const mcSeqno = q.int('mc_seqno');
      const startUtime = q.int('start_utime');
      const endUtime = q.int('end_utime');
      const startLt = ltParam(q, 'start_lt');
      const endLt = ltParam(q, 'end_lt');
      const include = actionTypes(req, 'action_type');
      const exclude = actionTypes(req, 'exclude_action_type');
      actionTypes(req, 'supported_action_types');
      const options = { includeAccounts: q.bool('include_accounts') === true, includeTransactions: q.bool('include_transactions') === true };
      const page = pageParams(q);
      if (mcSeqno !== undefined && mcSeqno > api.view.indexedSeqno) throw new ApiError(404, `masterchain block ${mcSeqno} not found`);

      const visible = api.view.visibleActions;
      const endLtAt = (i: number): number => chain.traceEnd(chain.actions[i]!.trace).lt;
      const lo = startLt === undefined ? 0 : lowerBound(visible, endLtAt, startLt);
      const hi = endLt === undefined ? visible : lowerBound(visible, endLtAt, endLt, true);
      const accept = (a: Action): boolean => {
        const trace = chain.trace(a.trace);
        const end = chain.traceEnd(a.trace);
        return (
          (account === undefined || a.accounts.includes(account)) &&
          (txHashes === undefined || a.txs.some((tx) => txHashes.includes(chain.tx(tx).hash))) &&
          (msgHashes === undefined || a.txs.some((tx) => chain.tx(tx).inMsg !== null && msgHashes.includes(chain.tx(tx).inMsg!.hash))) &&
          (actionIds === undefined || actionIds.includes(a.actionId)) &&
          (traceIds === undefined || traceIds.includes(chain.traceId(a.trace))) &&
          (mcSeqno === undefined || trace.completedMc === mcSeqno) &&
          (startUtime === undefined || end.now >= startUtime) &&
          (endUtime === undefined || end.now <= endUtime) &&
          (include === undefined || include.includes(a.type)) &&
          (exclude === undefined || !exclude.includes(a.type))
        );
      };
      const refs = new Refs();
      const actions = selectPage(lo, hi, (i) => chain.actions[i]!, accept, page).map((a) => renderAction(api.render, a, refs, options));
      return enrich(api, req, { actions }, refs, { addressBook: true, metadata: true });
    },
  };
}

/** A list of hashes given as repeated keys; undefined when none is. */
export function hashes(req: DevnetRequest, name: string): string[] | undefined {
  const values = req.query.getAll(name);
  return values.length === 0 ? undefined : values.map((v) => parseHash(name, v));
}

/** Action type names given as repeated keys (checked, as the service does, against its pattern); undefined when none is. */
export function actionTypes(req: DevnetRequest, name: string): string[] | undefined {
  const values = req.query.getAll(name);
  for (const value of values) {
    if (!ACTION_TYPE.test(value)) throw new ApiError(422, `failed to parse ${name}: invalid action type ${JSON.stringify(value)}`);
  }
  return values.length === 0 ? undefined : values;
}
