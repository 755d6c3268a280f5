/**
 * What `status` reads of the warehouse: the file or folder itself, read-only; or, while a run writes
 * a DuckDB file (which DuckDB lets no other process open), the progress that run publishes beside it
 * (src/load/duckdb/progress.ts), exact as of the run's last commit.
 */
import { WarehouseWrittenError } from '../core/errors.js';
import { decodeCheckpoint } from '../core/checkpoint/record.js';
import type { Pipeline } from '../config/index.js';
import { readProgress, type DuckDBProgress } from '../load/duckdb/progress.js';
import { factsOf, withReadOnlyWarehouse, type ReadOnlyWarehouse, type StoredRun } from '../load/read-only-warehouse.js';
import { positionStreams, type PlannedStream } from '../run/plan.js';
import { positionTime, rowTimes, type RowTimes } from './range-times.js';
import { warehouseTables } from '../run/session.js';

/** The warehouse as status reports it. */
export interface StatusWarehouse {
  /** Checkpoint rows: stream → the stored text. */
  readonly checkpoints: ReadonlyMap<string, string>;
  /** Per lt stream, the times of the rows of each of its covered ranges; none while a run writes the DuckDB file. */
  readonly rowTimes: ReadonlyMap<string, readonly (RowTimes | undefined)[]>;
  /** Rows per table, `_etl_rejects` and the last runs; null while a run writes the DuckDB file. */
  readonly tables: Readonly<Record<string, number>> | null;
  readonly rejects: number | null;
  readonly runs: readonly StoredRun[] | null;
  /** The run writing the DuckDB file, as of its last commit; undefined when the warehouse was read itself. */
  readonly writing: DuckDBProgress | undefined;
}

/** Runs status lists. */
const RECENT_RUNS = 5;

export async function readStatusWarehouse(pipeline: Pipeline, streams: readonly PlannedStream[]): Promise<StatusWarehouse> {
  const { kind, path } = pipeline.sink;
  const tables = warehouseTables(streams);
  try {
    return await withReadOnlyWarehouse(kind, path, tables, 'status', async (warehouse) => {
      const facts = await factsOf(warehouse, tables, RECENT_RUNS);
      return { checkpoints: facts.checkpoints, rowTimes: await rangeRowTimes(warehouse, streams), tables: facts.rows, rejects: facts.rejects, runs: facts.runs, writing: undefined };
    });
  } catch (err) {
    if (!(err instanceof WarehouseWrittenError)) throw err;
    const writing = await readProgress(path, err.holderPid);
    // A writer that publishes nothing (an earlier release, a migration): the refusal stands.
    if (writing === undefined) throw err;
    return { checkpoints: new Map(Object.entries(writing.checkpoints)), rowTimes: new Map(), tables: null, rejects: null, runs: null, writing };
  }
}

async function rangeRowTimes(warehouse: ReadOnlyWarehouse, streams: readonly PlannedStream[]): Promise<Map<string, (RowTimes | undefined)[]>> {
  const times = new Map<string, (RowTimes | undefined)[]>();
  for (const { stream } of positionStreams(streams)) {
    const where = positionTime(stream);
    const stored = warehouse.checkpoints.get(stream.name);
    if (where === undefined || stored === undefined || !warehouse.has(where.table.name)) continue;
    times.set(stream.name, await rowTimes(warehouse.connection, where, decodeCheckpoint(stored).covered.ranges));
  }
  return times;
}
