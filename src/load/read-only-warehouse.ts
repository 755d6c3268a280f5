/**
 * A warehouse read without writing, as `status`, `query` and `sql` do: the DuckDB file read-only (readers share its
 * lock, so a notebook's connection does not stand in the way; a writer's lock does), or a Parquet
 * folder through its manifest, without its writer lock. Nothing is created, locked for writing or
 * changed; a path that holds no warehouse is refused, and so is a Parquet folder the sink would refuse
 * (data files without a manifest, damaged files), with the sink's message.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { createDuckDBInstance } from '../core/duckdb-api.js';
import { quotedIdentifier } from '../core/sql-quote.js';
import { SCHEMA_VERSION, SCHEMA_VERSION_KEY, etlCheckpoints, etlMeta, etlRejects, etlRuns } from '../core/bookkeeping.js';
import { ConfigError } from '../core/errors.js';
import type { AnyTable } from '../core/table.js';
import { definitionsSql, type AnalystDefinitions } from '../core/warehouse-views.js';
import { etlDaysDefinitions } from '../streams/etl-days.js';
import { openDuckDBFile } from './engine/open.js';
import { damagedFiles, damagedFilesError, readManifestBesideData } from './parquet/integrity.js';
import { MANIFEST_FILE } from './parquet/manifest.js';
import { viewsFileSql } from './parquet/views.js';
import { schemaVersionError } from './schema-version.js';
import type { SinkKind } from './open-sink.js';

/** A run as `_etl_runs` holds it, as status reports it. */
export interface StoredRun {
  readonly command: string;
  readonly status: string;
  /** Unix seconds. */
  readonly startedAt: number;
  readonly endedAt: number | null;
  /** New rows per stream (and `snapshot_time`), as the run recorded them. */
  readonly rows: Readonly<Record<string, unknown>>;
  /** Null for a run of schema version 2 and earlier. */
  readonly rowsReplaced: Readonly<Record<string, unknown>> | null;
  readonly error: string | null;
}

/** What a warehouse holds, as status reports it. */
export interface WarehouseFacts {
  /** Checkpoint rows: stream → the stored text. */
  readonly checkpoints: ReadonlyMap<string, string>;
  /** Rows per table asked for; 0 for a table the warehouse does not hold yet. */
  readonly rows: Readonly<Record<string, number>>;
  /** Rows of `_etl_rejects`. */
  readonly rejects: number;
  /** The last runs, newest first. */
  readonly runs: readonly StoredRun[];
}

/** Reads the facts of the warehouse of `kind` at `path` about `tables`, and closes it again. */
export async function readWarehouseFacts(kind: SinkKind, path: string, tables: readonly AnyTable[], runs = 5): Promise<WarehouseFacts> {
  return withReadOnlyWarehouse(kind, path, tables, 'status', (warehouse) => factsOf(warehouse, tables, runs));
}

/** The facts of an open warehouse about `tables` and its last `runs` runs. */
export async function factsOf(warehouse: ReadOnlyWarehouse, tables: readonly AnyTable[], runs: number): Promise<WarehouseFacts> {
  const rows: Record<string, number> = {};
  for (const table of tables) rows[table.name] = await warehouse.count(table.name);
  return { checkpoints: warehouse.checkpoints, rows, rejects: await warehouse.count(etlRejects.name), runs: await warehouse.recentRuns(runs) };
}

/**
 * Opens the warehouse of `kind` at `path` read-only (`command` names the reader in a refusal), with
 * `_etl_days` defined (the analysts' other views are not), reads it with `read`, and closes it again.
 */
export async function withReadOnlyWarehouse<T>(kind: SinkKind, path: string, tables: readonly AnyTable[], command: string, read: (warehouse: ReadOnlyWarehouse) => Promise<T>): Promise<T> {
  const warehouse = await openReadOnly(kind, path, tables, etlDaysDefinitions, command);
  try {
    return await read(warehouse);
  } finally {
    warehouse.close();
  }
}

/** An open read-only SQL session over a warehouse: `chain-etl query` and `chain-etl sql`. */
export interface QuerySession {
  readonly connection: DuckDBConnection;
  close(): void;
}

/**
 * Opens the warehouse of `kind` at `path` read-only, with `tables` and the analysts' `definitions`
 * defined (in a DuckDB file written by an earlier release that lacks some, as TEMP objects), in a
 * session whose time zone is UTC, so that a timestamp prints and casts to a date as its UTC day.
 */
export async function openQuerySession(
  kind: SinkKind,
  path: string,
  tables: readonly AnyTable[],
  definitions: AnalystDefinitions,
  command: string,
): Promise<QuerySession> {
  const warehouse = await openReadOnly(kind, path, tables, definitions, command);
  try {
    await warehouse.connection.run("SET TimeZone = 'UTC'");
  } catch (err) {
    warehouse.close();
    throw err;
  }
  return { connection: warehouse.connection, close: () => warehouse.close() };
}

/** `command` names the reader in a refusal's message. */
async function openReadOnly(kind: SinkKind, path: string, tables: readonly AnyTable[], definitions: AnalystDefinitions, command: string): Promise<ReadOnlyWarehouse> {
  checkPath(kind, path, command);
  return kind === 'duckdb' ? openDuckDB(path, definitions, command) : openParquet(path, tables, definitions);
}

/** Refuses a path where no warehouse of the kind can be: nothing there, or a file for a folder and back. */
function checkPath(kind: SinkKind, path: string, command: string): void {
  const found = statSync(path, { throwIfNoEntry: false });
  if (found === undefined) throw new ConfigError(`no warehouse at ${path}: check sink.path (or --out); ${command} creates nothing`);
  if (kind === 'duckdb' ? !found.isDirectory() : found.isDirectory()) return;
  const [is, want] = kind === 'duckdb' ? ['a folder', 'a DuckDB warehouse is a file'] : ['a file', 'a Parquet warehouse is a folder'];
  throw new ConfigError(`no warehouse at ${path}: it is ${is}, and ${want}; check sink.kind and sink.path (or --sink, --out)`);
}

/** A warehouse open read-only: its tables (and those `tables` asked for that it lacks) by name on `connection`. */
export interface ReadOnlyWarehouse {
  readonly connection: DuckDBConnection;
  readonly checkpoints: ReadonlyMap<string, string>;
  /** Whether the warehouse holds the table yet (a view over no file counts for Parquet). */
  has(table: string): boolean;
  /** Rows of a table; 0 for a table the warehouse does not hold yet. */
  count(table: string): Promise<number>;
  recentRuns(limit: number): Promise<StoredRun[]>;
  close(): void;
}

async function openDuckDB(path: string, definitions: AnalystDefinitions, command: string): Promise<ReadOnlyWarehouse> {
  const instance = await openDuckDBFile(path, { access_mode: 'READ_ONLY' }, command);
  const connection = await instance.connect();
  const close = (): void => {
    connection.closeSync();
    instance.closeSync();
  };
  try {
    const present = new Set(
      (await connection.runAndReadAll("SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main'"))
        .getRows()
        .map(([name]) => String(name)),
    );
    if (!present.has(etlMeta.name)) throw new ConfigError(`no warehouse at ${path}: the DuckDB file has no ${etlMeta.name} table, so chain-etl did not write it`);
    const version = (await connection.runAndReadAll(`SELECT value FROM ${quotedIdentifier(etlMeta.name)} WHERE key = $key`, { key: SCHEMA_VERSION_KEY })).getRows()[0]?.[0];
    checkVersion(path, Number(version));
    const checkpoints = present.has(etlCheckpoints.name)
      ? new Map((await connection.runAndReadAll(`SELECT stream, position FROM ${quotedIdentifier(etlCheckpoints.name)}`)).getRows().map(([s, p]) => [String(s), String(p)]))
      : new Map<string, string>();
    const missing = definitionsSql(definitions, present, { temporary: true, except: await definedNames(connection) });
    if (missing !== '') await connection.run(missing);
    return {
      connection,
      checkpoints,
      has: (table) => present.has(table),
      count: async (table) => (present.has(table) ? countRows(connection, table) : 0),
      recentRuns: async (limit) => (present.has(etlRuns.name) ? recentRuns(connection, limit) : []),
      close,
    };
  } catch (err) {
    close();
    throw err;
  }
}

async function openParquet(path: string, tables: readonly AnyTable[], definitions: AnalystDefinitions): Promise<ReadOnlyWarehouse> {
  const root = resolve(path);
  const manifest = await readManifestBesideData(root);
  if (manifest === undefined) {
    throw new ConfigError(`no warehouse at ${path}: the folder has no ${MANIFEST_FILE}; check sink.path (or --out)`);
  }
  checkVersion(path, manifest.schemaVersion);
  const damaged = await damagedFiles(root, manifest);
  if (damaged.length > 0) throw damagedFilesError(root, damaged);
  const instance = await createDuckDBInstance(':memory:');
  const connection = await instance.connect();
  await connection.run(viewsFileSql(root, manifest, [...tables, etlRuns, etlRejects], definitions));
  return {
    connection,
    checkpoints: new Map(Object.entries(manifest.checkpoints).map(([stream, { position }]) => [stream, position])),
    // Every table asked for has a view (over no file before its first rows).
    has: () => true,
    count: (table) => countRows(connection, table),
    recentRuns: (limit) => recentRuns(connection, limit),
    close: () => {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/** The views and macros the warehouse file defines itself. */
async function definedNames(connection: DuckDBConnection): Promise<Set<string>> {
  const sql =
    "SELECT view_name FROM duckdb_views() WHERE NOT internal AND database_name = current_database() " +
    "UNION ALL SELECT function_name FROM duckdb_functions() WHERE function_type = 'macro' AND NOT internal AND database_name = current_database()";
  return new Set((await connection.runAndReadAll(sql)).getRows().map(([name]) => String(name)));
}

function checkVersion(path: string, found: number): void {
  if (found !== SCHEMA_VERSION) throw schemaVersionError(path, found);
}

async function countRows(connection: DuckDBConnection, table: string): Promise<number> {
  return Number((await connection.runAndReadAll(`SELECT count(*) FROM ${quotedIdentifier(table)}`)).getRows()[0]?.[0] ?? 0);
}

async function recentRuns(connection: DuckDBConnection, limit: number): Promise<StoredRun[]> {
  const sql =
    `SELECT command, status, epoch(started_at), epoch(ended_at), rows::VARCHAR, rows_replaced::VARCHAR, error ` +
    `FROM ${quotedIdentifier(etlRuns.name)} ORDER BY started_at DESC, ended_at DESC NULLS FIRST LIMIT ${limit}`;
  return (await connection.runAndReadAll(sql)).getRows().map(([command, status, startedAt, endedAt, rows, rowsReplaced, error]) => ({
    command: String(command),
    status: String(status),
    startedAt: Number(startedAt),
    endedAt: endedAt === null ? null : Number(endedAt),
    rows: JSON.parse(String(rows)) as Record<string, unknown>,
    rowsReplaced: rowsReplaced === null ? null : (JSON.parse(String(rowsReplaced)) as Record<string, unknown>),
    error: error === null ? null : String(error),
  }));
}
