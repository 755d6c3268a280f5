/** Reading a sink's tables back from outside it, as an analyst's notebook would. */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { AnyTable } from '../../src/core/table.js';
import { readRows } from '../../src/load/engine/read.js';
import { parquetGlob, readParquetSql } from '../../src/load/parquet/layout.js';
import { withDuckDB } from '../support/with-duckdb.js';

/** Runs `use` with a fresh in-memory DuckDB. */
export function withReader<T>(use: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  return withDuckDB(':memory:', {}, use);
}

/** Every row of a table read through the Parquet folder glob, as the design promises analysts. */
export async function globRows<T extends AnyTable>(root: string, table: T) {
  return withReader((connection) => readRows(connection, table, readParquetSql(table, [parquetGlob(root, table.name)])));
}

/** Rows in DuckDB's VARCHAR order (byte order) of `tx_hash`, as `readRows` returns them. */
export function byHash<T extends Readonly<Record<string, unknown>>>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => (String(a['tx_hash']) < String(b['tx_hash']) ? -1 : 1));
}
