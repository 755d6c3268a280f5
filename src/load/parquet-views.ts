import { quotedIdentifier } from '@duckdb/node-api';
import { PARTITION_COLUMN, type AnyTable } from '../core/table.js';
import type { Manifest } from './parquet-manifest.js';
import { readParquetSql } from './parquet-layout.js';

/**
 * SQL creating one view per table over exactly the files the manifest lists, so that analysts
 * never read crash leftovers or files a running commit is replacing. Run it in any DuckDB.
 */
export function manifestViewsSql(root: string, manifest: Manifest, tables: readonly AnyTable[]): string {
  return tables.map((table) => {
    const files = (manifest.tables[table.name]?.files ?? []).map((file) => `${root}/${file.path}`);
    const body = files.length > 0 ? `SELECT * FROM ${readParquetSql(table, files)}` : emptySelect(table);
    return `CREATE OR REPLACE VIEW ${quotedIdentifier(table.name)} AS ${body};`;
  }).join('\n');
}

/** A typed relation with the table's columns and no rows (read_parquet refuses an empty list). */
function emptySelect(table: AnyTable): string {
  const columns = table.columnNames.map((name) => `CAST(NULL AS ${table.columns[name]!.sqlType}) AS ${quotedIdentifier(name)}`);
  if (table.partitionBy !== undefined) columns.push(`CAST(NULL AS DATE) AS ${quotedIdentifier(PARTITION_COLUMN)}`);
  return `SELECT ${columns.join(', ')} WHERE false`;
}
