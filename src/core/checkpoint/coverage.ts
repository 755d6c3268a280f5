/** An inclusive range of positions on a stream's axis. */
export interface Range {
  readonly from: bigint;
  readonly to: bigint;
}

/**
 * The positions of a stream the warehouse holds completely: sorted, disjoint, non-adjacent inclusive
 * ranges. Everything a sink stores for the stream lies in them; a gap between two is a hole.
 */
export class Coverage {
  #ranges: Range[];

  constructor(ranges: readonly Range[] = []) {
    this.#ranges = [];
    for (const range of ranges) this.add(range);
  }

  get ranges(): readonly Range[] {
    return this.#ranges;
  }

  /** The last covered position, or undefined when nothing is covered. */
  get end(): bigint | undefined {
    return this.#ranges.at(-1)?.to;
  }

  add(range: Range): void {
    if (range.to < range.from) return;
    let { from, to } = range;
    const kept: Range[] = [];
    for (const r of this.#ranges) {
      if (r.to + 1n < from || r.from > to + 1n) kept.push(r);
      else {
        from = r.from < from ? r.from : from;
        to = r.to > to ? r.to : to;
      }
    }
    kept.push({ from, to });
    kept.sort((a, b) => (a.from < b.from ? -1 : 1));
    this.#ranges = kept;
  }

  /** Stops covering `range` (a hole where it lay inside a covered range). */
  remove(range: Range): void {
    if (range.to < range.from) return;
    const kept: Range[] = [];
    for (const r of this.#ranges) {
      if (r.to < range.from || r.from > range.to) kept.push(r);
      else {
        if (r.from < range.from) kept.push({ from: r.from, to: range.from - 1n });
        if (r.to > range.to) kept.push({ from: range.to + 1n, to: r.to });
      }
    }
    this.#ranges = kept;
  }

  /** The parts of `range` not covered, in order. */
  gapsIn(range: Range): Range[] {
    const gaps: Range[] = [];
    let next = range.from;
    for (const r of this.#ranges) {
      if (r.to < next) continue;
      if (r.from > range.to) break;
      if (r.from > next) gaps.push({ from: next, to: r.from - 1n });
      next = r.to + 1n;
      if (next > range.to) return gaps;
    }
    if (next <= range.to) gaps.push({ from: next, to: range.to });
    return gaps;
  }

  /** The gaps between covered ranges. */
  holes(): Range[] {
    const holes: Range[] = [];
    for (let i = 1; i < this.#ranges.length; i += 1) holes.push({ from: this.#ranges[i - 1]!.to + 1n, to: this.#ranges[i]!.from - 1n });
    return holes;
  }
}

export function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

export function maxBig(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
