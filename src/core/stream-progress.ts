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

  get covered(): readonly Range[] {
    return this.#covered.ranges;
  }

  /** Records that [from, to] is committed (nothing when `to < from`). */
  cover(from: bigint, to: bigint): void {
    this.#covered.add({ from, to });
    if (to >= from) this.moveTo(to);
  }

  /** A sync continues after `position` (a first sync without start: the settled tip). */
  moveTo(position: bigint): void {
    if (position > this.#position) this.#position = position;
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
