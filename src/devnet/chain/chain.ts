import type { Population } from './population.js';
import type { Services } from './services.js';
import type {
  Action,
  Block,
  Complaint,
  Election,
  JettonBurn,
  JettonTransfer,
  NftTransfer,
  NominatorEvent,
  PoolValidatorEvent,
  MultisigOrderChange,
  Trace,
  Transaction,
  ValidatorEvent,
} from './model.js';
import { FIRST_MC_SEQNO } from './constants.js';

/**
 * Everything the devnet knows, appended to one masterchain block (a "step") at a time. Every list is
 * kept in its endpoint's canonical order, so a visible range is a prefix found by binary search.
 */
export class Chain {
  readonly blocks: Block[] = [];
  /** Transactions by index (creation order). */
  readonly txs: Transaction[] = [];
  /** Transaction indexes in (lt, account) order. */
  readonly txOrder: number[] = [];
  /** Per account, its transaction indexes in lt order. */
  readonly accountTxs: number[][] = [];
  readonly traces: Trace[] = [];
  /** Completed traces in (end_lt, trace_id) order. */
  readonly completedTraces: number[] = [];
  /** Per step: the traces started but not complete after it (the index lists them as pending). */
  readonly inFlightAfterStep: (readonly number[])[] = [];
  /** In (trace_end_lt, trace_id, end_lt, action_id) order; a trace's actions are appended when it completes. */
  readonly actions: Action[] = [];
  /** Sorted by tx lt. */
  readonly jettonTransfers: JettonTransfer[] = [];
  readonly jettonBurns: JettonBurn[] = [];
  readonly nftTransfers: NftTransfer[] = [];
  /** Sorted by (utime, lt). */
  readonly validatorEvents: ValidatorEvent[] = [];
  /** The nominator pool's events, sorted by tx lt. */
  readonly nominatorEvents: NominatorEvent[] = [];
  readonly poolValidatorEvents: PoolValidatorEvent[] = [];
  /** The multisig orders' state changes, sorted by tx lt. */
  readonly orderChanges: MultisigOrderChange[] = [];
  readonly elections: Election[] = [];
  /** Complaints against validators, in the order of their step. */
  readonly complaints: Complaint[] = [];
  /** Per step: gen_utime of its masterchain block. */
  readonly utimes: number[] = [];
  /** Per step: length of txOrder / actions after the step (prefix boundaries). */
  readonly txCountAfterStep: number[] = [];

  constructor(
    readonly seed: number,
    readonly population: Population,
    readonly services: Services,
  ) {}

  get steps(): number {
    return this.utimes.length;
  }

  /** Masterchain seqno of the newest block. */
  get headSeqno(): number {
    return FIRST_MC_SEQNO + this.steps - 1;
  }

  stepOfSeqno(seqno: number): number {
    return seqno - FIRST_MC_SEQNO;
  }

  tx(index: number): Transaction {
    const tx = this.txs[index];
    if (tx === undefined) throw new Error(`no transaction ${index}`);
    return tx;
  }

  trace(index: number): Trace {
    const trace = this.traces[index];
    if (trace === undefined) throw new Error(`no trace ${index}`);
    return trace;
  }

  /** The masterchain block of a step; shard blocks of that step follow it. */
  mcBlock(step: number): Block {
    const block = this.blocks[this.blockIndexOfStep(step)];
    if (block === undefined) throw new Error(`no masterchain block at step ${step}`);
    return block;
  }

  blocksOfStep(step: number): Block[] {
    const first = this.blockIndexOfStep(step);
    return this.blocks.slice(first, first + BLOCKS_PER_STEP);
  }

  blockIndexOfStep(step: number): number {
    return step * BLOCKS_PER_STEP;
  }

  /** The trace id is the hash of its first transaction. */
  traceId(trace: number): string {
    return this.tx(this.trace(trace).txs[0]!).hash;
  }

  traceEnd(trace: number): Transaction {
    const t = this.trace(trace);
    let end = this.tx(t.txs[0]!);
    for (const index of t.txs) {
      const tx = this.tx(index);
      if (tx.lt > end.lt || (tx.lt === end.lt && this.population.accountAt(tx.account).raw > this.population.accountAt(end.account).raw)) end = tx;
    }
    return end;
  }
}

/** One masterchain block and one block per basechain shard each step. */
export const BLOCKS_PER_STEP = 3;
