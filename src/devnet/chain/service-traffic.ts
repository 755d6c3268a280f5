/**
 * The traffic of the genesis service contracts (services.ts): nominators deposit into and withdraw
 * from the nominator pool, and its validator has it stake with the elector each other cycle and
 * recover the stake with its reward; the vesting wallet's owner has it stake locked coins in the pool
 * (the pool is on its whitelist). Its choices come from its own Rng (seeded from the chain's seed),
 * so the users' traffic (traffic.ts) draws what it drew before.
 */
import type { Elections } from './elections.js';
import type { PoolLedger } from './nominator-pool.js';
import type { Population } from './population.js';
import type { Services } from './services.js';
import type { WalletOrder } from './traffic.js';
import { Rng } from './rng.js';
import { CYCLE_BLOCKS, TON } from './constants.js';

/** Mixed into the chain's seed for this traffic's Rng. */
const SERVICE_TRAFFIC_SALT = 0x7a3f1c0d;
/** Steps into a cycle: the pool recovers a returned stake, then stakes again while the election is open. */
const POOL_RECOVER_OFFSET = 30;
const POOL_STAKE_OFFSET = 40;
const DEPOSIT_CHANCE = 0.04;
const WITHDRAW_CHANCE = 0.012;
const VESTING_STAKE_CHANCE = 0.015;
/** Mode of the vesting wallet's message: pay fees apart, ignore errors. */
const SEND_MODE = 3;

export class ServiceTraffic {
  private readonly rng: Rng;
  private readonly nominators: number[];
  private queryId = 1n;

  constructor(
    private readonly services: Services,
    private readonly population: Population,
    private readonly elections: Elections,
    private readonly pool: PoolLedger,
    seed: number,
  ) {
    this.rng = new Rng((seed ^ SERVICE_TRAFFIC_SALT) >>> 0);
    this.nominators = services.pool.nominators.map((n) => n.wallet);
  }

  /** The service orders of a step, after the users' own. */
  ordersAt(step: number, stakeAt: number): WalletOrder[] {
    const orders: WalletOrder[] = [];
    const pool = this.services.pool;
    const inCycle = step % CYCLE_BLOCKS;
    if (inCycle === POOL_RECOVER_OFFSET && this.elections.creditOf(pool.account) > 0n) {
      orders.push({ kind: 'election_recover', wallet: pool.validator, to: pool.account, value: TON, bounce: true, body: { kind: 'elector_recover_stake', queryId: this.nextQueryId() } });
    }
    if (inCycle === POOL_STAKE_OFFSET && this.elections.openElection(step) !== undefined && !this.pool.hasStakeAtElector) {
      const keys = this.elections.keysOf(pool.account);
      orders.push({
        kind: 'election_deposit',
        wallet: pool.validator,
        to: pool.account,
        value: 2n * TON,
        bounce: true,
        body: { kind: 'elector_new_stake', queryId: this.nextQueryId(), validatorPubkey: keys.pubkey, stakeAt, maxFactor: 196_608, adnlAddr: keys.adnl, signature: this.rng.bytes(64) },
      });
    }
    if (this.rng.chance(DEPOSIT_CHANCE)) {
      const deposit = this.deposit();
      if (deposit !== undefined) orders.push(deposit);
    }
    if (this.rng.chance(WITHDRAW_CHANCE)) {
      const wallet = this.rng.pick(this.nominators);
      if (this.population.accountAt(wallet).balance >= 2n * TON) {
        orders.push({ kind: 'ton_transfer', wallet, to: pool.account, value: TON, bounce: true, body: { kind: 'text', text: 'w' } });
      }
    }
    if (this.rng.chance(VESTING_STAKE_CHANCE)) orders.push(this.vestingStake());
    return orders;
  }

  /** The vesting wallet's owner has it deposit part of the locked amount into the whitelisted pool. */
  private vestingStake(): WalletOrder {
    const vesting = this.services.vesting;
    const pool = this.services.pool;
    const value = BigInt(this.rng.int(500, 5_000)) * TON;
    return {
      kind: 'ton_transfer',
      wallet: vesting.owner,
      to: vesting.account,
      value: TON,
      bounce: true,
      body: { kind: 'vesting_send_message', queryId: this.nextQueryId(), mode: SEND_MODE, out: { to: pool.account, value, bounce: true, body: { kind: 'text', text: 'd' } } },
    };
  }

  /** A wallet with a tenth of its balance above the pool's minimum deposits that tenth. */
  private deposit(): WalletOrder | undefined {
    const pool = this.services.pool;
    const wallet = this.rng.pick(this.population.wallets);
    const account = this.population.accountAt(wallet);
    const value = account.balance / 10n;
    if (account.status !== 'active' || value < pool.minNominatorStake + 2n * TON) return undefined;
    if (!this.nominators.includes(wallet)) this.nominators.push(wallet);
    return { kind: 'ton_transfer', wallet, to: pool.account, value, bounce: true, body: { kind: 'text', text: 'd' } };
  }

  private nextQueryId(): bigint {
    this.queryId += BigInt(this.rng.int(1, 1_000_000));
    return this.queryId;
  }
}
