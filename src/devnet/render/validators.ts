/**
 * ValidatorElection and ValidatorCycle objects (/validators/elections, /validators/cycles). The
 * devnet's config parameters 15–17 are scaled to its 100-block cycles (≈ 4.5 s per block).
 */
import type { Complaint, Election, ElectionParticipant } from '../chain/model.js';
import { CYCLE_BLOCKS, TON } from '../chain/constants.js';
import { MIN_STAKE } from '../chain/elections.js';
import type { RenderContext } from './context.js';
import type { Refs } from './refs.js';
import { renderComplaint } from './complaint.js';
import { byStake, sum, weightInSet } from './validator-set.js';

const SECONDS_PER_CYCLE = Math.round(CYCLE_BLOCKS * 4.5);

const CONFIG = {
  validators_elected_for: SECONDS_PER_CYCLE,
  elections_start_before: SECONDS_PER_CYCLE,
  elections_end_before: SECONDS_PER_CYCLE / 2,
  stake_held_for: SECONDS_PER_CYCLE,
  max_validators: 400,
  max_main_validators: 100,
  min_validators: 5,
} as const;
const STAKE_LIMITS = {
  min_stake_limit: MIN_STAKE.toString(),
  max_stake_limit: (10_000_000n * TON).toString(),
  min_total_stake: (1_000_000n * TON).toString(),
  max_stake_factor: 196_608,
} as const;

export interface ElectionState {
  readonly election: Election;
  /** Participants whose stake the indexer has seen. */
  readonly participants: readonly ElectionParticipant[];
  readonly finished: boolean;
}

/** `listed`: the participants to return (return_participants), omitted when undefined. */
export function renderElection(ctx: RenderContext, state: ElectionState, refs: Refs, listed?: readonly ElectionParticipant[]): Record<string, unknown> {
  const { election, participants, finished } = state;
  const rendered: Record<string, unknown> = {
    election_id: election.electionId,
    elect_close: election.electClose,
    min_stake: election.minStake.toString(),
    total_stake: sum(participants).toString(),
    total_participants: participants.length,
    failed: finished && participants.length === 0,
    finished,
  };
  if (listed !== undefined) {
    rendered.participants = byStake(listed).map((p) => {
      refs.add(p.stakeHolder);
      return {
        validator_pubkey: p.validatorPubkey,
        stake: p.stake.toString(),
        max_factor: p.maxFactor,
        stake_holder_address: ctx.raw(p.stakeHolder),
        adnl_addr: p.adnlAddr,
      };
    });
  }
  return rendered;
}

/**
 * The cycle an election produced, starting at `cycleStart` (utime). Its validators are the
 * election's participants, indexed by stake desc, each with the `indexedComplaints` against it in
 * this cycle (as /validators/complaints renders them); `keep` selects those to return (return_validators).
 */
export function renderCycle(
  ctx: RenderContext,
  election: Election,
  cycleStart: number,
  indexedComplaints: readonly Complaint[],
  refs: Refs,
  keep?: (member: ElectionParticipant) => boolean,
): Record<string, unknown> {
  const members = byStake(election.participants);
  const totalStake = sum(members);
  const weightOf = (p: ElectionParticipant): bigint => weightInSet(p, totalStake);
  const stakes = members.map((p) => p.stake);
  const rendered: Record<string, unknown> = {
    election_id: election.electionId,
    cycle_start: cycleStart,
    cycle_end: cycleStart + CONFIG.validators_elected_for,
    total: members.length,
    main: Math.min(members.length, CONFIG.max_main_validators),
    total_weight: members.reduce((total, p) => total + weightOf(p), 0n).toString(),
    total_stake: totalStake.toString(),
    ...CONFIG,
    min_stake: stakes.length === 0 ? null : stakes[stakes.length - 1]!.toString(),
    max_stake: stakes.length === 0 ? null : stakes[0]!.toString(),
    ...STAKE_LIMITS,
  };
  if (keep !== undefined) {
    rendered.validators = members.flatMap((p, index) => {
      if (!keep(p)) return [];
      refs.add(p.stakeHolder);
      return [
        {
          validator_index: index,
          validator_pubkey: p.validatorPubkey,
          adnl_addr: p.adnlAddr,
          weight: weightOf(p).toString(),
          stake_holder_address: ctx.raw(p.stakeHolder),
          stake: p.stake.toString(),
          max_factor: p.maxFactor,
          complaints: indexedComplaints.filter((c) => c.election === election && c.accused === p).map((c) => renderComplaint(ctx, c, refs)),
        },
      ];
    });
  }
  return rendered;
}
