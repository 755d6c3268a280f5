/**
 * The nominator pool's books as its contract keeps them while the chain runs: each nominator's
 * balance, pending balance (deposits made while a stake is at the elector) and withdraw request, the
 * validator's amount, and the stakes at the elector. Each method returns the events the indexer
 * derives from the transaction that changed the books; the genesis pool (services.ts) is the start.
 */
import type { NominatorPool } from './services.js';
import type { NominatorEvent, NominatorEventType, PoolValidatorEvent } from './model.js';
import { stakeReward } from './elections.js';

/** What one transaction of the pool changed for one nominator (the event, less where it is recorded). */
export type NominatorChange = Omit<NominatorEvent, 'tx' | 'pool'>;

/** What one transaction of the pool changed for its validator. */
export type ValidatorChange = Pick<PoolValidatorEvent, 'type' | 'cycleStartMc' | 'amount' | 'balanceBefore' | 'balanceAfter'>;

interface Position {
  balance: bigint;
  pending: bigint;
  withdrawRequest: boolean;
}

/** Share of rewards the validator keeps is in 1/10000. */
const SHARE_UNIT = 10_000n;

export class PoolLedger {
  private readonly positions = new Map<number, Position>();
  private validatorAmount: bigint;
  /** Stakes at the elector, oldest first, with the first block of the cycle each validates. */
  private readonly stakes: { readonly stake: bigint; readonly cycleStartMc: number }[] = [];

  constructor(readonly genesis: NominatorPool) {
    for (const n of genesis.nominators) this.positions.set(n.wallet, { balance: n.balance, pending: n.pending, withdrawRequest: false });
    this.validatorAmount = genesis.validatorAmount;
  }

  get hasStakeAtElector(): boolean {
    return this.stakes.length > 0;
  }

  /** A deposit counts at once while no stake is out, else it waits in the pending balance. */
  deposit(nominator: number, amount: bigint): NominatorChange {
    const position = this.positionOf(nominator);
    const before = { ...position };
    if (this.stakes.length === 0) position.balance += amount;
    else position.pending += amount;
    return change(nominator, 'deposit', amount, before, position);
  }

  /**
   * A withdrawal is paid at once from what the pool holds (`available`), else requested and paid when
   * the stake comes back. Returns the change and the amount to send to the nominator (0 when none).
   */
  withdraw(nominator: number, available: bigint): { readonly change: NominatorChange; readonly paid: bigint } | undefined {
    const position = this.positions.get(nominator);
    if (position === undefined || position.balance + position.pending === 0n) return undefined;
    const before = { ...position };
    const amount = position.balance + position.pending;
    if (this.stakes.length === 0 && amount <= available) {
      position.balance = 0n;
      position.pending = 0n;
      position.withdrawRequest = false;
      return { change: change(nominator, 'withdrawal', amount, before, position), paid: amount };
    }
    position.withdrawRequest = true;
    return { change: change(nominator, 'withdrawal_request', 0n, before, position), paid: 0n };
  }

  stakeSent(stake: bigint, cycleStartMc: number): void {
    this.stakes.push({ stake, cycleStartMc });
  }

  /** The elector refused the newest stake and sent it back. */
  stakeReturned(): void {
    this.stakes.pop();
  }

  /**
   * The oldest stake came back with its reward: the validator keeps its share, the nominators share
   * the rest by balance; then pending deposits become balance and requested withdrawals are paid.
   */
  stakeRecovered(): { readonly nominators: NominatorChange[]; readonly validator: ValidatorChange; readonly payouts: { readonly nominator: number; readonly amount: bigint }[] } {
    const recovered = this.stakes.shift();
    if (recovered === undefined) throw new Error('the pool recovered a stake it never sent');
    const reward = stakeReward(recovered.stake);
    const active = [...this.positions].filter(([, p]) => p.balance > 0n);
    const total = active.reduce((sum, [, p]) => sum + p.balance, 0n);
    const nominatorsPart = total === 0n ? 0n : reward - (reward * BigInt(this.genesis.validatorRewardShare)) / SHARE_UNIT;
    const nominators: NominatorChange[] = [];
    let distributed = 0n;
    for (const [nominator, position] of active) {
      const share = (nominatorsPart * position.balance) / total;
      if (share === 0n) continue;
      const before = { ...position };
      position.balance += share;
      distributed += share;
      nominators.push(change(nominator, 'reward', share, before, position));
    }
    const validatorReward = reward - distributed;
    const validator = { type: 'reward' as const, cycleStartMc: recovered.cycleStartMc, amount: validatorReward, balanceBefore: this.validatorAmount, balanceAfter: this.validatorAmount + validatorReward };
    this.validatorAmount = validator.balanceAfter;
    const payouts: { nominator: number; amount: bigint }[] = [];
    for (const [nominator, position] of this.positions) {
      if (position.pending > 0n) {
        const before = { ...position };
        const amount = position.pending;
        position.balance += amount;
        position.pending = 0n;
        nominators.push(change(nominator, 'pending_deposit_activation', amount, before, position));
      }
      if (position.withdrawRequest && this.stakes.length === 0) {
        const before = { ...position };
        const amount = position.balance;
        position.balance = 0n;
        position.withdrawRequest = false;
        nominators.push(change(nominator, 'withdrawal', amount, before, position));
        payouts.push({ nominator, amount });
      }
    }
    return { nominators, validator, payouts };
  }

  private positionOf(nominator: number): Position {
    let position = this.positions.get(nominator);
    if (position === undefined) this.positions.set(nominator, (position = { balance: 0n, pending: 0n, withdrawRequest: false }));
    return position;
  }
}

function change(nominator: number, type: NominatorEventType, amount: bigint, before: Position, after: Position): NominatorChange {
  return {
    nominator,
    type,
    amount,
    balanceBefore: before.balance,
    balanceAfter: after.balance,
    pendingBefore: before.pending,
    pendingAfter: after.pending,
    withdrawRequestBefore: before.withdrawRequest,
    withdrawRequestAfter: after.withdrawRequest,
  };
}
