import { encodeCheckpoint, type StreamCheckpoint } from './record.js';
import { Coverage } from './coverage.js';
import type { StreamScope } from '../scope.js';

/**
 * A snapshot stream's checkpoint while a run takes a snapshot: the time of the last complete
 * snapshot (its `position`, -1 before any) and the snapshots begun since, whose rows may still be in
 * the tables. Every page's commit stores it with the snapshot begun; the last commit deletes the rows
 * of every other snapshot (they are rows the complete one did not see) and stores it as complete.
 */
export class SnapshotRecord {
  #last: bigint;
  readonly #pending: bigint[];

  constructor(
    readonly stream: string,
    readonly scope: StreamScope,
    stored: Pick<StreamCheckpoint, 'position' | 'pending'>,
  ) {
    this.#last = stored.position;
    this.#pending = [...(stored.pending ?? [])];
  }

  /** Unix seconds of the last complete snapshot; undefined before the first. */
  get lastComplete(): number | undefined {
    return this.#last < 0n ? undefined : Number(this.#last);
  }

  /** A snapshot was begun and not completed (a killed or failed run): the tables mix two snapshots. */
  get incomplete(): boolean {
    return this.#pending.length > 0;
  }

  /** The time of a snapshot begun at `now` (unix seconds): after every earlier one, so each snapshot's rows are told apart. */
  nextTime(now: number): number {
    const latest = [this.#last, ...this.#pending].reduce((a, b) => (a > b ? a : b));
    return Math.max(now, Number(latest) + 1);
  }

  begin(time: number): void {
    if (!this.#pending.includes(BigInt(time))) this.#pending.push(BigInt(time));
  }

  /** Marks the snapshot of `time` complete; returns the times of the other snapshots, whose rows go. */
  complete(time: number): number[] {
    const others = [this.#last, ...this.#pending].filter((t) => t >= 0n && t !== BigInt(time)).map(Number);
    this.#last = BigInt(time);
    this.#pending.length = 0;
    return others;
  }

  encode(): string {
    return encodeCheckpoint({ position: this.#last, covered: new Coverage(), pending: this.#pending, scope: this.scope });
  }
}
