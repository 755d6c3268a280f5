import { encodeCheckpoint, type StreamCheckpoint } from './checkpoint.js';
import { Coverage, type Range } from './coverage.js';
import type { StreamScope } from './scope.js';

/**
 * A stream's checkpoint while a run extends it: the jobs of the stream (a sync's range, or each gap a
 * backfill fills) add what they commit, and every commit stores the whole record.
 */
export class StreamProgress {
  #position: bigint;
  readonly #covered: Coverage;
  /** The record as last stored: the row read before the run, then each commit's. */
  #stored: string | undefined;

  constructor(
    readonly stream: string,
    readonly scope: StreamScope,
    start: Omit<StreamCheckpoint, 'scope'>,
    stored: string | undefined,
  ) {
    this.#position = start.position;
    this.#covered = new Coverage(start.covered.ranges);
    this.#stored = stored;
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
    this.#stored = encodeCheckpoint({ position: this.#position, covered: this.#covered, scope: this.scope });
    return this.#stored;
  }

  /** The record differs from the stored one (a first run at the tip, a record of an earlier release). */
  get changed(): boolean {
    return this.#stored !== encodeCheckpoint({ position: this.#position, covered: this.#covered, scope: this.scope });
  }
}
