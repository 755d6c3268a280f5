/** How `verify`, `sync` and `backfill` print what the stored checks found: a line each, with the backfill that mends it (or fills what no check looked at). */
import type { PositionAxis } from '../core/stream.js';
import { utcTime } from '../core/utc-time.js';
import type { CoverageHole } from '../verify/checkpoint-checks.js';
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
  return found.refetch === undefined ? null : backfillCommand(pipeline, found.refetch, ' --refetch');
}

/** A line naming a range no check looked at (between covered ranges), with the backfill that fills it. */
export function holeLine(pipeline: string, hole: CoverageHole): string {
  const shown = hole.axis === 'lt' ? `lt ${hole.from}..${hole.to}` : `${utcTime(Number(hole.from))} to ${utcTime(Number(hole.to))}`;
  return `not covered: ${hole.stream} ${shown} lies between covered ranges, so no check looked at it; fill it: ${backfillCommand(pipeline, hole)}`;
}

/** `chain-etl backfill` over [from, to] of the axis (`--to` is exclusive), with `flags` before the range. */
function backfillCommand(pipeline: string, range: { readonly axis: PositionAxis; readonly from: bigint; readonly to: bigint }, flags = ''): string {
  const point = (value: bigint): string => (range.axis === 'lt' ? `lt:${value}` : new Date(Number(value) * 1000).toISOString());
  return `chain-etl backfill ${pipeline}${flags} --from ${point(range.from)} --to ${point(range.to + 1n)}`;
}
