import { join } from 'node:path';
import { writtenRangeKey } from '../../core/bookkeeping.js';
import { quotedIdentifier, quotedString } from '../../core/sql-quote.js';
import { PARTITION_COLUMN, type AnyTable } from '../../core/table.js';
import { definitionsSql, type AnalystDefinitions, type WarehouseRecords } from '../../core/warehouse-views.js';
import { writeFileDurably } from '../durable-fs.js';
import type { Manifest } from './manifest.js';
import { readParquetSql } from './layout.js';

/** The SQL file at the root of a Parquet warehouse that defines its tables, macros and views in any DuckDB. */
export const VIEWS_FILE = 'views.sql';

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
  const columns = table.columnNames.map((name) => `CAST(NULL AS ${table.columns[name]!.parquetSqlType}) AS ${quotedIdentifier(name)}`);
  if (table.partitionBy !== undefined) columns.push(`CAST(NULL AS DATE) AS ${quotedIdentifier(PARTITION_COLUMN)}`);
  return `SELECT ${columns.join(', ')} WHERE false`;
}

/**
 * The manifest's records as DuckDB's `_etl_checkpoints` and `_etl_meta` hold them (each stream's
 * checkpoint, each table's unchecked range), as values: views.sql is written again at every commit.
 */
function manifestRecords(manifest: Manifest): WarehouseRecords {
  const checkpoints = Object.entries(manifest.checkpoints).map(([stream, { position }]) => [stream, position]);
  const unchecked = Object.entries(manifest.tables).flatMap(([table, entry]) => (entry.unchecked === undefined ? [] : [[writtenRangeKey('unchecked', table), JSON.stringify(entry.unchecked)]]));
  return { checkpoints: textValues(checkpoints, ['stream', 'position']), meta: textValues(unchecked, ['key', 'value']) };
}

/** A relation of text `rows` under `columns` (typed and empty where there are none: VALUES needs a row). */
function textValues(rows: readonly (readonly string[])[], columns: readonly string[]): string {
  if (rows.length === 0) return `(SELECT ${columns.map((column) => `CAST(NULL AS VARCHAR) AS ${column}`).join(', ')} WHERE false) AS records`;
  return `(VALUES ${rows.map((row) => `(${row.map(quotedString).join(', ')})`).join(', ')}) AS records(${columns.join(', ')})`;
}

/**
 * The text of `views.sql`: the analysts' macros, one view per table over the files `manifest` lists
 * (absolute paths, so it runs from any working directory), then the analysts' views over them, which
 * read the manifest's records inlined.
 */
export function viewsFileSql(root: string, manifest: Manifest, tables: readonly AnyTable[], definitions: AnalystDefinitions): string {
  const header = [
    `-- chain-etl: the tables, macros and views of the Parquet warehouse ${root}, over the files of its`,
    `-- manifest generation ${manifest.generation}. Rewritten by every commit; do not edit.`,
    `-- DuckDB CLI: .read ${join(root, VIEWS_FILE)}   Python: con.execute(open('${join(root, VIEWS_FILE)}').read())`,
    '-- Read it again after a sync: the files a sync superseded go after sink.retain_superseded_minutes.',
  ];
  const macros = definitionsSql({ macros: definitions.macros, views: [] }, new Set());
  const views = definitionsSql({ macros: [], views: definitions.views }, new Set(tables.map((table) => table.name)), { records: manifestRecords(manifest) });
  return [...header, macros, manifestViewsSql(root, manifest, tables), views].filter((part) => part !== '').join('\n') + '\n';
}

/** Replaces `<root>/views.sql` (temp file, then rename: a reader sees the old or the new file). */
export async function writeViewsFile(root: string, manifest: Manifest, tables: readonly AnyTable[], definitions: AnalystDefinitions): Promise<void> {
  await writeFileDurably(join(root, VIEWS_FILE), viewsFileSql(root, manifest, tables, definitions));
}
