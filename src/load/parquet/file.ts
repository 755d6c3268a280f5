import type { DuckDBConnection } from '@duckdb/node-api';
import { quotedString } from '../../core/sql-quote.js';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { identifierList } from '../../core/ddl.js';
import type { AnyTable } from '../../core/table.js';
import { fsyncPath } from '../durable-fs.js';
import { TEMP_SUFFIX, parquetSelectList } from './layout.js';

/** DuckDB's own default row group size. */
export const DEFAULT_ROW_GROUP_SIZE = 122_880;

/**
 * Writes the query's rows to the data file `path` as the sink lays a file out: in this release's
 * Parquet types, sorted by the table's clusterBy and key, under a temp name, fsynced, then renamed.
 * Writes nothing when the query has no rows. Returns the row count and file size.
 */
export async function writeDataFile(
  connection: DuckDBConnection,
  table: AnyTable,
  query: string,
  path: string,
  rowGroupSize = DEFAULT_ROW_GROUP_SIZE,
): Promise<{ rows: number; bytes: number }> {
  const order = identifierList([...(table.clusterBy === undefined ? [] : [table.clusterBy]), ...table.primaryKey]);
  const partial = `${path}${TEMP_SUFFIX}`;
  await mkdir(dirname(path), { recursive: true });
  const result = await connection.run(
    `COPY (SELECT ${parquetSelectList(table)} FROM (${query}) ORDER BY ${order}) TO ${quotedString(partial)} ` +
      `(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${rowGroupSize})`,
  );
  if (result.rowsChanged === 0) {
    await rm(partial, { force: true });
    return { rows: 0, bytes: 0 };
  }
  await fsyncPath(partial);
  const { size } = await stat(partial);
  await rename(partial, path);
  return { rows: result.rowsChanged, bytes: size };
}
