import type { Window } from './windows.js';

/**
 * The committed position of a stream while its windows finish out of order: everything up to the
 * returned position is committed; it never passes a window still in flight (D4).
 */
export class CheckpointTracker {
  private readonly through: bigint[];

  /** `floor`: the position already committed before this run (never moved backwards). */
  constructor(
    private readonly windows: readonly Window[],
    private readonly floor: bigint,
  ) {
    this.through = windows.map((w) => w.from - 1n);
  }

  /** Records that window `index` is committed up to `position`; returns the stream's checkpoint. */
  advance(index: number, position: bigint): bigint {
    if (position > this.through[index]!) this.through[index] = position;
    return this.position();
  }

  position(): bigint {
    let reached = this.windows.length === 0 ? this.floor : this.windows[0]!.from - 1n;
    for (let i = 0; i < this.windows.length; i++) {
      reached = this.through[i]!;
      if (reached < this.windows[i]!.to) break;
    }
    return reached > this.floor ? reached : this.floor;
  }
}
