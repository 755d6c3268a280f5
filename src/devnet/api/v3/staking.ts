/**
 * GET /staking/nominatorPools/{pool, nominator, nominatorEvents, nominatorRewards, validatorEvents,
 * validatorRewards} over the nominator pool of the genesis (chain/services.ts) and its traffic
 * (chain/service-traffic.ts): the pool's state is its genesis books with the indexed events applied.
 * Event and reward lists are the indexed ones in the utime window, newest first, `limit` of them.
 * Answers use the index's error shape `{error}` (IndexError), 404 for a pool the index does not know.
 */
import type { DevnetRequest, Handler } from '../../http/types.js';
import type { QueryParams } from '../../http/query-params.js';
import type { NominatorEvent, PoolValidatorEvent } from '../../chain/model.js';
import { ApiError } from '../../http/api-error.js';
import { accountParam, enrich, Refs, type DevnetApi } from '../context.js';
import { renderNominatorEvent, renderNominatorReward, renderPoolValidatorEvent, renderPoolValidatorReward } from '../../render/staking.js';

/** Pool state of the nominator-pool contract: 0 idle, 1 stake sent to the elector. */
const POOL_IDLE = 0;
const POOL_STAKE_SENT = 1;

interface Position {
  readonly balance: bigint;
  readonly pending: bigint;
}

export function stakingHandlers(api: DevnetApi): Record<string, Handler> {
  const chain = api.view.chain;
  const pool = chain.services.pool;
  const raw = (account: number): string => api.render.raw(account);
  const required = (q: QueryParams, name: string): number => {
    const text = q.get(name);
    if (text === undefined || text === '') throw new ApiError(422, `missing required parameter: ${name}`);
    return accountParam(api, name, text);
  };
  const visible = <T extends { readonly tx: number }>(records: readonly T[]): readonly T[] => records.slice(0, api.view.visibleRecords(records));
  /** The books as of the indexed block: genesis positions with each indexed event's result applied. */
  const positions = (): Map<number, Position> => {
    const books = new Map<number, Position>(pool.nominators.map((n) => [n.wallet, { balance: n.balance, pending: n.pending }]));
    for (const e of visible(chain.nominatorEvents)) books.set(e.nominator, { balance: e.balanceAfter, pending: e.pendingAfter });
    return books;
  };
  /** The stake at the elector: accepted stakes of the pool not yet recovered (recovered oldest first). */
  const stakeSent = (): bigint => {
    const events = visible(chain.validatorEvents).filter((e) => e.stakeHolder === pool.account);
    const recovered = events.filter((e) => e.type === 'stake_recovered').length;
    return events.filter((e) => e.type === 'stake_accepted').slice(recovered).reduce((sum, e) => sum + e.amount, 0n);
  };
  /** The window's records that `accept` keeps, newest first, at most `limit`. */
  const windowOf = <T extends { readonly tx: number }>(req: DevnetRequest, records: readonly T[], accept: (record: T) => boolean) => {
    const q = req.query;
    const start = q.int('start_utime', { min: 0 }) ?? 0;
    const end = q.int('end_utime', { min: 0 }) ?? chain.utimes[api.view.indexedStep]!;
    const limit = q.limit(100, 1000);
    const rows: T[] = [];
    const shown = visible(records);
    for (let i = shown.length - 1; i >= 0 && rows.length < limit; i--) {
      const record = shown[i]!;
      const now = chain.tx(record.tx).now;
      if (now >= start && now <= end && accept(record)) rows.push(record);
    }
    return { start, end, rows };
  };
  const rewardsBody = (req: DevnetRequest, window: { start: number; end: number }, rendered: Record<string, unknown>[], total: bigint, refs: Refs) =>
    enrich(api, req, { rewards: rendered, start_utime: window.start, end_utime: window.end, total_on_page: total.toString() }, refs, { addressBook: true, metadata: false });
  return {
    'staking/nominatorPools/pool': (req) => {
      if (required(req.query, 'pool') !== pool.account) throw new ApiError(404, 'nominator pool not found');
      const books = [...positions()].filter(([, p]) => p.balance > 0n || p.pending > 0n);
      const validatorEvents = visible(chain.poolValidatorEvents);
      const sent = stakeSent();
      const refs = new Refs();
      refs.add(pool.account);
      refs.add(pool.validator);
      for (const [wallet] of books) refs.add(wallet);
      return enrich(
        api,
        req,
        {
          validator_address: raw(pool.validator),
          validator_amount: (validatorEvents.at(-1)?.balanceAfter ?? pool.validatorAmount).toString(),
          validator_reward_share: pool.validatorRewardShare,
          state: sent > 0n ? POOL_STAKE_SENT : POOL_IDLE,
          stake_amount_sent: sent.toString(),
          nominators_count: books.length,
          max_nominators_count: pool.maxNominators,
          min_validator_stake: pool.minValidatorStake.toString(),
          min_nominator_stake: pool.minNominatorStake.toString(),
          active_nominators: books.map(([wallet, p]) => ({ address: raw(wallet), balance: p.balance.toString(), pending_balance: p.pending.toString() })),
        },
        refs,
        { addressBook: true, metadata: false },
      );
    },
    'staking/nominatorPools/nominator': (req) => {
      const nominator = required(req.query, 'nominator');
      const position = positions().get(nominator);
      const refs = new Refs();
      const nominator_pools: Record<string, unknown>[] = [];
      if (position !== undefined && (position.balance > 0n || position.pending > 0n)) {
        refs.add(pool.account);
        nominator_pools.push({ pool_address: raw(pool.account), balance: position.balance.toString(), pending_balance: position.pending.toString() });
      }
      return enrich(api, req, { nominator_pools }, refs, { addressBook: true, metadata: false });
    },
    'staking/nominatorPools/nominatorEvents': (req) => {
      const poolParam = required(req.query, 'pool');
      const nominator = optional(api, req.query, 'nominator');
      const window = windowOf(req, chain.nominatorEvents, (e) => e.pool === poolParam && (nominator === undefined || e.nominator === nominator));
      const refs = new Refs();
      const events = window.rows.map((e) => renderNominatorEvent(api.render, e, refs));
      return enrich(api, req, { events, start_utime: window.start, end_utime: window.end }, refs, { addressBook: true, metadata: false });
    },
    'staking/nominatorPools/nominatorRewards': (req) => {
      const nominator = required(req.query, 'nominator');
      const poolParam = required(req.query, 'pool');
      const window = windowOf(req, chain.nominatorEvents, (e: NominatorEvent) => e.pool === poolParam && e.nominator === nominator && e.type === 'reward');
      const total = window.rows.reduce((sum, e) => sum + e.amount, 0n);
      return rewardsBody(req, window, window.rows.map((e) => renderNominatorReward(api.render, e)), total, new Refs());
    },
    'staking/nominatorPools/validatorEvents': (req) => {
      const validator = optional(api, req.query, 'validator');
      const poolParam = optional(api, req.query, 'pool');
      if (validator === undefined && poolParam === undefined) throw new ApiError(422, 'validator or pool is required');
      const type = req.query.enumOf('type', ['reward', 'penalty', 'deposit', 'withdrawal'] as const);
      const window = windowOf(
        req,
        chain.poolValidatorEvents,
        (e: PoolValidatorEvent) => (validator === undefined || e.validator === validator) && (poolParam === undefined || e.pool === poolParam) && (type === undefined || e.type === type),
      );
      const refs = new Refs();
      const events = window.rows.map((e) => renderPoolValidatorEvent(api.render, e, refs));
      return enrich(api, req, { events, start_utime: window.start, end_utime: window.end }, refs, { addressBook: true, metadata: false });
    },
    'staking/nominatorPools/validatorRewards': (req) => {
      const validator = required(req.query, 'validator');
      const poolParam = required(req.query, 'pool');
      const window = windowOf(req, chain.poolValidatorEvents, (e) => e.validator === validator && e.pool === poolParam && e.type === 'reward');
      const total = window.rows.reduce((sum, e) => sum + e.amount, 0n);
      return rewardsBody(req, window, window.rows.map((e) => renderPoolValidatorReward(api.render, e)), total, new Refs());
    },
  };
}

function optional(api: DevnetApi, q: QueryParams, name: string): number | undefined {
  const text = q.get(name);
  return text === undefined || text === '' ? undefined : accountParam(api, name, text);
}
