/** A closed range of positions [from, to]. */
export interface Window {
  readonly from: bigint;
  readonly to: bigint;
}

/** Minimum window width per axis: about 20 masterchain blocks of lt, or an hour. */
export const MIN_WINDOW = { lt: 20_000_000n, utime: 3_600n } as const;

/**
 * Splits [from, to] into at most `count` consecutive windows of at least `minWidth` positions, so
 * several can be fetched at once. Empty when from > to.
 */
export function splitWindows(from: bigint, to: bigint, count: number, minWidth: bigint): Window[] {
  if (from > to) return [];
  const span = to - from + 1n;
  const byCount = (span + BigInt(count) - 1n) / BigInt(count);
  const width = byCount > minWidth ? byCount : minWidth;
  const windows: Window[] = [];
  for (let start = from; start <= to; start += width) {
    const end = start + width - 1n;
    windows.push({ from: start, to: end < to ? end : to });
  }
  return windows;
}

/**
 * Windows a range is split into at most: more than the requests in flight, so that a slot that
 * finishes early takes another window; with one request at a time they would only add a partial page each.
 */
export function windowsFor(concurrency: number): number {
  return concurrency > 1 ? concurrency * 4 : 1;
}

/**
 * Pages the rest of a window will take, estimated from its first page: that page's `items` over the
 * positions it covered (up to `through`), spread evenly over the positions left; at least one. A
 * sparse stream then gets one window for the rest, not a partial page per window.
 */
export function estimatePagesLeft(window: Window, items: number, through: bigint, pageLimit: number): number {
  const covered = through - window.from + 1n;
  const left = window.to - through;
  if (covered <= 0n || left <= 0n) return 1;
  return Number((BigInt(items) * left) / covered / BigInt(pageLimit)) + 1;
}
