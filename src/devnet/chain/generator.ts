/**
 * Builds the chain one masterchain block (step) at a time: users' external messages start traces,
 * each internal message is delivered one or two blocks later, and a trace completes when no
 * message of it is in flight. Deterministic from the seed: one Rng, consumed in a fixed order.
 */
import { Chain } from './chain.js';
import { Population } from './population.js';
import { Services } from './services.js';
import { Rng } from './rng.js';
import { Elections } from './elections.js';
import { Traffic, type WalletOrder } from './traffic.js';
import { ServiceTraffic } from './service-traffic.js';
import { PoolLedger } from './nominator-pool.js';
import { MultisigLedger } from './multisig-ledger.js';
import { MultisigTraffic } from './multisig-traffic.js';
import { Complaints } from './complaints.js';
import { receive, type ContractContext, type OutSpec, type RecordSink } from './contracts.js';
import { classifyTrace } from './classify.js';
import type { SubmittedTransfer } from './submitted-transfer.js';
import type { Account, Action, Block, Message, TraceKind, TransactionFields, TransactionHasher } from './model.js';
import {
  BASECHAIN_SHARDS,
  FIRST_MC_SEQNO,
  FIRST_SHARD_SEQNO,
  FIRST_START_LT,
  GENESIS_UTIME,
  LT_PER_BLOCK,
  MASTERCHAIN_SHARD,
  SUBWALLET_ID,
} from './constants.js';

/**
 * A stall of the chain: block `step` is generated at unix time `until` instead of 3–6 s after the
 * one before, as when a network halts; the blocks after it follow it as usual. Tests use it to
 * span UTC days with few blocks (docs/design.md §6).
 */
export interface ChainStall {
  readonly step: number;
  readonly until: number;
}

interface Delivery {
  readonly msg: Message;
  readonly trace: number;
}

export class Generator {
  readonly chain: Chain;
  private readonly rng: Rng;
  private readonly elections: Elections;
  private readonly traffic: Traffic;
  private readonly serviceTraffic: ServiceTraffic;
  private readonly pool: PoolLedger;
  private readonly multisig: MultisigLedger;
  private readonly multisigTraffic: MultisigTraffic;
  private readonly complaints: Complaints;
  private readonly inbox = new Map<number, Delivery[]>();
  private stepTxs: number[] = [];
  private stepCompleted: number[] = [];
  /** Traces started and not complete yet. */
  private readonly inFlight = new Set<number>();
  private records: StepRecords = emptyRecords();
  private readonly submitted: SubmittedTransfer[] = [];
  private readonly hashTransaction: TransactionHasher;

  /** `hasherFor` gives the hash of a transaction's cell (render/transaction-cell.ts), which knows the chain's wire forms. */
  constructor(
    seed: number,
    hasherFor: (chain: Chain) => TransactionHasher,
    private readonly stall?: ChainStall,
  ) {
    this.rng = new Rng(seed);
    const population = new Population(this.rng);
    this.chain = new Chain(seed, population, new Services(population, seed));
    this.elections = new Elections(this.chain.elections, population.validators, this.rng);
    this.traffic = new Traffic(population, this.rng);
    this.pool = new PoolLedger(this.chain.services.pool);
    this.multisig = new MultisigLedger(this.chain.services.multisig);
    this.serviceTraffic = new ServiceTraffic(this.chain.services, population, this.elections, this.pool, seed);
    this.multisigTraffic = new MultisigTraffic(this.multisig, population, seed);
    this.complaints = new Complaints(population, this.chain.elections, seed);
    this.hashTransaction = hasherFor(this.chain);
  }

  /** Generates a chain of `blocks` masterchain blocks. */
  static generate(seed: number, blocks: number, hasherFor: (chain: Chain) => TransactionHasher, stall?: ChainStall): Generator {
    const generator = new Generator(seed, hasherFor, stall);
    for (let i = 0; i < blocks; i++) generator.advance();
    return generator;
  }

  /** Queues a transfer a client sent, for the next block. */
  submit(transfer: SubmittedTransfer): void {
    this.submitted.push(transfer);
  }

  /** Appends one masterchain block with its shard blocks. */
  advance(): void {
    const step = this.chain.steps;
    const utime = step === 0 ? GENESIS_UTIME : this.nextUtime(step);
    this.chain.utimes.push(utime);
    this.openBlocks(step, utime);
    this.stepTxs = [];
    this.stepCompleted = [];
    this.records = emptyRecords();

    const population = this.chain.population;
    this.tickTock(population.elector, false, step);
    this.tickTock(population.config, true, step);
    this.elections.release(step);
    for (const delivery of this.inbox.get(step) ?? []) this.deliver(delivery.msg, delivery.trace, step);
    this.inbox.delete(step);
    const planned = this.elections.plan(step, (s) => this.chain.utimes[s] ?? utime);
    for (const order of this.traffic.ordersFor(planned, (v) => this.elections.keysOf(v), utime + 600)) {
      this.startTrace(order, step);
    }
    for (const order of this.serviceTraffic.ordersAt(step, utime + 600)) this.startTrace(order, step);
    for (const order of this.multisigTraffic.ordersAt()) this.startTrace(order, step);
    const complaint = this.complaints.fileAt(step, utime);
    if (complaint !== undefined) this.chain.complaints.push(complaint);
    for (const transfer of this.submitted.splice(0)) this.includeSubmitted(transfer, step);
    this.closeStep(step);
  }

  /** 3–6 s after the block before, or the stall's end: drawn either way, so a stall changes no draw of the chain after it. */
  private nextUtime(step: number): number {
    const previous = this.chain.utimes[step - 1]!;
    const next = previous + this.rng.int(3, 6);
    if (step !== this.stall?.step) return next;
    if (this.stall.until <= previous) throw new Error(`the stall before block ${step} must end after the time of the block before it, ${previous}; it ends at ${this.stall.until}`);
    return this.stall.until;
  }

  private openBlocks(step: number, utime: number): void {
    const startLt = FIRST_START_LT + step * LT_PER_BLOCK;
    const mcSeqno = FIRST_MC_SEQNO + step;
    const shards: [-1 | 0, string, number][] = [
      [-1, MASTERCHAIN_SHARD, mcSeqno],
      ...BASECHAIN_SHARDS.map((shard): [-1 | 0, string, number] => [0, shard, FIRST_SHARD_SEQNO + step]),
    ];
    for (const [workchain, shard, seqno] of shards) {
      this.chain.blocks.push({
        index: this.chain.blocks.length,
        workchain,
        shard,
        seqno,
        mcSeqno,
        startLt,
        endLt: startLt + 1,
        genUtime: utime,
        rootHash: this.rng.hash(),
        fileHash: this.rng.hash(),
        randSeed: this.rng.hash(),
        createdBy: this.rng.hash(),
        txs: [],
      });
    }
  }

  private tickTock(account: number, isTock: boolean, step: number): void {
    const trace = this.newTrace('tick_tock', null);
    this.execute(account, null, trace, step, { type: 'tick_tock', isTock });
  }

  private startTrace(order: WalletOrder, step: number): void {
    const wallet = this.chain.population.accountAt(order.wallet);
    const msg = this.message(null, order.wallet, 0n, 0n, null, null, false, false, {
      kind: 'wallet_external',
      signature: this.rng.bytes(64),
      subwalletId: SUBWALLET_ID,
      validUntil: this.chain.utimes[step]! + 60,
      seqno: wallet.seqno,
      out: { to: order.to, value: order.value, bounce: order.bounce, body: order.body },
    });
    const trace = this.newTrace(order.kind, msg.hash);
    this.deliver(msg, trace, step);
  }

  /** What the wallet would refuse by now (a used seqno, expired, more than its balance) is dropped. */
  private includeSubmitted(transfer: SubmittedTransfer, step: number): void {
    const wallet = this.chain.population.accountAt(transfer.wallet);
    if (transfer.seqno !== wallet.seqno || transfer.validUntil <= this.chain.utimes[step]! || transfer.value >= wallet.balance) return;
    const { hash, signature, subwalletId, validUntil, seqno, to, value, bounce, body } = transfer;
    const msg: Message = {
      hash,
      source: null,
      destination: transfer.wallet,
      value: 0n,
      fwdFee: 0n,
      createdLt: null,
      createdAt: null,
      bounce: false,
      bounced: false,
      body: { kind: 'wallet_external', signature, subwalletId, validUntil, seqno, out: { to, value, bounce, body } },
      outTx: -1,
      inTx: -1,
      serialized: undefined,
    };
    this.deliver(msg, this.newTrace('ton_transfer', hash), step);
  }

  private newTrace(kind: TraceKind, externalHash: string | null): number {
    const index = this.chain.traces.length;
    this.chain.traces.push({ index, kind, externalHash, txs: [], pending: 0 });
    this.inFlight.add(index);
    return index;
  }

  private deliver(msg: Message, trace: number, step: number): void {
    this.execute(msg.destination!, msg, trace, step, { type: 'ord', isTock: false });
  }

  private execute(accountIndex: number, msg: Message | null, trace: number, step: number, kind: { type: 'ord' | 'tick_tock'; isTock: boolean }): void {
    const chain = this.chain;
    const account = chain.population.accountAt(accountIndex);
    const block = this.blockFor(account, step);
    const lt = Math.max(account.nextLt, block.startLt + 1 + this.rng.int(0, 2));
    const index = chain.txs.length;
    const context: ContractContext = { population: chain.population, rng: this.rng, elections: this.elections, pool: this.pool, multisig: this.multisig, vesting: chain.services.vesting, step, records: this.recordSink(index) };
    const outcome =
      msg === null
        ? { outs: [], aborted: false, compute: { kind: 'vm' as const, exitCode: 0, gasUsed: 0, vmSteps: 0 }, bounce: false, fees: 0n, endStatus: account.status }
        : receive(context, account, msg);
    const balanceBefore = account.balance;
    const credit = msg?.value ?? 0n;
    const outs = outcome.outs.map((out, i) => this.outMessage(account, out, lt + 1 + i, chain.utimes[step]!));
    const debit = outs.reduce((sum, out) => sum + out.value, 0n);
    const fees = outcome.fees < balanceBefore + credit - debit ? outcome.fees : 0n;
    // The hash the transaction drew before it became its cell's: still drawn, so every later draw,
    // and with it every other record of the chain, stays as it was.
    this.rng.bytes(32);
    const tx: TransactionFields & { hash: string } = {
      index,
      account: accountIndex,
      lt,
      now: chain.utimes[step]!,
      hash: '', // set below: the hash covers every other field
      block: block.index,
      mcSeqno: block.mcSeqno,
      trace,
      inMsg: msg,
      outMsgs: outs,
      prevTx: account.lastTx,
      origStatus: account.status,
      endStatus: outcome.endStatus,
      balanceBefore,
      balanceAfter: balanceBefore + credit - debit - fees,
      totalFees: fees,
      stateHashAfter: this.rng.hash(),
      type: kind.type,
      isTock: kind.isTock,
      aborted: outcome.aborted,
      compute: outcome.compute,
      bounce: outcome.bounce,
    };
    tx.hash = this.hashTransaction(tx);
    chain.txs.push(tx);
    chain.accountTxs[accountIndex] ??= [];
    chain.accountTxs[accountIndex]!.push(index);
    account.balance = tx.balanceAfter;
    account.status = outcome.endStatus;
    account.lastTx = index;
    account.nextLt = lt + outs.length + 1;
    block.endLt = Math.max(block.endLt, account.nextLt);
    if (msg !== null) msg.inTx = index;
    this.stepTxs.push(index);

    const t = chain.trace(trace);
    t.txs.push(index);
    for (const out of outs) {
      out.outTx = index;
      const due = step + (this.rng.chance(0.25) ? 2 : 1);
      let queue = this.inbox.get(due);
      if (queue === undefined) this.inbox.set(due, (queue = []));
      queue.push({ msg: out, trace });
      t.pending += 1;
    }
    if (msg !== null && msg.source !== null) t.pending -= 1;
    if (t.pending === 0) {
      t.completedMc = block.mcSeqno;
      this.stepCompleted.push(trace);
      this.inFlight.delete(trace);
    }
  }

  private outMessage(from: Account, out: OutSpec, createdLt: number, createdAt: number): Message {
    return this.message(from.index, out.to, out.value, BigInt(this.rng.int(250_000, 1_500_000)), createdLt, createdAt, out.bounce, out.bounced ?? false, out.body);
  }

  private message(
    source: number | null,
    destination: number,
    value: bigint,
    fwdFee: bigint,
    createdLt: number | null,
    createdAt: number | null,
    bounce: boolean,
    bounced: boolean,
    body: Message['body'],
  ): Message {
    return { hash: this.rng.hash(), source, destination, value, fwdFee, createdLt, createdAt, bounce, bounced, body, outTx: -1, inTx: -1, serialized: undefined };
  }

  private blockFor(account: Account, step: number): Block {
    const blocks = this.chain.blocksOfStep(step);
    const block = blocks.find((b) => b.workchain === account.workchain && b.shard === account.shard);
    if (block === undefined) throw new Error(`no block for ${account.raw} at step ${step}`);
    return block;
  }

  private recordSink(tx: number): RecordSink {
    const records = this.records;
    return {
      jettonTransfer: (r) => records.jettonTransfers.push({ tx, ...r }),
      jettonBurn: (r) => records.jettonBurns.push({ tx, ...r }),
      nftTransfer: (r) => records.nftTransfers.push({ tx, ...r }),
      validatorEvent: (r) => records.validatorEvents.push({ tx, ...r }),
      nominatorEvent: (r) => records.nominatorEvents.push({ tx, ...r }),
      poolValidatorEvent: (r) => records.poolValidatorEvents.push({ tx, ...r }),
      orderChange: (r) => records.orderChanges.push({ tx, ...r }),
    };
  }

  /** Puts the step's transactions, actions and records into their canonical orders. */
  private closeStep(step: number): void {
    const chain = this.chain;
    const raw = (tx: number): string => chain.population.accountAt(chain.tx(tx).account).raw;
    const byLtThenAccount = (a: number, b: number): number => chain.tx(a).lt - chain.tx(b).lt || (raw(a) < raw(b) ? -1 : raw(a) > raw(b) ? 1 : 0);
    this.stepTxs.sort(byLtThenAccount);
    for (const tx of this.stepTxs) {
      chain.txOrder.push(tx);
      chain.blocks[chain.tx(tx).block]!.txs.push(tx);
    }
    chain.txCountAfterStep[step] = chain.txOrder.length;
    chain.inFlightAfterStep[step] = [...this.inFlight];

    const traceKey = (trace: number): [number, string] => [chain.traceEnd(trace).lt, chain.traceId(trace)];
    const completed = this.stepCompleted.map((trace) => ({ trace, key: traceKey(trace) }));
    completed.sort((a, b) => compareTuples(a.key, b.key));
    for (const { trace } of completed) {
      chain.completedTraces.push(trace);
      const actions = classifyTrace(chain, trace).map((action) => ({ action, key: actionKey(chain, action) }));
      actions.sort((a, b) => compareTuples(a.key, b.key));
      chain.trace(trace).actions = actions.map(({ action }) => action);
      for (const { action } of actions) chain.actions.push(action);
    }

    const byTxLt = (a: { tx: number }, b: { tx: number }): number => chain.tx(a.tx).lt - chain.tx(b.tx).lt;
    chain.jettonTransfers.push(...this.records.jettonTransfers.sort(byTxLt));
    chain.jettonBurns.push(...this.records.jettonBurns.sort(byTxLt));
    chain.nftTransfers.push(...this.records.nftTransfers.sort(byTxLt));
    chain.validatorEvents.push(...this.records.validatorEvents.sort(byTxLt));
    chain.nominatorEvents.push(...this.records.nominatorEvents.sort(byTxLt));
    chain.poolValidatorEvents.push(...this.records.poolValidatorEvents.sort(byTxLt));
    chain.orderChanges.push(...this.records.orderChanges.sort(byTxLt));
  }
}

interface StepRecords {
  readonly jettonTransfers: Chain['jettonTransfers'];
  readonly jettonBurns: Chain['jettonBurns'];
  readonly nftTransfers: Chain['nftTransfers'];
  readonly validatorEvents: Chain['validatorEvents'];
  readonly nominatorEvents: Chain['nominatorEvents'];
  readonly poolValidatorEvents: Chain['poolValidatorEvents'];
  readonly orderChanges: Chain['orderChanges'];
}

function emptyRecords(): StepRecords {
  return { jettonTransfers: [], jettonBurns: [], nftTransfers: [], validatorEvents: [], nominatorEvents: [], poolValidatorEvents: [], orderChanges: [] };
}

/** Within one trace, actions are ordered by (end_lt, action_id). */
function actionKey(chain: Chain, action: Action): [number, string] {
  return [Math.max(...action.txs.map((tx) => chain.tx(tx).lt)), action.actionId];
}

function compareTuples(a: readonly (number | string)[], b: readonly (number | string)[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return 0;
}
