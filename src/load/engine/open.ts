import type { DuckDBInstance } from '@duckdb/node-api';
import { createDuckDBInstance } from '../../core/duckdb-api.js';
import { FatalError, LockedError, ReadersHoldError, WarehouseWrittenError } from '../../core/errors.js';

/**
 * DuckDB reports a file held by another process only in its message text (the node API has no
 * error code), e.g. `IO Error: Could not set lock on file "…": Conflicting lock is held in
 * /usr/bin/node (PID 1234). See also …`. This is the one place that reads it.
 */
/**
 * DuckDB threads of a sink's engine (both sinks): a commit's appends, inserts and checkpoint cost a
 * quarter less CPU than with a thread per core, and the page workers and the main thread have the
 * other cores (measured: docs/design.md §4). A pipeline's `config` may set another number.
 */
export const SINK_THREADS = '1';

const LOCK_CONFLICT = /Could not set lock on file/;
const HOLDER = /Conflicting lock is held in (.*?) \(PID (\d+)\)/;

/**
 * Opens a DuckDB file, for writing unless `config.access_mode` is `READ_ONLY` (`reader`: the command
 * that reads, named in the message). A file another process writes becomes `LockedError`; a file
 * other processes only read (read-only connections share their lock) becomes `ReadersHoldError` when
 * this open wanted to write. A read-only open of a file another process writes is
 * `WarehouseWrittenError`, naming the writer's pid (the run's progress file names it too:
 * progress.ts).
 */
export async function openDuckDBFile(path: string, config: Readonly<Record<string, string>> = {}, reader = 'status'): Promise<DuckDBInstance> {
  try {
    return await createDuckDBInstance(path, { ...config });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (LOCK_CONFLICT.test(message)) {
      const holder = HOLDER.exec(message);
      const who = holder === null ? 'another process' : `process ${holder[2]} (${holder[1]})`;
      if (config.access_mode === 'READ_ONLY') {
        const progress = reader === 'status' ? '' : '; chain-etl status shows how far a sync or backfill has come meanwhile';
        throw new WarehouseWrittenError(
          `Warehouse ${path} is being written by ${who}, and DuckDB lets no other process open the file meanwhile: ` +
            `run ${reader} again when that run has ended (between the runs of sync --follow the file is free)${progress}`,
          holder === null ? undefined : Number(holder[2]),
          { cause: err },
        );
      }
      if (await readableBesideHolder(path)) {
        throw new ReadersHoldError(`Warehouse ${path} is open for reading in ${who}, and DuckDB lets no run write a file while any other process has it open`, {
          cause: err,
        });
      }
      throw new LockedError(
        `Warehouse ${path} is locked by ${who}; only one writer may use it at a time. ` +
          'Wait for that run to finish or stop it.',
        { cause: err },
      );
    }
    const detail = message.replace(/\s*\n\s*/g, ' ').replace(/[.!\s]+$/, '');
    throw new FatalError(
      `Cannot open DuckDB file ${path}: ${detail}: point sink.path (or --out) at a DuckDB database chain-etl wrote, ` +
        'or at a new file in an existing, writable folder',
      { cause: err },
    );
  }
}

/**
 * True when the file opens read-only now: its holders only read (read-only connections share the
 * lock; a writer's lock excludes them too).
 */
async function readableBesideHolder(path: string): Promise<boolean> {
  try {
    (await createDuckDBInstance(path, { access_mode: 'READ_ONLY' })).closeSync();
    return true;
  } catch {
    return false;
  }
}
