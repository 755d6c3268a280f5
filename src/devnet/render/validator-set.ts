/**
 * A validator set as the service lists it: its members in order (stake desc, then public key) and
 * each member's weight, a stake-proportional share of TOTAL_WEIGHT.
 */
import type { ElectionParticipant } from '../chain/model.js';

/** The sum of the weights of a validator set. */
const TOTAL_WEIGHT = 1n << 60n;

/** Participants in the order the service lists them: stake desc, then validator_pubkey. */
export function byStake(participants: readonly ElectionParticipant[]): ElectionParticipant[] {
  return [...participants].sort((a, b) => (a.stake === b.stake ? compare(a.validatorPubkey, b.validatorPubkey) : a.stake > b.stake ? -1 : 1));
}

/** A validator's weight in its set: its share of the set's stake, of TOTAL_WEIGHT. */
export function weightInSet(p: ElectionParticipant, totalStake: bigint): bigint {
  return totalStake === 0n ? 0n : (p.stake * TOTAL_WEIGHT) / totalStake;
}

export function sum(participants: readonly ElectionParticipant[]): bigint {
  return participants.reduce((total, p) => total + p.stake, 0n);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
