import type { DuckDBInstance } from '@duckdb/node-api';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, LockedError } from '../../core/errors.js';
import { openDuckDBFile } from '../engine/open.js';
import { LOCK_FILE } from './layout.js';

/**
 * Takes the one-writer lock of a Parquet warehouse (see LOCK_FILE). A lock file that exists but does
 * not open (overwritten, truncated) holds no data: the error says it may be deleted.
 */
export async function lockWarehouse(root: string, config: Readonly<Record<string, string>> = {}): Promise<DuckDBInstance> {
  const path = join(root, LOCK_FILE);
  const existed = existsSync(path);
  try {
    return await openDuckDBFile(path, config);
  } catch (err) {
    if (err instanceof LockedError || !existed) throw err;
    const reason = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
    throw new ConfigError(
      `The writer lock file ${path} of this Parquet warehouse does not open (${reason.replace(/\s*\n\s*/g, ' ')}); ` +
        `it holds no data: delete it (and ${LOCK_FILE}.wal, if there) when no chain-etl runs on this folder, then run again`,
      { cause: err },
    );
  }
}
