/**
 * Reads a warehouse from outside, as a second process would after chain-etl exited: digests to prove
 * a failed command changed nothing, and every stored value as text to search for what must never be
 * stored (an API key).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { quotedIdentifier, quotedString, type DuckDBConnection } from '@duckdb/node-api';
import { withDuckDB } from './with-duckdb.js';

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Every file under `root`, as paths relative to it, sorted. */
export function listFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(relative(root, path));
    }
  };
  if (statSync(root, { throwIfNoEntry: false })?.isDirectory()) walk(root);
  return files.sort();
}

async function tableNames(connection: DuckDBConnection): Promise<string[]> {
  const reader = await connection.runAndReadAll(
    "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' ORDER BY table_name",
  );
  return reader.getRows().map(([name]) => String(name));
}

/** What a DuckDB warehouse holds: a digest per table (sorted rows) and of the catalog; the run log's rows. */
export interface DuckDBState {
  /** Table name → sha256 of its rows (every column as text, sorted); the run log `_etl_runs` excluded. */
  readonly tables: Readonly<Record<string, string>>;
  /** sha256 of the DDL of every table and view. */
  readonly catalog: string;
  /** `_etl_runs` rows (every column as text), sorted; empty when the table does not exist. */
  readonly runs: readonly Readonly<Record<string, string | null>>[];
}

export async function duckdbState(path: string): Promise<DuckDBState> {
  return withDuckDB(path, { access_mode: 'READ_ONLY' }, async (connection) => {
    const tables: Record<string, string> = {};
    let runs: Record<string, string | null>[] = [];
    for (const name of await tableNames(connection)) {
      const reader = await connection.runAndReadAll(`SELECT COLUMNS(*)::VARCHAR FROM main.${quotedIdentifier(name)} ORDER BY ALL`);
      if (name === '_etl_runs') runs = reader.getRowObjectsJson() as Record<string, string | null>[];
      else tables[name] = sha256(JSON.stringify(reader.getRowsJson()));
    }
    const ddl = await connection.runAndReadAll(
      `SELECT sql FROM duckdb_tables() WHERE database_name = current_database()
       UNION ALL SELECT sql FROM duckdb_views() WHERE database_name = current_database() AND NOT internal ORDER BY 1`,
    );
    return { tables, catalog: sha256(JSON.stringify(ddl.getRowsJson())), runs };
  });
}

/** Path → sha256 of every file of a Parquet warehouse but the writer's lock file (a DuckDB file every open touches). */
export function parquetState(root: string): Record<string, string> {
  const state: Record<string, string> = {};
  for (const file of listFiles(root)) {
    if (file.startsWith('_writer.lock.duckdb')) continue;
    state[file] = sha256(readFileSync(join(root, file)));
  }
  return state;
}

/** One piece of stored content rendered as text, and where it came from. */
export interface StoredText {
  readonly where: string;
  readonly text: string;
}

/** Every row of every table (all columns cast to text), and the DDL and column comments, of a DuckDB file. */
export async function duckdbTexts(path: string): Promise<StoredText[]> {
  return withDuckDB(path, { access_mode: 'READ_ONLY' }, async (connection) => {
    const texts: StoredText[] = [];
    for (const name of await tableNames(connection)) {
      const reader = await connection.runAndReadAll(`SELECT COLUMNS(*)::VARCHAR FROM main.${quotedIdentifier(name)}`);
      texts.push({ where: `${path} table ${name}`, text: JSON.stringify(reader.getRowsJson()) });
    }
    const catalog = await connection.runAndReadAll(
      `SELECT COLUMNS(*)::VARCHAR FROM duckdb_tables()
       UNION ALL BY NAME SELECT COLUMNS(*)::VARCHAR FROM duckdb_columns()
       UNION ALL BY NAME SELECT COLUMNS(*)::VARCHAR FROM duckdb_views() WHERE NOT internal`,
    );
    texts.push({ where: `${path} catalog`, text: JSON.stringify(catalog.getRowsJson()) });
    return texts;
  });
}

/**
 * The rows, key/value metadata, file and row-group metadata and schema of Parquet files of one table
 * (one schema), as text; `label` names them in `where`.
 */
export async function parquetTexts(files: readonly string[], label: string): Promise<StoredText[]> {
  return withDuckDB(':memory:', {}, async (connection) => {
    const texts: StoredText[] = [];
    const list = `[${files.map(quotedString).join(', ')}]`;
    for (const [what, sql] of [
      ['rows', `SELECT COLUMNS(*)::VARCHAR FROM read_parquet(${list}, union_by_name = true)`],
      ['parquet_kv_metadata', `SELECT COLUMNS(*)::VARCHAR FROM parquet_kv_metadata(${list})`],
      ['parquet_metadata', `SELECT COLUMNS(*)::VARCHAR FROM parquet_metadata(${list})`],
      ['parquet_schema', `SELECT COLUMNS(*)::VARCHAR FROM parquet_schema(${list})`],
      ['parquet_file_metadata', `SELECT COLUMNS(*)::VARCHAR FROM parquet_file_metadata(${list})`],
    ] as const) {
      const reader = await connection.runAndReadAll(sql);
      texts.push({ where: `${label} ${what} (${files.length} files)`, text: JSON.stringify(reader.getRowsJson()) });
    }
    return texts;
  });
}
