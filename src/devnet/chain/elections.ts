/**
 * The elector's calendar: elections of cycle c open at its start, accept stakes for half a cycle,
 * the elected set validates during cycle c+1, and stakes can be recovered from cycle c+2 on.
 */
import { createHash } from 'node:crypto';
import type { BodySpec } from './bodies.js';
import type { Election } from './model.js';
import type { Rng } from './rng.js';
import { CYCLE_BLOCKS, FIRST_MC_SEQNO, TON } from './constants.js';

const OPEN_OFFSET = 5;
const CLOSE_OFFSET = CYCLE_BLOCKS / 2;
const RECOVER_OFFSET = 20;
/** Elector's return-stake reason: stake below the minimum. */
const REASON_STAKE_TOO_SMALL = 5;
export const MIN_STAKE = 300_000n * TON;

/** What an accepted stake earns by the time it can be recovered. */
export function stakeReward(stake: bigint): bigint {
  return stake / 2000n;
}

export type StakeDecision = { accepted: true; electionId: number } | { accepted: false; electionId: number | null; reason: number };

export interface PlannedSend {
  readonly validator: number;
  readonly kind: 'new_stake' | 'recover_stake';
  readonly stake: bigint;
  readonly electionId: number;
}

export class Elections {
  private readonly credits = new Map<number, bigint>();
  private readonly pendingCredits: { holder: number; amount: bigint; fromStep: number }[] = [];
  private readonly pubkeys = new Map<number, { pubkey: Buffer; adnl: Buffer }>();

  constructor(
    private readonly list: Election[],
    private readonly validators: readonly number[],
    private readonly rng: Rng,
  ) {}

  /** Called once per step before traffic: opens and closes elections and says who sends what. */
  plan(step: number, utimeOf: (step: number) => number): PlannedSend[] {
    const cycle = Math.floor(step / CYCLE_BLOCKS);
    const inCycle = step % CYCLE_BLOCKS;
    const sends: PlannedSend[] = [];
    if (step === 0) this.list.push(this.genesisElection(utimeOf(0)));
    if (inCycle === OPEN_OFFSET) {
      const electClose = utimeOf(step) + (CLOSE_OFFSET - OPEN_OFFSET) * 4;
      this.list.push({
        electionId: electClose + 600,
        electClose,
        openedMc: FIRST_MC_SEQNO + step,
        closesMc: FIRST_MC_SEQNO + cycle * CYCLE_BLOCKS + CLOSE_OFFSET,
        minStake: MIN_STAKE,
        participants: [],
        cycleStartMc: FIRST_MC_SEQNO + (cycle + 1) * CYCLE_BLOCKS,
        cycleEndMc: FIRST_MC_SEQNO + (cycle + 2) * CYCLE_BLOCKS - 1,
      });
    }
    const open = this.openElection(step);
    this.validators.forEach((validator, v) => {
      if (open !== undefined && inCycle === OPEN_OFFSET + 2 + v * 3) {
        // The last validator stakes too little and is rejected.
        const stake = v === this.validators.length - 1 ? MIN_STAKE / 3n : MIN_STAKE + BigInt(this.rng.int(0, 700_000)) * TON;
        sends.push({ validator, kind: 'new_stake', stake, electionId: open.electionId });
      }
      if (inCycle === RECOVER_OFFSET + v * 2 && (this.credits.get(validator) ?? 0n) > 0n) {
        sends.push({ validator, kind: 'recover_stake', stake: 0n, electionId: 0 });
      }
    });
    return sends;
  }

  /**
   * The election, held before the devnet's first block, of the set validating when it begins: the
   * chain starts at a cycle start, as the real one always has a set at work. Its keys are derived
   * from the validator (no draw from the generator's rng, so the chain's other data stay as they
   * were); its stakes are not recovered within the devnet's history.
   */
  private genesisElection(cycleStart: number): Election {
    const keyOf = (validator: number, role: string): string => createHash('sha256').update(`genesis ${role} ${validator}`).digest('hex').toUpperCase();
    return {
      electionId: cycleStart,
      electClose: cycleStart - 600,
      openedMc: FIRST_MC_SEQNO - CYCLE_BLOCKS + OPEN_OFFSET,
      closesMc: FIRST_MC_SEQNO - CYCLE_BLOCKS + CLOSE_OFFSET,
      minStake: MIN_STAKE,
      participants: this.validators.map((validator, v) => ({
        stakeHolder: validator,
        validatorPubkey: keyOf(validator, 'pubkey'),
        adnlAddr: keyOf(validator, 'adnl'),
        stake: MIN_STAKE + BigInt(v) * 100_000n * TON,
        maxFactor: 196_608,
      })),
      cycleStartMc: FIRST_MC_SEQNO,
      cycleEndMc: FIRST_MC_SEQNO + CYCLE_BLOCKS - 1,
    };
  }

  keysOf(validator: number): { pubkey: Buffer; adnl: Buffer } {
    let keys = this.pubkeys.get(validator);
    if (keys === undefined) {
      keys = { pubkey: this.rng.bytes(32), adnl: this.rng.bytes(32) };
      this.pubkeys.set(validator, keys);
    }
    return keys;
  }

  offerStake(step: number, holder: number, body: Extract<BodySpec, { kind: 'elector_new_stake' }>, stake: bigint): StakeDecision {
    const open = this.openElection(step);
    if (open === undefined) return { accepted: false, electionId: null, reason: 0 };
    if (stake < open.minStake) return { accepted: false, electionId: open.electionId, reason: REASON_STAKE_TOO_SMALL };
    open.participants.push({
      stakeHolder: holder,
      validatorPubkey: body.validatorPubkey.toString('hex').toUpperCase(),
      adnlAddr: body.adnlAddr.toString('hex').toUpperCase(),
      stake,
      maxFactor: body.maxFactor,
    });
    // The stake plus a reward becomes recoverable two cycles later; the elector pays it on request.
    const reward = stakeReward(stake);
    this.pendingCredits.push({ holder, amount: stake + reward, fromStep: this.recoverableFrom(step) });
    return { accepted: true, electionId: open.electionId };
  }

  /** Moves stakes whose hold period ended into the recoverable credits. */
  release(step: number): void {
    const still: typeof this.pendingCredits = [];
    for (const credit of this.pendingCredits) {
      if (credit.fromStep <= step) this.credits.set(credit.holder, (this.credits.get(credit.holder) ?? 0n) + credit.amount);
      else still.push(credit);
    }
    this.pendingCredits.length = 0;
    this.pendingCredits.push(...still);
  }

  /** What the elector would pay the holder on a recover request now. */
  creditOf(holder: number): bigint {
    return this.credits.get(holder) ?? 0n;
  }

  recover(holder: number): bigint {
    const amount = this.credits.get(holder) ?? 0n;
    this.credits.delete(holder);
    return amount;
  }

  private recoverableFrom(step: number): number {
    return (Math.floor(step / CYCLE_BLOCKS) + 2) * CYCLE_BLOCKS;
  }

  /** The election accepting stakes at this step, if any. */
  openElection(step: number): Election | undefined {
    const last = this.list[this.list.length - 1];
    const seqno = FIRST_MC_SEQNO + step;
    return last !== undefined && last.openedMc <= seqno && seqno < last.closesMc ? last : undefined;
  }
}
