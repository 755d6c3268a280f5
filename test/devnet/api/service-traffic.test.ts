/**
 * The traffic of the genesis service contracts (chain/service-traffic.ts, chain/complaints.ts) as the
 * v3 paths show it, against the chain: the nominator pool's events chain from the genesis books to
 * the pool's state, its rewards are the returned stakes of elections it took part in, every event's
 * transaction is the pool's in /transactions; the vesting wallet stakes in the pool at its owner's
 * request; the multisig's signers approve its open orders until one reaches the threshold and is
 * executed; complaints accuse a validator of the set at work.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDevnetApi } from '../../../src/devnet/index.js';
import type { NominatorPool } from '../../../src/devnet/chain/services.js';
import { callV3 } from '../../support/devnet-routes.js';
import type { Query } from '../../support/http.js';

type Row = Record<string, any>;

let api: ReturnType<typeof buildDevnetApi>;
let pool: NominatorPool;
const raw = (account: number): string => api.view.chain.population.accountAt(account).raw;
const v3 = (endpoint: string, query: Query = {}): Row => callV3<Row>(api, endpoint, query);
const big = (text: string): bigint => BigInt(text);

beforeAll(() => {
  // Past the first stake's return (it validates cycle 1 and comes back in cycle 2).
  api = buildDevnetApi({ seed: 7, blocks: 300 });
  pool = api.view.chain.services.pool;
});

/** The pool's events of every kind, oldest first. */
function poolEvents(): Row[] {
  return (v3('staking/nominatorPools/nominatorEvents', { pool: raw(pool.account), limit: 1000 }).events as Row[]).reverse();
}

describe('nominator pool traffic', () => {
  it('has deposits, withdrawals, rewards and activations, each a transaction of the pool', () => {
    const events = poolEvents();
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(['deposit', 'withdrawal', 'withdrawal_request', 'reward', 'pending_deposit_activation']));
    const poolTxs = new Set((v3('transactions', { account: raw(pool.account), limit: 1000 }).transactions as Row[]).map((t) => `${t.hash} ${t.lt}`));
    for (const e of events) expect(poolTxs.has(`${e.tx_hash} ${e.tx_lt}`), e.tx_hash).toBe(true);
  });

  it('chains each nominator’s events from the genesis books to the balance the pool reports', () => {
    const genesis = new Map(pool.nominators.map((n) => [raw(n.wallet), { balance: n.balance, pending: n.pending }]));
    const books = new Map(genesis);
    for (const e of poolEvents()) {
      const before = books.get(e.nominator_address) ?? { balance: 0n, pending: 0n };
      expect([big(e.balance_before), big(e.pending_balance_before)], `${e.type} ${e.tx_hash}`).toEqual([before.balance, before.pending]);
      expect(big(e.balance_delta)).toBe(big(e.balance_after) - big(e.balance_before));
      expect(big(e.pending_balance_delta)).toBe(big(e.pending_balance_after) - big(e.pending_balance_before));
      books.set(e.nominator_address, { balance: big(e.balance_after), pending: big(e.pending_balance_after) });
    }
    const info = v3('staking/nominatorPools/pool', { pool: raw(pool.account) });
    const held = [...books].filter(([, b]) => b.balance > 0n || b.pending > 0n);
    expect(info.active_nominators).toEqual(held.map(([address, b]) => ({ address, balance: b.balance.toString(), pending_balance: b.pending.toString() })));
    expect(info.nominators_count).toBe(held.length);
  });

  it('shares each returned stake’s reward between the validator and the nominators, for a cycle the pool validated', () => {
    const validatorRewards = v3('staking/nominatorPools/validatorRewards', { pool: raw(pool.account), validator: raw(pool.validator) });
    expect(validatorRewards.rewards.length).toBeGreaterThan(0);
    expect(big(validatorRewards.total_on_page)).toBe(validatorRewards.rewards.reduce((sum: bigint, r: Row) => sum + big(r.reward), 0n));
    const validatorEvents = v3('staking/nominatorPools/validatorEvents', { pool: raw(pool.account), type: 'reward' }).events as Row[];
    expect(validatorEvents.map((e) => [e.tx_hash, e.amount, e.cycle_start, e.validator_address])).toEqual(
      validatorRewards.rewards.map((r: Row) => [r.tx_hash, r.reward, r.cycle_start, raw(pool.validator)]),
    );
    const info = v3('staking/nominatorPools/pool', { pool: raw(pool.account) });
    expect(big(info.validator_amount)).toBe(pool.validatorAmount + big(validatorRewards.total_on_page));

    const cycles = v3('validators/cycles', { return_validators: true, limit: 100 }).cycles as Row[];
    const recovered = (v3('validators/events', { stake_holder_address: raw(pool.account), limit: 100 }).events as Row[]).filter((e) => e.type === 'stake_recovered');
    for (const reward of validatorRewards.rewards as Row[]) {
      const cycle = cycles.find((c) => c.cycle_start === reward.cycle_start);
      expect(cycle?.validators.map((v: Row) => v.stake_holder_address)).toContain(raw(pool.account));
      const stake = big(cycle!.validators.find((v: Row) => v.stake_holder_address === raw(pool.account)).stake);
      const nominatorRewards = poolEvents().filter((e) => e.type === 'reward' && e.tx_hash === reward.tx_hash);
      expect(nominatorRewards.length).toBeGreaterThan(0);
      // The elector pays stake / 2000 on top of the stake; the pool shares all of it out.
      expect(nominatorRewards.reduce((sum, e) => sum + big(e.amount), big(reward.reward))).toBe(stake / 2000n);
      expect(recovered.length).toBeGreaterThan(0);
    }
    for (const n of pool.nominators) {
      const rewards = v3('staking/nominatorPools/nominatorRewards', { pool: raw(pool.account), nominator: raw(n.wallet) });
      const events = poolEvents().filter((e) => e.type === 'reward' && e.nominator_address === raw(n.wallet));
      expect(rewards.rewards.map((r: Row) => [r.tx_hash, r.reward, r.stake_before])).toEqual(events.reverse().map((e) => [e.tx_hash, e.amount, e.balance_before]));
    }
  });
});

describe('vesting wallet traffic', () => {
  it('sends what its owner asks to the whitelisted pool, which books it as the vesting wallet’s deposit', () => {
    const vesting = api.view.chain.services.vesting;
    const txs = (v3('transactions', { account: raw(vesting.account), limit: 100, sort: 'asc' }).transactions as Row[]).filter((t) => t.in_msg.source !== null);
    expect(txs.length).toBeGreaterThan(0);
    for (const tx of txs) {
      expect([tx.in_msg.source, tx.in_msg.opcode]).toEqual([raw(vesting.owner), '0xa7733acd']);
      expect(tx.out_msgs.map((m: Row) => m.destination)).toEqual([raw(pool.account)]);
    }
    const sent = txs.reduce((sum, tx) => sum + big(tx.out_msgs[0].value), 0n);
    const deposits = poolEvents().filter((e) => e.nominator_address === raw(vesting.account) && e.type === 'deposit');
    // The pool takes its 1 TON fee from each deposit that has arrived by the indexed block.
    expect(deposits.length).toBeGreaterThan(0);
    expect(deposits.reduce((sum, e) => sum + big(e.amount), 0n)).toBe(sent - BigInt(txs.length) * 1_000_000_000n);
    const position = v3('staking/nominatorPools/nominator', { nominator: raw(vesting.account) }).nominator_pools[0];
    expect(big(position.balance) + big(position.pending_balance)).toBeGreaterThanOrEqual(deposits.reduce((sum, e) => sum + big(e.amount), 0n));
  });
});

describe('multisig traffic', () => {
  it('takes approvals from signers until an order reaches the threshold, then pays the order’s transfers', () => {
    const multisig = api.view.chain.services.multisig;
    const orders = v3('multisig/orders', { multisig_address: raw(multisig.account), parse_actions: true, limit: 100 }).orders as Row[];
    const approved = orders.filter((row) => row.approvals_num > multisig.orders.find((o) => raw(o.account) === row.address)!.approvals.filter(Boolean).length);
    expect(approved.length).toBeGreaterThan(0);
    const multisigTxs = v3('transactions', { account: raw(multisig.account), limit: 1000, sort: 'asc' }).transactions as Row[];
    for (const row of approved) {
      const genesis = multisig.orders.find((o) => raw(o.account) === row.address)!;
      const approvals = (v3('transactions', { account: row.address, limit: 1000, sort: 'asc' }).transactions as Row[]).filter((t) => t.in_msg.opcode === '0xa762230f');
      // Each approval is a signer's, once, and is answered with approve_accepted.
      const newSigners = multisig.signers.filter((_, i) => !genesis.approvals[i] && (BigInt(row.approvals_mask) & (1n << BigInt(i))) !== 0n);
      expect(approvals.map((t) => t.in_msg.source).sort()).toEqual(newSigners.map(raw).sort());
      for (const t of approvals) expect(t.out_msgs.map((m: Row) => [m.destination, m.opcode])).toContainEqual([t.in_msg.source, '0x82609bf6']);
      expect(row.sent_for_execution).toBe(row.approvals_num >= multisig.threshold);
      if (!row.sent_for_execution) continue;
      // Only the approval that reached the threshold has the multisig execute the order.
      const executing = approvals.filter((t) => t.out_msgs.some((m: Row) => m.opcode === '0x75097f5d'));
      expect(executing).toEqual([approvals[approvals.length - 1]]);
      const execution = multisigTxs.find((t) => t.in_msg.source === row.address && t.in_msg.opcode === '0x75097f5d');
      expect(execution?.out_msgs.map((m: Row) => [m.destination, m.value])).toEqual(row.actions.map((a: Row) => [a.destination, a.value]));
      for (const action of row.actions as Row[]) {
        const received = (v3('transactions', { account: action.destination, limit: 1000 }).transactions as Row[]).filter((t) => t.in_msg.source === raw(multisig.account));
        expect(received.map((t) => t.in_msg.value)).toContain(action.value);
      }
    }
  });
});

describe('validator complaints', () => {
  it('accuse a validator of the set at work in the cycle, filed during it, and filter by it', () => {
    const complaints = v3('validators/complaints', { limit: 100 }).complaints as Row[];
    expect(complaints.length).toBeGreaterThan(0);
    for (const c of complaints) {
      const cycle = (v3('validators/cycles', { cycle_start: c.cycle_start, return_validators: true }).cycles as Row[])[0]!;
      expect(cycle.election_id).toBe(c.election_id);
      const accused = cycle.validators.find((v: Row) => v.validator_pubkey === c.validator_pubkey);
      expect(accused).toMatchObject({ adnl_addr: c.adnl_addr, stake_holder_address: c.stake_holder_address });
      expect(c.created_at).toBeGreaterThanOrEqual(cycle.cycle_start);
      expect(c.created_at).toBeLessThan(cycle.cycle_end);
      for (const vote of c.voted_validators) expect(cycle.validators[vote.validator_index]).toMatchObject({ validator_pubkey: vote.validator_pubkey, weight: vote.weight });
      expect(c.is_passed).toBe(c.approved_percent >= 200 / 3);
    }
    const first = complaints[0]!;
    expect(v3('validators/complaints', { validator_pubkey: first.validator_pubkey, election_id: first.election_id }).complaints).toContainEqual(first);
    expect(v3('validators/complaints', { end_utime: Math.min(...complaints.map((c) => c.created_at as number)) - 1 }).complaints).toEqual([]);
    expect(complaints.map((c) => c.created_at)).toEqual(complaints.map((c) => c.created_at).sort().reverse());
  });

  it('are listed in their cycle under the accused validator, as /validators/complaints gives them, oldest first', () => {
    const complaints = v3('validators/complaints', { limit: 100, sort: 'asc' }).complaints as Row[];
    const cycles = v3('validators/cycles', { return_validators: true, limit: 100 }).cycles as Row[];
    const listed = cycles.flatMap((cycle) => cycle.validators.flatMap((v: Row) => v.complaints as Row[]));
    expect([...listed].sort((a, b) => a.created_at - b.created_at)).toEqual(complaints);
    for (const cycle of cycles) {
      for (const v of cycle.validators) {
        const against = complaints.filter((c) => c.cycle_start === cycle.cycle_start && c.validator_pubkey === v.validator_pubkey);
        expect(v.complaints).toEqual(against);
      }
    }
  });
});
