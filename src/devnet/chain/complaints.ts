/**
 * Complaints against validators: now and then during a cycle someone registers with the elector a
 * complaint that a validator of the set at work produced too few blocks, and some of the set vote for
 * it. Drawn from their own Rng (seeded from the chain's seed), so the rest of the chain is unchanged.
 */
import type { Complaint, Election } from './model.js';
import type { Population } from './population.js';
import { Rng } from './rng.js';
import { CYCLE_BLOCKS, FIRST_MC_SEQNO, TON } from './constants.js';

const COMPLAINTS_SALT = 0x0c0fa117;
/** Step of a cycle at which a complaint may be filed, and how likely one is. */
const COMPLAINT_OFFSET = 70;
const COMPLAINT_CHANCE = 0.7;

export class Complaints {
  private readonly rng: Rng;

  constructor(
    private readonly population: Population,
    private readonly elections: readonly Election[],
    seed: number,
  ) {
    this.rng = new Rng((seed ^ COMPLAINTS_SALT) >>> 0);
  }

  /** The complaint registered in a step's block, if any. */
  fileAt(step: number, utime: number): Complaint | undefined {
    if (step % CYCLE_BLOCKS !== COMPLAINT_OFFSET || !this.rng.chance(COMPLAINT_CHANCE)) return undefined;
    const seqno = FIRST_MC_SEQNO + step;
    const election = this.elections.find((e) => e.cycleStartMc <= seqno && seqno <= e.cycleEndMc);
    if (election === undefined || election.participants.length === 0) return undefined;
    const set = election.participants;
    const accused = this.rng.pick(set);
    const voters = set.filter((p) => p !== accused && this.rng.chance(0.6)).map((p) => p.stakeHolder);
    return {
      step,
      election,
      accused,
      foundBlocks: this.rng.int(0, 3),
      fromUtime: utime - this.rng.int(60, 240),
      severity: this.rng.int(1, 3),
      rewardAddress: this.rng.pick(this.population.wallets.filter((w) => this.population.accountAt(w).status === 'active')),
      paid: BigInt(this.rng.int(1_000, 3_000)) * (TON / 1_000n),
      suggestedFine: 101n * TON,
      suggestedFinePart: 0,
      voters,
    };
  }
}
