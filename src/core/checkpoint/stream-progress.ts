import { encodeCheckpoint, type StreamCheckpoint } from './record.js';
import { Coverage, minBig, type Range } from './coverage.js';
import type { StreamScope } from '../scope.js';

/**
 * A stream's checkpoint while a run extends it: the jobs of the stream (a sync's range, or each gap a
 * backfill fills) add what they commit, and every commit stores the whole record.
 */
export class StreamProgress {
  #position: bigint;
  readonly #covered: Coverage;
  /** The record as last stored: the row read before the run, then each commit's. */
  #stored: string | undefined;
  /** The stored record's earliest open item (see `StreamDefinition.openUntil`). */
  #open: bigint | undefined;
  /** The earliest item this run stored that was still open at its settled tip. */
  #found: bigint | undefined;
  /** The settled tip's time this run reads up to; undefined before `beginRun`. */
  #chainTime: bigint | undefined;
  /** This run reads the stream again from `#open` (a sync). */
  #rereads = false;
  /** The stream's items may change after they are listed: the record always says from where (`open`). */
  #tracksOpen = false;

  constructor(
    readonly stream: string,
    readonly scope: StreamScope,
    start: Omit<StreamCheckpoint, 'scope'>,
    stored: string | undefined,
  ) {
    this.#position = start.position;
    this.#covered = new Coverage(start.covered.ranges);
    this.#open = start.open;
    this.#stored = stored;
  }

  /**
   * Starts a run that reads up to a settled tip of time `chainTime` (unix seconds). `tracksOpen`: the
   * stream declares `openUntil`; `rereads`: the run reads it again from the earliest open item, which
   * this returns (undefined: none). A record of such a stream that does not say (an earlier
   * release's) is read again from the start of what it covers.
   */
  beginRun(chainTime: number, { rereads, tracksOpen }: { readonly rereads: boolean; readonly tracksOpen: boolean }): bigint | undefined {
    this.#chainTime = BigInt(chainTime);
    this.#rereads = rereads;
    this.#tracksOpen = tracksOpen;
    if (tracksOpen && this.#open === undefined && this.#stored !== undefined) this.#open = this.#covered.ranges[0]?.from;
    return this.#open;
  }

  /** Notes items of a page about to commit: those still open at the run's tip are read again by a later sync. */
  noteOpen(items: readonly OpenItem[]): void {
    for (const { position, until } of items) {
      if (this.#chainTime !== undefined && until <= this.#chainTime) continue;
      this.#found = minOf(this.#found, position);
    }
  }

  /**
   * Ends a run whose jobs all committed: a run that read the stream again from the open items keeps
   * only those it found open; another adds those to the stored ones. A run that fails never gets
   * here, so its commits keep the stored open items.
   */
  endRun(): void {
    this.#open = this.#rereads ? this.#found : minOf(this.#open, this.#found);
  }

  get position(): bigint {
    return this.#position;
  }

  /** True while nothing is covered (a row of an earlier release, or a stream's first run). */
  get coversNothing(): boolean {
    return this.#covered.ranges.length === 0;
  }

  /** The parts of `range` not covered yet. */
  gapsIn(range: Range): Range[] {
    return this.#covered.gapsIn(range);
  }

  /** Records that [from, to] is committed (nothing when `to < from`); a sync continues after it. */
  cover(from: bigint, to: bigint): void {
    this.#covered.add({ from, to });
    if (to >= from && to > this.#position) this.#position = to;
  }

  /** The record to store now; remembered as stored. */
  encode(): string {
    this.#stored = encodeCheckpoint(this.#record());
    return this.#stored;
  }

  /** The record differs from the stored one (a first run at the tip, a record of an earlier release). */
  get changed(): boolean {
    return this.#stored !== encodeCheckpoint(this.#record());
  }

  #record(): StreamCheckpoint {
    const open = minOf(this.#open, this.#found) ?? (this.#tracksOpen ? this.#position + 1n : undefined);
    return { position: this.#position, covered: this.#covered, ...(open === undefined ? {} : { open }), scope: this.scope };
  }
}

/** An item a page stored at `position` that the service may change until `until` (unix seconds). */
export interface OpenItem {
  readonly position: bigint;
  readonly until: bigint;
}

function minOf(a: bigint | undefined, b: bigint | undefined): bigint | undefined {
  if (a === undefined) return b;
  return b === undefined ? a : minBig(a, b);
}
