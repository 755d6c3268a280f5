/**
 * GET /pendingTransactions, /pendingTraces, /pendingActions: what the service emulates from messages
 * waiting in the mempool. The devnet has no mempool (its blocks are generated whole), so the lists are
 * always empty; parameters are checked as the service checks them, one selector required.
 */
import type { DevnetRequest, Handler } from '../../http/types.js';
import { ApiError } from '../../http/api-error.js';
import { accountParam, accountsParam, enrich, parseHash, Refs, type DevnetApi } from '../context.js';

export function pendingHandlers(api: DevnetApi): Record<string, Handler> {
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
  const empty = (req: DevnetRequest, list: string, metadata: boolean): Record<string, unknown> =>
    enrich(api, req, { [list]: [] }, new Refs(), { addressBook: true, metadata });
  return {
    pendingTransactions: (req) => {
      requireOne([accountsParam(api, req.query, 'account'), hashes(req, 'trace_id')], 'account or trace_id');
      return empty(req, 'transactions', false);
    },
    pendingTraces: (req) => {
      requireOne([account(req), hashes(req, 'ext_msg_hash')], 'account or ext_msg_hash');
      return empty(req, 'traces', true);
    },
    pendingActions: (req) => {
      requireOne([account(req), hashes(req, 'ext_msg_hash')], 'account or ext_msg_hash');
      req.query.bool('include_transactions');
      return empty(req, 'actions', true);
    },
  };
}
