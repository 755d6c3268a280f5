/** A closed range of positions [from, to]. */
export interface Window {
  readonly from: bigint;
  readonly to: bigint;
}

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
