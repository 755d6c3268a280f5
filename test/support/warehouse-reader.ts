/** A DuckDB connection over a finished warehouse, as an analyst would open it. */
import { DuckDBInstance, quotedString, type DuckDBConnection } from '@duckdb/node-api';
import { etlRejects, etlRuns } from '../../src/core/bookkeeping.js';
import type { AnyTable } from '../../src/core/table.js';
import { parquetGlob } from '../../src/load/parquet/layout.js';
import { readManifest, type Manifest } from '../../src/load/parquet/manifest.js';
import { manifestViewsSql } from '../../src/load/parquet/views.js';
import { dataTables } from '../../src/streams/index.js';
import type { SinkKind } from './workspace.js';

export interface WarehouseReader {
  readonly connection: DuckDBConnection;
  /** A SQL relation holding the table's rows: the DuckDB table, or the Parquet glob. */
  relation(table: string): string;
  /** Rows of a query, as JSON-ready values (bigints and decimals as strings). */
  query(sql: string): Promise<Record<string, unknown>[]>;
  close(): void;
}

/**
 * Opens a finished warehouse for reading: the DuckDB file read-only (close it before the next CLI
 * run), or an in-memory DuckDB over the Parquet folder with the manifest's views.
 */
export async function openWarehouse(kind: SinkKind, path: string): Promise<WarehouseReader> {
  const manifest = kind === 'parquet' ? await readManifest(path) : undefined;
  if (kind === 'parquet' && manifest === undefined) throw new Error(`no manifest in ${path}`);
  return openReader(kind, path, manifest);
}

/** A reader over the DuckDB file, or over the Parquet folder with `manifest`'s views. */
export async function openReader(kind: SinkKind, path: string, manifest: Manifest | undefined, tables: readonly AnyTable[] = dataTables): Promise<WarehouseReader> {
  const instance = await DuckDBInstance.create(kind === 'duckdb' ? path : ':memory:', kind === 'duckdb' ? { access_mode: 'READ_ONLY' } : {});
  const connection = await instance.connect();
  if (manifest !== undefined) await connection.run(manifestViewsSql(path, manifest, [...tables, etlRuns, etlRejects]));
  return {
    connection,
    relation: (table) => (kind === 'duckdb' ? `"${table}"` : `read_parquet(${quotedString(parquetGlob(path, table))}, hive_partitioning = true)`),
    query: async (sql) => (await connection.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[],
    close: () => {
      connection.closeSync();
      instance.closeSync();
    },
  };
}
