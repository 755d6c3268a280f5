/**
 * How a warehouse of each earlier schema version reaches this build's layout (SCHEMA_VERSION) in one
 * step: the tables to rebuild, and the line a migration's warning says about them.
 */
import { etlRuns } from '../core/bookkeeping.js';
import { changedSinceVersion1, type ChangedTable } from './schema-v2.js';
import { ltRetypedInVersion4 } from './schema-v4.js';

export interface MigrationStep {
  readonly tables: readonly ChangedTable[];
  /** What changed for readers, in the migration's warning. */
  readonly change: string;
}

const steps: ReadonlyMap<number, MigrationStep> = new Map([
  [1, { tables: [...changedSinceVersion1, ...ltRetypedInVersion4], change: 'columns renamed as docs/design.md §9 lists (tx_hash, tx_time, block_date, …)' }],
  // Version 2 → 3: `_etl_runs.rows` counts new rows only, the replaced ones go to `rows_replaced` (null for earlier runs).
  [2, { tables: [{ table: etlRuns, added: ['rows_replaced'] }, ...ltRetypedInVersion4], change: '_etl_runs counts new and replaced rows apart (rows, rows_replaced)' }],
  // Version 3 → 4: the lt columns declared uint64 take the lt kind of every other table (only their Parquet type changes).
  [3, { tables: ltRetypedInVersion4, change: 'the lt columns of traces and the snapshot tables are INT64 in Parquet, as every other lt (were DECIMAL(20,0)); DuckDB tables unchanged' }],
]);

/** The step from `version` to this build's layout; undefined for a version this build cannot migrate. */
export function migrationFrom(version: number): MigrationStep | undefined {
  return steps.get(version);
}
