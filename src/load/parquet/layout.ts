import { quotedIdentifier, quotedString } from '../../core/sql-quote.js';
import { PARTITION_COLUMN, type AnyTable } from '../../core/table.js';

/**
 * DuckDB file whose OS lock marks the one writer of a Parquet warehouse; the lock dies with the
 * process (even on kill -9), so there is no stale lock to clean up.
 */
export const LOCK_FILE = '_writer.lock.duckdb';

/** Suffix of files being written; never matched by `*.parquet` globs. */
export const TEMP_SUFFIX = '.tmp';

/** Folder at the root where `chain-etl repair` moves damaged files (outside every table's glob). */
export const DAMAGED_FOLDER = '_damaged';

/** Glob over every Parquet file of a table: `<root>/<table>/**\/*.parquet`. */
export function parquetGlob(root: string, table: string): string {
  return `${root}/${table}/**/*.parquet`;
}

/**
 * Relative path of the `sequence`-th file written by commit `generation`:
 * `<table>/date=YYYY-MM-DD/part-<generation>-<sequence>.parquet`. Names sort in commit order.
 */
export function dataFilePath(table: string, date: string | undefined, generation: number, sequence: number): string {
  const name = `part-${String(generation).padStart(12, '0')}-${String(sequence).padStart(4, '0')}.parquet`;
  return date === undefined ? `${table}/${name}` : `${table}/${PARTITION_COLUMN}=${date}/${name}`;
}

const DATA_FILE_NAME = /^part-(\d{12})-(\d{4})\.parquet(\.tmp)?$/;
const PARTITION_FOLDER = new RegExp(`^${PARTITION_COLUMN}=\\d{4}-\\d{2}-\\d{2}$`);

/** The generation of a file name `dataFilePath` gives (`.tmp` while written); undefined for any other name. */
export function dataFileName(name: string): { readonly generation: number; readonly temp: boolean } | undefined {
  const match = DATA_FILE_NAME.exec(name);
  return match === null ? undefined : { generation: Number(match[1]), temp: match[3] !== undefined };
}

/** True for a folder name `dataFilePath` gives a partition (`date=YYYY-MM-DD`). */
export function isPartitionFolder(name: string): boolean {
  return PARTITION_FOLDER.test(name);
}

/** A `read_parquet(...)` call over `files` (paths or globs) that adds the `date` partition column. */
export function readParquetSql(table: AnyTable, files: readonly string[]): string {
  const list = `[${files.map((file) => quotedString(file)).join(', ')}]`;
  const hive = table.partitionBy === undefined
    ? 'hive_partitioning = false'
    : `hive_partitioning = true, hive_types = {${quotedString(PARTITION_COLUMN)}: DATE}`;
  return `read_parquet(${list}, ${hive})`;
}

/**
 * The select list that writes `table`'s columns as Parquet stores them: each column whose
 * `parquetSqlType` differs from its DuckDB type is cast (UBIGINT lt to BIGINT, a value ≥ 2^63
 * failing the commit rather than wrapping; uint64 to DECIMAL(20,0)).
 */
export function parquetSelectList(table: AnyTable): string {
  return table.columnNames.map((name) => {
    const kind = table.columns[name]!;
    const column = quotedIdentifier(name);
    return kind.parquetSqlType === kind.sqlType ? column : `CAST(${column} AS ${kind.parquetSqlType}) AS ${column}`;
  }).join(', ');
}

/** Whether writing `table` to Parquet casts a column (its files of an earlier release may hold unsigned types). */
export function castsOnWrite(table: AnyTable): boolean {
  return table.columnNames.some((name) => table.columns[name]!.parquetSqlType !== table.columns[name]!.sqlType);
}
