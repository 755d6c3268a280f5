import { decodeCheckpoint } from '../core/checkpoint.js';
import type { Range } from '../core/coverage.js';

/** A range as status prints it (decimal strings: lts exceed JSON's safe integers). */
export interface ReportedRange {
  readonly from: string;
  readonly to: string;
}

/** What a stream's checkpoint row says: where a sync continues, what is covered and the holes in it. */
export interface CoverageReport {
  readonly checkpoint: string | null;
  readonly covered: readonly ReportedRange[];
  readonly holes: readonly ReportedRange[];
}

export function coverageReport(stored: string | undefined): CoverageReport {
  if (stored === undefined) return { checkpoint: null, covered: [], holes: [] };
  const record = decodeCheckpoint(stored);
  return { checkpoint: record.position.toString(), covered: record.covered.ranges.map(reported), holes: record.covered.holes().map(reported) };
}

/** `a..b` per range, or `none`. */
export function formatRanges(ranges: readonly ReportedRange[]): string {
  return ranges.length === 0 ? 'none' : ranges.map((r) => `${r.from}..${r.to}`).join(', ');
}

function reported(range: Range): ReportedRange {
  return { from: range.from.toString(), to: range.to.toString() };
}
