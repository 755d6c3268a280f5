import type { Rng } from '../chain/rng.js';

export type SortDirection = 'asc' | 'desc';

export interface PageRequest {
  readonly sort: SortDirection;
  readonly offset: number;
  readonly limit: number;
}

/**
 * Selects a page from the items [lo, hi) in ascending canonical order (read through `at`), keeping those
 * the predicate accepts. With `tieKey`, items sharing a key come in a fresh random order on every
 * request, as rows do under an ORDER BY without a tie-breaker on the real service.
 */
export function selectPage<T>(
  lo: number,
  hi: number,
  at: (index: number) => T,
  accept: (item: T) => boolean,
  page: PageRequest,
  tie?: { readonly key: (item: T) => number | string; readonly rng: Rng },
): T[] {
  const wanted = page.offset + page.limit;
  const picked: T[] = [];
  const step = page.sort === 'asc' ? 1 : -1;
  let i = page.sort === 'asc' ? lo : hi - 1;
  for (; i >= lo && i < hi; i += step) {
    const item = at(i);
    if (!accept(item)) continue;
    if (picked.length >= wanted && (tie === undefined || tie.key(item) !== tie.key(picked[picked.length - 1]!))) break;
    picked.push(item);
  }
  if (tie !== undefined) shuffleTies(picked, tie.key, tie.rng);
  return picked.slice(page.offset, wanted);
}

function shuffleTies<T>(items: T[], key: (item: T) => number | string, rng: Rng): void {
  let start = 0;
  while (start < items.length) {
    let end = start + 1;
    const k = key(items[start]!);
    while (end < items.length && key(items[end]!) === k) end++;
    for (let i = end - 1; i > start; i--) {
      const j = start + Math.floor(rng.next() * (i - start + 1));
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    start = end;
  }
}

/** First index in [0, count) whose key is ≥ (or > when `after`) the bound, over ascending keys. */
export function lowerBound(count: number, keyAt: (index: number) => number, bound: number, after = false): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const key = keyAt(mid);
    if (key < bound || (after && key === bound)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
