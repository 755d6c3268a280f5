/**
 * What the indexer (v3) and the node (v2) can see of the chain at this moment. The node sees the
 * head; the indexer trails it by `indexerLag` masterchain blocks and shows an action only once its
 * trace completed and `classifyDelay` more blocks were indexed.
 */
import type { Chain } from './chain/chain.js';
import type { Complaint, Election } from './chain/model.js';
import { FIRST_MC_SEQNO } from './chain/constants.js';

export interface ViewOptions {
  /** Masterchain blocks the indexer trails the head by. @default 0 */
  readonly indexerLag: number;
  /** Masterchain blocks between a trace's completion and its actions' visibility. @default 0 */
  readonly classifyDelay: number;
}

export class ChainView {
  /** Extra lag of the replica answering the current request (a lagging replica behind a load balancer). */
  replicaLag = 0;
  /** The chain grows while the devnet serves (`--grow`, `grow()`): not-yet-finalized traces are pending. */
  growing = false;
  private stalledAt: number | undefined;

  constructor(
    readonly chain: Chain,
    readonly options: ViewOptions,
  ) {}

  /** The indexer stops where it is while the chain goes on (until `resumeIndexer`). */
  stallIndexer(): void {
    this.stalledAt = this.indexedStep;
  }

  resumeIndexer(): void {
    this.stalledAt = undefined;
  }

  get headStep(): number {
    return this.chain.steps - 1;
  }

  get indexedStep(): number {
    const live = Math.max(0, this.headStep - this.options.indexerLag - this.replicaLag);
    return this.stalledAt === undefined ? live : Math.min(this.stalledAt, live);
  }

  get indexedSeqno(): number {
    return FIRST_MC_SEQNO + this.indexedStep;
  }

  /** Number of leading entries of chain.txOrder the indexer has. */
  get visibleTxs(): number {
    return this.chain.txCountAfterStep[this.indexedStep] ?? 0;
  }

  /** Number of leading entries of chain.actions the indexer has classified. */
  get visibleActions(): number {
    const limit = this.indexedSeqno - this.options.classifyDelay;
    return prefixLength(this.chain.actions, (action) => (this.chain.trace(action.trace).completedMc ?? Infinity) <= limit);
  }

  /** Number of leading records (ordered by their transaction) in indexed blocks. */
  visibleRecords(records: readonly { readonly tx: number }[]): number {
    const seqno = this.indexedSeqno;
    return prefixLength(records, (record) => this.chain.tx(record.tx).mcSeqno <= seqno);
  }

  /** The cycles whose first block is indexed, each with its start (the utime of that block), in start order. */
  get indexedCycles(): { readonly election: Election; readonly start: number }[] {
    return this.chain.elections
      .filter((election) => election.cycleStartMc <= this.indexedSeqno)
      .map((election) => ({ election, start: this.chain.utimes[this.chain.stepOfSeqno(election.cycleStartMc)]! }));
  }

  /** Complaints registered in indexed blocks, in the order of their step. */
  get indexedComplaints(): Complaint[] {
    const step = this.indexedStep;
    return this.chain.complaints.slice(0, prefixLength(this.chain.complaints, (c) => c.step <= step));
  }

  isIndexed(tx: number): boolean {
    return this.chain.tx(tx).mcSeqno <= this.indexedSeqno;
  }
}

/** Length of the longest prefix whose entries all satisfy a predicate that is monotone (true…true false…false). */
export function prefixLength<T>(items: readonly T[], inPrefix: (item: T) => boolean): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (inPrefix(items[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
