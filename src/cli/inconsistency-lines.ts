/** How `verify`, `sync` and `backfill` print what the stored checks found: a line each, with the backfill that mends it. */
import { LISTED_PER_CHECK, type Inconsistency } from '../verify/stored-checks.js';
import type { VerifyReport } from '../verify/verify-warehouse.js';

/** One line per inconsistency of `report` (and a line where a check listed no more), each with its mend for `pipeline`. */
export function inconsistencyLines(report: VerifyReport, pipeline: string): string[] {
  return report.checks.flatMap((check) =>
    check.found
      .map((found) => {
        const fix = mendCommand(pipeline, found);
        return `${found.check}, ${found.table}: ${found.detail}${fix === null ? '' : `; mend: ${fix}`}`;
      })
      .concat(check.truncated ? [`${check.check}: the first ${LISTED_PER_CHECK} are listed; mend them and run verify again`] : []),
  );
}

/** How many inconsistencies `report` lists. */
export function inconsistencyCount(report: VerifyReport): number {
  return report.checks.reduce((sum, check) => sum + check.found.length, 0);
}

/** The backfill that reads the inconsistency's range again (`--to` is exclusive); null where no range mends it. */
export function mendCommand(pipeline: string, found: Inconsistency): string | null {
  const range = found.refetch;
  if (range === undefined) return null;
  const point = (value: bigint): string => (range.axis === 'lt' ? `lt:${value}` : new Date(Number(value) * 1000).toISOString());
  return `chain-etl backfill ${pipeline} --refetch --from ${point(range.from)} --to ${point(range.to + 1n)}`;
}
