/**
 * The nominator pool's events as /staking/nominatorPools/* lists them (NominatorPoolEvent,
 * NominatorReward, NominatorPoolValidatorEvent, NominatorPoolValidatorReward).
 */
import type { NominatorEvent, PoolValidatorEvent } from '../chain/model.js';
import type { RenderContext } from './context.js';
import type { Refs } from './refs.js';

function txFields(ctx: RenderContext, tx: number): { tx_hash: string; tx_lt: string; utime: number } {
  const t = ctx.chain.tx(tx);
  return { tx_hash: t.hash, tx_lt: String(t.lt), utime: t.now };
}

export function renderNominatorEvent(ctx: RenderContext, e: NominatorEvent, refs: Refs): Record<string, unknown> {
  refs.add(e.pool);
  refs.add(e.nominator);
  return {
    ...txFields(ctx, e.tx),
    type: e.type,
    pool_address: ctx.raw(e.pool),
    nominator_address: ctx.raw(e.nominator),
    amount: e.amount.toString(),
    balance_before: e.balanceBefore.toString(),
    balance_after: e.balanceAfter.toString(),
    balance_delta: (e.balanceAfter - e.balanceBefore).toString(),
    pending_balance_before: e.pendingBefore.toString(),
    pending_balance_after: e.pendingAfter.toString(),
    pending_balance_delta: (e.pendingAfter - e.pendingBefore).toString(),
    withdraw_request_before: e.withdrawRequestBefore,
    withdraw_request_after: e.withdrawRequestAfter,
  };
}

export function renderNominatorReward(ctx: RenderContext, e: NominatorEvent): Record<string, unknown> {
  return { ...txFields(ctx, e.tx), reward: e.amount.toString(), stake_before: e.balanceBefore.toString() };
}

/** The utime of the first block of the cycle a pool's stake validated. */
function cycleStart(ctx: RenderContext, e: PoolValidatorEvent): number {
  return ctx.chain.utimes[ctx.chain.stepOfSeqno(e.cycleStartMc)]!;
}

export function renderPoolValidatorEvent(ctx: RenderContext, e: PoolValidatorEvent, refs: Refs): Record<string, unknown> {
  refs.add(e.pool);
  refs.add(e.validator);
  return {
    ...txFields(ctx, e.tx),
    type: e.type,
    pool_address: ctx.raw(e.pool),
    validator_address: ctx.raw(e.validator),
    amount: e.amount.toString(),
    balance_before: e.balanceBefore.toString(),
    balance_after: e.balanceAfter.toString(),
    balance_delta: (e.balanceAfter - e.balanceBefore).toString(),
    cycle_start: cycleStart(ctx, e),
    query_id: e.queryId.toString(),
    validator_reward_share: e.rewardShare,
  };
}

export function renderPoolValidatorReward(ctx: RenderContext, e: PoolValidatorEvent): Record<string, unknown> {
  return { ...txFields(ctx, e.tx), reward: e.amount.toString(), balance_before: e.balanceBefore.toString(), cycle_start: cycleStart(ctx, e), query_id: e.queryId.toString() };
}
