import { maxBig, minBig } from '../core/checkpoint/coverage.js';
import type { AnyTable } from '../core/table.js';
import { clusterRange, type ClusterRange } from './cluster-range.js';
import type { TableChange } from './commit-plan.js';

/**
 * What a commit records per table beside its rows, in the same atomic unit: the `clusterBy` range
 * the table's commits wrote since its last sweep of moved keys (`unswept`: moved-keys.ts) and since
 * the stored checks last passed over it (`unchecked`: the checks a run makes of what it committed,
 * docs/design.md). A killed or failed run leaves both recorded for the next run.
 */
export type RangeKind = 'unswept' | 'unchecked';

export const RANGE_KINDS: readonly RangeKind[] = ['unswept', 'unchecked'];

/** A range as stored: its bounds as decimal integers (the manifest's and `_etl_meta`'s form). */
export interface StoredRange {
  readonly min: string;
  readonly max: string;
}

/** The ranges a table has recorded; a kind it has none of is absent. */
export type WrittenRanges = Partial<Record<RangeKind, StoredRange>>;

/** The ranges of `change`'s table after it commits: its rows widen both; a sweep clears `unswept`. */
export function rangesAfter(change: TableChange, stored: WrittenRanges): WrittenRanges {
  const written = clusterRange(change.table, change.rows);
  const widened = (range: StoredRange | undefined): StoredRange | undefined => {
    if (written === undefined) return range;
    if (range === undefined) return { min: String(written.min), max: String(written.max) };
    return { min: String(minBig(BigInt(range.min), written.min)), max: String(maxBig(BigInt(range.max), written.max)) };
  };
  return withRanges({ unswept: change.keysAnywhere === true ? undefined : widened(stored.unswept), unchecked: widened(stored.unchecked) });
}

/** `ranges` without its absent kinds. */
export function withRanges(ranges: Partial<Record<RangeKind, StoredRange | undefined>>): WrittenRanges {
  return Object.fromEntries(RANGE_KINDS.flatMap((kind) => (ranges[kind] === undefined ? [] : [[kind, ranges[kind]]])));
}

/** `stored` as a cluster range of `table`. */
export function asClusterRange(table: AnyTable, stored: StoredRange): ClusterRange {
  return { column: table.clusterBy!, min: BigInt(stored.min), max: BigInt(stored.max) };
}
