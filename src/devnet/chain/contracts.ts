/**
 * What each kind of account does with an inbound message: the devnet's stand-in for the TVM.
 * Outcomes are decided here; the generator turns them into transactions and messages.
 */
import type { BodySpec } from './bodies.js';
import type { Account, AccountStatus, ComputeOutcome, Message } from './model.js';
import type { Population } from './population.js';
import type { Rng } from './rng.js';
import type { Elections } from './elections.js';
import type { PoolLedger } from './nominator-pool.js';
import type { MultisigLedger } from './multisig-ledger.js';
import type { VestingWallet } from './services.js';
import type { MultisigOrderChange, NominatorEvent, PoolValidatorEvent } from './model.js';
import { MIN_STAKE } from './elections.js';
import { TON } from './constants.js';

export interface OutSpec {
  readonly to: number;
  readonly value: bigint;
  readonly bounce: boolean;
  readonly bounced?: boolean;
  readonly body: BodySpec;
}

export interface Outcome {
  readonly outs: readonly OutSpec[];
  readonly aborted: boolean;
  readonly compute: ComputeOutcome;
  /** The inbound message was bounced back to its sender. */
  readonly bounce: boolean;
  readonly fees: bigint;
  readonly endStatus: AccountStatus;
}

/** Side records a transaction produces (jetton transfers, validator events…), written by the generator. */
export interface RecordSink {
  jettonTransfer(r: { queryId: bigint; source: number; destination: number; amount: bigint; sourceWallet: number; master: number; responseDestination: number; forwardTonAmount: bigint; comment: string | null }): void;
  jettonBurn(r: { queryId: bigint; owner: number; wallet: number; master: number; amount: bigint; responseDestination: number }): void;
  nftTransfer(r: { queryId: bigint; item: number; collection: number; oldOwner: number; newOwner: number; responseDestination: number; forwardAmount: bigint; aborted: boolean }): void;
  validatorEvent(r: { type: 'stake_accepted' | 'stake_rejected' | 'stake_recovered'; stakeHolder: number; validatorPubkey: string | null; adnlAddr: string | null; electionId: number | null; queryId: bigint; amount: bigint; reason: number | null }): void;
  nominatorEvent(r: Omit<NominatorEvent, 'tx'>): void;
  poolValidatorEvent(r: Omit<PoolValidatorEvent, 'tx'>): void;
  orderChange(r: Omit<MultisigOrderChange, 'tx'>): void;
}

export interface ContractContext {
  readonly population: Population;
  readonly rng: Rng;
  readonly elections: Elections;
  /** The nominator pool's books (its contract's state). */
  readonly pool: PoolLedger;
  /** The multisig's orders (their contracts' state). */
  readonly multisig: MultisigLedger;
  readonly vesting: VestingWallet;
  readonly step: number;
  readonly records: RecordSink;
}

const JETTON_NOT_ENOUGH_BALANCE = 706;

export function receive(ctx: ContractContext, account: Account, msg: Message): Outcome {
  const body = msg.body;
  if (msg.source === null) return walletExternal(ctx, account, body);
  if (account.kind === 'jetton_wallet' && body.kind === 'jetton_internal_transfer') return jettonInternalTransfer(ctx, account, msg, body);
  if (account.status !== 'active') return noState(ctx, account, msg);
  switch (account.kind) {
    case 'jetton_wallet':
      return jettonWallet(ctx, account, msg);
    case 'jetton_master':
      return jettonMaster(ctx, account, msg);
    case 'nft_item':
      return nftItem(ctx, account, msg);
    case 'elector':
      return elector(ctx, account, msg);
    case 'nominator_pool':
      return nominatorPool(ctx, account, msg);
    case 'vesting_wallet':
      return vestingWallet(ctx, account, msg);
    case 'multisig_order':
      return multisigOrder(ctx, account, msg);
    case 'multisig':
      return multisigWallet(ctx, account, msg);
    default:
      return ok(ctx, account, []);
  }
}

function ok(ctx: ContractContext, account: Account, outs: OutSpec[], gas = 0): Outcome {
  const gasUsed = gas || ctx.rng.int(300, 12_000);
  return {
    outs,
    aborted: false,
    compute: { kind: 'vm', exitCode: 0, gasUsed, vmSteps: Math.ceil(gasUsed / 26) },
    bounce: false,
    fees: BigInt(gasUsed) * 400n + BigInt(ctx.rng.int(0, 400_000)),
    endStatus: 'active',
  };
}

function walletExternal(ctx: ContractContext, account: Account, body: BodySpec): Outcome {
  if (body.kind !== 'wallet_external') throw new Error(`external message to ${account.raw} without a wallet body`);
  account.seqno += 1;
  const out = body.out;
  return ok(ctx, account, [{ to: out.to, value: out.value, bounce: out.bounce, body: out.body }], ctx.rng.int(3_000, 4_500));
}

/** A message to an account without code: bounced when bounceable, else it leaves the account uninit. */
function noState(ctx: ContractContext, account: Account, msg: Message): Outcome {
  const fees = 0n;
  const compute: ComputeOutcome = { kind: 'skipped', reason: 'no_state' };
  if (msg.bounce && msg.source !== null) {
    const fee = BigInt(ctx.rng.int(600_000, 1_200_000));
    const back: OutSpec = {
      to: msg.source,
      value: msg.value > fee ? msg.value - fee : 0n,
      bounce: false,
      bounced: true,
      body: { kind: 'bounced', original: msg.body },
    };
    return { outs: [back], aborted: true, compute, bounce: true, fees: msg.value > fee ? fee : msg.value, endStatus: account.status };
  }
  return { outs: [], aborted: true, compute, bounce: false, fees, endStatus: 'uninit' };
}

function jettonWallet(ctx: ContractContext, account: Account, msg: Message): Outcome {
  const body = msg.body;
  const master = account.jettonMaster!;
  const owner = account.owner!;
  const gasValue = (spent: bigint): bigint => (msg.value > spent ? msg.value - spent : 0n);
  switch (body.kind) {
    case 'jetton_transfer': {
      if ((account.jettonBalance ?? 0n) < body.amount) {
        const fee = BigInt(ctx.rng.int(2_000_000, 4_000_000));
        return {
          outs: [{ to: msg.source!, value: gasValue(fee), bounce: false, bounced: true, body: { kind: 'bounced', original: body } }],
          aborted: true,
          compute: { kind: 'vm', exitCode: JETTON_NOT_ENOUGH_BALANCE, gasUsed: 4_017, vmSteps: 131 },
          bounce: true,
          fees: fee,
          endStatus: 'active',
        };
      }
      account.jettonBalance = (account.jettonBalance ?? 0n) - body.amount;
      const receiverWallet = ctx.population.jettonWalletOf(body.destination, master);
      ctx.records.jettonTransfer({
        queryId: body.queryId,
        source: owner,
        destination: body.destination,
        amount: body.amount,
        sourceWallet: account.index,
        master,
        responseDestination: body.responseDestination,
        forwardTonAmount: body.forwardTonAmount,
        comment: body.comment,
      });
      const outcome = ok(ctx, account, [], ctx.rng.int(9_000, 12_000));
      const out: OutSpec = {
        to: receiverWallet,
        value: gasValue(outcome.fees),
        bounce: true,
        body: {
          kind: 'jetton_internal_transfer',
          queryId: body.queryId,
          amount: body.amount,
          from: owner,
          responseDestination: body.responseDestination,
          forwardTonAmount: body.forwardTonAmount,
          comment: body.comment,
        },
      };
      return { ...outcome, outs: [out] };
    }
    case 'jetton_burn': {
      account.jettonBalance = (account.jettonBalance ?? 0n) - body.amount;
      ctx.records.jettonBurn({ queryId: body.queryId, owner, wallet: account.index, master, amount: body.amount, responseDestination: body.responseDestination });
      const outcome = ok(ctx, account, [], ctx.rng.int(7_000, 9_000));
      const out: OutSpec = {
        to: master,
        value: gasValue(outcome.fees),
        bounce: true,
        body: { kind: 'jetton_burn_notification', queryId: body.queryId, amount: body.amount, sender: owner, responseDestination: body.responseDestination },
      };
      return { ...outcome, outs: [out] };
    }
    default:
      return ok(ctx, account, []);
  }
}

/** A jetton wallet's first message deploys it; internal transfers credit it and notify the owner. */
function jettonInternalTransfer(
  ctx: ContractContext,
  account: Account,
  msg: Message,
  body: Extract<BodySpec, { kind: 'jetton_internal_transfer' }>,
): Outcome {
  account.jettonBalance = (account.jettonBalance ?? 0n) + body.amount;
  const outcome = ok(ctx, account, [], ctx.rng.int(8_000, 11_000));
  const outs: OutSpec[] = [];
  let left = msg.value > outcome.fees ? msg.value - outcome.fees : 0n;
  if (body.forwardTonAmount > 0n) {
    outs.push({
      to: account.owner!,
      value: body.forwardTonAmount,
      bounce: false,
      body: { kind: 'jetton_transfer_notification', queryId: body.queryId, amount: body.amount, sender: body.from, comment: body.comment },
    });
    left = left > body.forwardTonAmount ? left - body.forwardTonAmount : 0n;
  }
  outs.push({ to: body.responseDestination, value: left, bounce: false, body: { kind: 'excesses', queryId: body.queryId } });
  return { ...outcome, outs };
}

function jettonMaster(ctx: ContractContext, account: Account, msg: Message): Outcome {
  const body = msg.body;
  if (body.kind !== 'jetton_burn_notification') return ok(ctx, account, []);
  account.token!.totalSupply -= body.amount;
  const outcome = ok(ctx, account, [], ctx.rng.int(5_000, 7_000));
  const value = msg.value > outcome.fees ? msg.value - outcome.fees : 0n;
  return { ...outcome, outs: [{ to: body.responseDestination, value, bounce: false, body: { kind: 'excesses', queryId: body.queryId } }] };
}

function nftItem(ctx: ContractContext, account: Account, msg: Message): Outcome {
  const body = msg.body;
  if (body.kind !== 'nft_transfer') return ok(ctx, account, []);
  const oldOwner = account.owner!;
  account.owner = body.newOwner;
  ctx.records.nftTransfer({
    queryId: body.queryId,
    item: account.index,
    collection: ctx.population.collection,
    oldOwner,
    newOwner: body.newOwner,
    responseDestination: body.responseDestination,
    forwardAmount: body.forwardAmount,
    aborted: false,
  });
  const outcome = ok(ctx, account, [], ctx.rng.int(6_000, 8_000));
  const outs: OutSpec[] = [];
  if (body.forwardAmount > 0n) {
    outs.push({ to: body.newOwner, value: body.forwardAmount, bounce: false, body: { kind: 'nft_ownership_assigned', queryId: body.queryId, prevOwner: oldOwner } });
  }
  const spent = outcome.fees + body.forwardAmount;
  outs.push({ to: body.responseDestination, value: msg.value > spent ? msg.value - spent : 0n, bounce: false, body: { kind: 'excesses', queryId: body.queryId } });
  return { ...outcome, outs };
}

function elector(ctx: ContractContext, account: Account, msg: Message): Outcome {
  const body = msg.body;
  const holder = msg.source!;
  if (body.kind === 'elector_new_stake') {
    const decision = ctx.elections.offerStake(ctx.step, holder, body, msg.value - TON);
    ctx.records.validatorEvent({
      type: decision.accepted ? 'stake_accepted' : 'stake_rejected',
      stakeHolder: holder,
      validatorPubkey: body.validatorPubkey.toString('hex').toUpperCase(),
      adnlAddr: body.adnlAddr.toString('hex').toUpperCase(),
      electionId: decision.electionId,
      queryId: body.queryId,
      amount: msg.value - TON,
      reason: decision.accepted ? null : decision.reason,
    });
    const outcome = ok(ctx, account, [], ctx.rng.int(20_000, 30_000));
    const out: OutSpec = decision.accepted
      ? { to: holder, value: TON - outcome.fees, bounce: false, body: { kind: 'elector_new_stake_confirmation', queryId: body.queryId } }
      : { to: holder, value: msg.value - outcome.fees, bounce: false, body: { kind: 'elector_return_stake', queryId: body.queryId, reason: decision.reason } };
    return { ...outcome, outs: [out] };
  }
  if (body.kind === 'elector_recover_stake') {
    const amount = ctx.elections.recover(holder);
    ctx.records.validatorEvent({
      type: 'stake_recovered',
      stakeHolder: holder,
      validatorPubkey: null,
      adnlAddr: null,
      electionId: null,
      queryId: body.queryId,
      amount,
      reason: null,
    });
    const outcome = ok(ctx, account, [], ctx.rng.int(15_000, 20_000));
    return { ...outcome, outs: [{ to: holder, value: amount + msg.value - outcome.fees, bounce: false, body: { kind: 'elector_recover_stake_ok', queryId: body.queryId } }] };
  }
  return ok(ctx, account, []);
}

/** What the pool keeps beside its stake: storage and the fees of its own messages. */
const POOL_RESERVE = 10n * TON;
/** Nominators pay a fee with each deposit; the rest is the deposit. */
const POOL_DEPOSIT_FEE = TON;

/**
 * The nominator pool: nominators deposit with the comment `d` and withdraw with `w`; its validator
 * has it send its stake to the elector (`new_stake`, proxied with what the pool holds) and recover it
 * (`recover_stake`); the returned stake's reward is shared out as the books say (nominator-pool.ts).
 */
function nominatorPool(ctx: ContractContext, account: Account, msg: Message): Outcome {
  const body = msg.body;
  const sender = msg.source!;
  const pool = ctx.pool;
  const elector = ctx.population.elector;
  const validator = pool.genesis.validator;
  const outcome = ok(ctx, account, [], ctx.rng.int(10_000, 16_000));
  const record = (change: Omit<NominatorEvent, 'tx' | 'pool'>): void => ctx.records.nominatorEvent({ pool: account.index, ...change });
  if (body.kind === 'text' && body.text === 'd' && msg.value - POOL_DEPOSIT_FEE >= pool.genesis.minNominatorStake) {
    record(pool.deposit(sender, msg.value - POOL_DEPOSIT_FEE));
    return outcome;
  }
  if (body.kind === 'text' && body.text === 'w') {
    const withdrawal = pool.withdraw(sender, account.balance - POOL_RESERVE);
    if (withdrawal === undefined) return outcome;
    record(withdrawal.change);
    if (withdrawal.paid === 0n) return outcome;
    return { ...outcome, outs: [{ to: sender, value: withdrawal.paid, bounce: false, body: { kind: 'text', text: 'Withdraw completed' } }] };
  }
  if (sender === validator && body.kind === 'elector_new_stake') {
    const election = ctx.elections.openElection(ctx.step);
    const stake = account.balance - POOL_RESERVE;
    if (election === undefined || pool.hasStakeAtElector || stake < MIN_STAKE) return outcome;
    pool.stakeSent(stake, election.cycleStartMc);
    return { ...outcome, outs: [{ to: elector, value: stake + TON, bounce: true, body }] };
  }
  if (sender === validator && body.kind === 'elector_recover_stake') {
    return { ...outcome, outs: [{ to: elector, value: TON, bounce: true, body }] };
  }
  if (sender === elector && body.kind === 'elector_return_stake') {
    pool.stakeReturned();
    return outcome;
  }
  if (sender === elector && body.kind === 'elector_recover_stake_ok' && pool.hasStakeAtElector) {
    const { nominators, validator: validatorChange, payouts } = pool.stakeRecovered();
    ctx.records.poolValidatorEvent({ pool: account.index, validator, queryId: body.queryId, rewardShare: pool.genesis.validatorRewardShare, ...validatorChange });
    for (const change of nominators) record(change);
    return { ...outcome, outs: payouts.map((p) => ({ to: p.nominator, value: p.amount, bounce: false, body: { kind: 'text', text: 'Withdraw completed' } })) };
  }
  return outcome;
}

/**
 * The vesting wallet sends what its owner asks (`send_message`) to a whitelisted address at any time,
 * elsewhere only what has unlocked and leaves the locked part (the devnet's runs inside the cliff, so
 * only the whitelist is paid).
 */
function vestingWallet(ctx: ContractContext, account: Account, msg: Message): Outcome {
  const body = msg.body;
  const vesting = ctx.vesting;
  const outcome = ok(ctx, account, [], ctx.rng.int(8_000, 12_000));
  if (msg.source !== vesting.owner || body.kind !== 'vesting_send_message' || body.out.value >= account.balance) return outcome;
  if (!vesting.whitelist.includes(body.out.to)) return outcome;
  return { ...outcome, outs: [{ to: body.out.to, value: body.out.value, bounce: body.out.bounce, body: body.out.body }] };
}

/**
 * A multisig order takes an approval from the signer at the index the message names, once, while it
 * is open; it answers `approve_accepted` with what is left of the message's value, and the approval
 * that reaches the threshold has the multisig execute the order.
 */
function multisigOrder(ctx: ContractContext, account: Account, msg: Message): Outcome {
  const body = msg.body;
  const ledger = ctx.multisig;
  const order = ledger.orderAt(account.index);
  const outcome = ok(ctx, account, [], ctx.rng.int(4_000, 7_000));
  if (order === undefined || body.kind !== 'multisig_approve' || msg.source !== ledger.genesis.signers[body.signerIndex]) return outcome;
  if (!ledger.missingApprovals(order).includes(body.signerIndex)) return outcome;
  const { approvals, execute } = ledger.approve(order, body.signerIndex);
  ctx.records.orderChange({ order: order.seqno, approvals, sentForExecution: execute });
  const fee = BigInt(ctx.rng.int(5_000_000, 10_000_000));
  const outs: OutSpec[] = [{ to: msg.source, value: msg.value > fee ? msg.value - fee : 0n, bounce: false, body: { kind: 'multisig_approve_accepted', queryId: body.queryId } }];
  if (execute) {
    const approvalsNum = approvals.filter(Boolean).length;
    const executeBody: BodySpec = { kind: 'multisig_execute', queryId: body.queryId, orderSeqno: order.seqno, expiration: order.expiration, approvalsNum, signersHash: ledger.signersHash, actions: order.actions };
    outs.push({ to: ledger.genesis.account, value: TON / 20n, bounce: true, body: executeBody });
  }
  return { ...outcome, outs };
}

/** The multisig executes an order its order contract sends: each action's transfer, with its comment. */
function multisigWallet(ctx: ContractContext, account: Account, msg: Message): Outcome {
  const body = msg.body;
  const outcome = ok(ctx, account, [], ctx.rng.int(6_000, 10_000));
  if (body.kind !== 'multisig_execute' || msg.source === null || ctx.multisig.orderAt(msg.source) === undefined) return outcome;
  const total = body.actions.reduce((sum, action) => sum + action.value, 0n);
  if (total >= account.balance) return outcome;
  return { ...outcome, outs: body.actions.map((action) => ({ to: action.destination, value: action.value, bounce: false, body: { kind: 'text', text: action.comment } })) };
}
