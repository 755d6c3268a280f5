import { FatalError } from '../core/errors.js';
import type { Window } from './windows.js';

/**
 * The committed position of a stream while its windows finish out of order: everything up to the
 * returned position is committed; it never passes a window still in flight (docs/design.md §2).
 * Windows are consecutive in the order they are added; a window may be ended early and its rest
 * handed to windows added after it.
 */
export class CheckpointTracker {
  readonly #windows: { from: bigint; to: bigint; through: bigint }[] = [];

  /** `floor`: the position already committed before this run (never moved backwards). */
  constructor(private readonly floor: bigint) {}

  /** Adds the window that follows the last one; returns its index. */
  add(window: Window): number {
    return this.#windows.push({ from: window.from, to: window.to, through: window.from - 1n }) - 1;
  }

  /** Ends window `index` at `to` (it has committed that far): windows added next cover the rest. */
  endAt(index: number, to: bigint): void {
    this.#windows[index]!.to = to;
  }

  /**
   * Records that window `index` is committed up to `position`; returns the stream's checkpoint. A
   * position past the window's end would cover what no page of it read: refused.
   */
  advance(index: number, position: bigint): bigint {
    const window = this.#windows[index]!;
    if (position > window.to) {
      throw new FatalError(`a page of the window ${window.from}..${window.to} would move the checkpoint to ${position}, past the window's end: refused (a paging defect: please report it)`);
    }
    if (position > window.through) window.through = position;
    return this.position();
  }

  /** How many positions the windows have committed, contiguous or not: how much of the work is done. */
  committedSpan(): bigint {
    let span = 0n;
    for (const window of this.#windows) if (window.through >= window.from) span += window.through - window.from + 1n;
    return span;
  }

  position(): bigint {
    let reached = this.#windows[0] === undefined ? this.floor : this.#windows[0].from - 1n;
    for (const window of this.#windows) {
      reached = window.through;
      if (reached < window.to) break;
    }
    return reached > this.floor ? reached : this.floor;
  }
}
