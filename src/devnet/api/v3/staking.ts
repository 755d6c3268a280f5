/**
 * GET /staking/nominatorPools/{pool, nominator, nominatorEvents, nominatorRewards, validatorEvents,
 * validatorRewards} over the genesis nominator pool (chain/services.ts). The pool's deposits predate
 * the chain and it has no transactions on it, so its event and reward lists are empty for any window:
 * what the chain implies. Answers use the index's error shape `{error}` (IndexError), 404 for a pool
 * the index does not know.
 */
import type { DevnetRequest, Handler } from '../../http/types.js';
import type { QueryParams } from '../../http/query-params.js';
import { ApiError } from '../../http/api-error.js';
import { accountParam, enrich, Refs, type DevnetApi } from '../context.js';

/** Pool state of the nominator-pool contract: 0 idle, 1 stake sent to the elector, 2 recovering it. */
const POOL_IDLE = 0;

export function stakingHandlers(api: DevnetApi): Record<string, Handler> {
  const pool = api.view.chain.services.pool;
  const raw = (account: number): string => api.render.raw(account);
  const required = (q: QueryParams, name: string): number => {
    const text = q.get(name);
    if (text === undefined || text === '') throw new ApiError(422, `missing required parameter: ${name}`);
    return accountParam(api, name, text);
  };
  const emptyWindow = (req: DevnetRequest, list: 'events' | 'rewards'): Record<string, unknown> => {
    const q = req.query;
    const start = q.int('start_utime', { min: 0 }) ?? 0;
    const end = q.int('end_utime', { min: 0 }) ?? api.view.chain.utimes[api.view.indexedStep]!;
    q.limit(100, 1000);
    const body: Record<string, unknown> = { [list]: [], start_utime: start, end_utime: end };
    if (list === 'rewards') body.total_on_page = '0';
    return enrich(api, req, body, new Refs(), { addressBook: true, metadata: false });
  };
  return {
    'staking/nominatorPools/pool': (req) => {
      if (required(req.query, 'pool') !== pool.account) throw new ApiError(404, 'nominator pool not found');
      const refs = new Refs();
      refs.add(pool.account);
      refs.add(pool.validator);
      for (const n of pool.nominators) refs.add(n.wallet);
      return enrich(
        api,
        req,
        {
          validator_address: raw(pool.validator),
          validator_amount: pool.validatorAmount.toString(),
          validator_reward_share: pool.validatorRewardShare,
          state: POOL_IDLE,
          stake_amount_sent: '0',
          nominators_count: pool.nominators.length,
          max_nominators_count: pool.maxNominators,
          min_validator_stake: pool.minValidatorStake.toString(),
          min_nominator_stake: pool.minNominatorStake.toString(),
          active_nominators: pool.nominators.map((n) => ({ address: raw(n.wallet), balance: n.balance.toString(), pending_balance: n.pending.toString() })),
        },
        refs,
        { addressBook: true, metadata: false },
      );
    },
    'staking/nominatorPools/nominator': (req) => {
      const nominator = required(req.query, 'nominator');
      const refs = new Refs();
      const nominator_pools = pool.nominators
        .filter((n) => n.wallet === nominator)
        .map((n) => {
          refs.add(pool.account);
          return { pool_address: raw(pool.account), balance: n.balance.toString(), pending_balance: n.pending.toString() };
        });
      return enrich(api, req, { nominator_pools }, refs, { addressBook: true, metadata: false });
    },
    'staking/nominatorPools/nominatorEvents': (req) => {
      required(req.query, 'pool');
      optional(api, req.query, 'nominator');
      return emptyWindow(req, 'events');
    },
    'staking/nominatorPools/nominatorRewards': (req) => {
      required(req.query, 'nominator');
      required(req.query, 'pool');
      return emptyWindow(req, 'rewards');
    },
    'staking/nominatorPools/validatorEvents': (req) => {
      const validator = optional(api, req.query, 'validator');
      const poolParam = optional(api, req.query, 'pool');
      if (validator === undefined && poolParam === undefined) throw new ApiError(422, 'validator or pool is required');
      req.query.enumOf('type', ['reward', 'penalty', 'deposit', 'withdrawal'] as const);
      return emptyWindow(req, 'events');
    },
    'staking/nominatorPools/validatorRewards': (req) => {
      required(req.query, 'validator');
      required(req.query, 'pool');
      return emptyWindow(req, 'rewards');
    },
  };
}

function optional(api: DevnetApi, q: QueryParams, name: string): number | undefined {
  const text = q.get(name);
  return text === undefined || text === '' ? undefined : accountParam(api, name, text);
}
