/** The assertion the truth tests share: a warehouse's tables hold exactly the expected rows. */
import { expect } from 'vitest';
import type { Row } from '../../src/core/table.js';
import { NO_MISMATCH, describeDiff, diffWarehouse, mismatch } from './row-diff.js';
import type { Snapshot } from './warehouse-snapshot.js';

/** Each expected table is non-empty and equals the snapshot's, through its reader and (Parquet) the raw glob. */
export function expectTablesEqual(expected: ReadonlyMap<string, Row[]>, snapshot: Pick<Snapshot, 'tables' | 'glob'>): void {
  const sources: [string, ReadonlyMap<string, Row[]>][] = [['tables', snapshot.tables]];
  if (snapshot.glob !== undefined) sources.push(['parquet glob', snapshot.glob]);
  for (const [label, tables] of sources) {
    for (const diff of diffWarehouse(expected, tables)) {
      expect(diff.expected, `${label} ${diff.table}: the truth has rows in the range`).toBeGreaterThan(0);
      expect(mismatch(diff), `${label}: ${describeDiff(diff)}`).toEqual(NO_MISMATCH);
    }
  }
}
