/**
 * Warehouses of earlier releases (test/fixtures/previous-release: schema version 1; test/fixtures/schema-v3:
 * version 3, its traces and snapshot tables; both synced from the devnet below) and what the migration
 * tests compare: each table's layout and rows, read in DuckDB; and kill -9 in the middle of a
 * migration (run by test/chaos/migrate-kill.chaos.ts).
 */
import { copyFile, cp, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DuckDBInstance, quotedIdentifier, quotedString } from '@duckdb/node-api';
import { expect } from 'vitest';
import type { AnyTable } from '../../src/core/table.js';
import { readParquetSql } from '../../src/load/parquet/layout.js';
import { readManifest, type Manifest } from '../../src/load/parquet/manifest.js';
import { addressesTable } from '../../src/transform/address-book.js';
import { streamByName } from '../../src/streams/index.js';
import { PROJECT_ROOT } from '../support/build.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult } from '../support/cli-result.js';
import { spawnCli } from '../support/cli.js';
import { sleep } from '../support/sleep.js';
import { readWarehouse, type Snapshot } from '../support/warehouse-snapshot.js';
import type { SinkKind, Workspace } from '../support/workspace.js';

/** The devnet and streams the fixture was synced from (see its README). */
export const SEED = 4242;
export const BLOCKS = 12;
export const STREAMS = ['transactions', 'actions', 'jetton_transfers', 'validator_events', 'blocks', 'jetton_burns', 'nft_transfers', 'validator_cycles', 'validator_elections'];
export const CHANGED = 'transactions, messages, actions, action_accounts, jetton_transfers, validator_events, _etl_runs';
/** How long after opening the file the DuckDB migration is killed: well inside its transaction over the inflated fixture (seconds). */
const DUCKDB_KILL_AFTER_MS = 300;
const tablesOf = (streams: readonly string[]): readonly AnyTable[] => [...streams.flatMap((name) => streamByName(name).tables), addressesTable];
export const tables = tablesOf(STREAMS);
const SCHEMA_V3_STREAMS = ['traces', 'jetton_masters', 'jetton_wallets', 'nft_items', 'nft_collections'];

/** The warehouses of earlier releases in test/fixtures (each folder's README says how it was made). */
export type Fixture = 'previous-release' | 'schema-v3';

interface FixtureSpec {
  readonly version: number;
  /** The streams it was synced with, and their tables. */
  readonly streams: readonly string[];
  readonly tables: readonly AnyTable[];
  /** The table the kill test inflates: one the migration writes again. */
  readonly bulk: string;
}

export const FIXTURES: Readonly<Record<Fixture, FixtureSpec>> = {
  'previous-release': { version: 1, streams: STREAMS, tables, bulk: 'transactions' },
  'schema-v3': { version: 3, streams: SCHEMA_V3_STREAMS, tables: tablesOf(SCHEMA_V3_STREAMS), bulk: 'traces' },
};

export async function copyFixture(kind: SinkKind, target: string, fixture: Fixture = 'previous-release'): Promise<void> {
  const folder = join(PROJECT_ROOT, 'test', 'fixtures', fixture);
  if (kind === 'duckdb') await writeFile(target, gunzipSync(await readFile(join(folder, 'warehouse.duckdb.gz'))));
  else await cp(join(folder, 'warehouse-parquet'), target, { recursive: true });
}

async function withDuckDB<T>(path: string, use: (query: (sql: string) => Promise<Record<string, unknown>[]>) => Promise<T>, readOnly = true): Promise<T> {
  const instance = await DuckDBInstance.create(path, readOnly ? { access_mode: 'READ_ONLY' } : {});
  const connection = await instance.connect();
  try {
    return await use(async (sql) => (await connection.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[]);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Every table's columns as `name type [NOT NULL]`, in order: the DuckDB catalog, or DuckDB's reading of the listed Parquet files. */
export async function layout(kind: SinkKind, path: string, only: readonly AnyTable[] = tables): Promise<Record<string, string[]>> {
  const names = only.map((table) => quotedString(table.name)).join(', ');
  if (kind === 'duckdb') {
    const rows = await withDuckDB(path, (query) =>
      query(`SELECT table_name, column_name, data_type, is_nullable FROM duckdb_columns() WHERE table_name IN (${names}) ORDER BY table_name, column_index`),
    );
    const byTable: Record<string, string[]> = {};
    for (const row of rows) (byTable[String(row.table_name)] ??= []).push(`${String(row.column_name)} ${String(row.data_type)}${row.is_nullable ? '' : ' NOT NULL'}`);
    return byTable;
  }
  const manifest = (await readManifest(path))!;
  return withDuckDB(':memory:', async (query) => {
    const byTable: Record<string, string[]> = {};
    for (const table of only) {
      const entry = manifest.tables[table.name]!;
      const files = entry.files.map((file) => quotedString(join(path, file.path))).join(', ');
      const described = await query(`DESCRIBE SELECT * FROM read_parquet([${files}], hive_partitioning = false)`);
      byTable[table.name] = [
        `manifest: ${entry.columns.map((column) => `${column.name} ${column.type}${column.nullable ? '' : ' NOT NULL'}`).join(', ')}`,
        ...described.map((row) => `${String(row.column_name)} ${String(row.column_type)}`),
      ];
    }
    return byTable;
  }, false);
}

export const read = (kind: SinkKind, path: string, only: readonly AnyTable[] = tables): Promise<Snapshot> => readWarehouse(kind, path, { tables: only, glob: false });

/**
 * Every row's `columns` as DuckDB prints them, by the table's key, read with plain SQL rather than
 * the columns' kinds: a warehouse of an earlier release reads as it is stored.
 */
export async function storedText(kind: SinkKind, path: string, table: AnyTable, columns: readonly string[]): Promise<Map<string, string[]>> {
  const manifest = kind === 'parquet' ? (await readManifest(path))! : undefined;
  const from = manifest === undefined ? quotedIdentifier(table.name) : readParquetSql(table, manifest.tables[table.name]!.files.map((file) => join(path, file.path)));
  const key = table.primaryKey.map((name) => quotedIdentifier(name)).join(" || ' ' || ");
  const select = `SELECT ${key} AS key, ${columns.map((name) => `CAST(${quotedIdentifier(name)} AS VARCHAR)`).join(', ')} FROM ${from}`;
  const rows = await (manifest === undefined ? withDuckDB(path, (query) => query(select)) : withDuckDB(':memory:', (query) => query(select), false));
  return new Map(rows.map((row) => [String(row.key), Object.values(row).slice(1).map(String)]));
}

/** The tables whose rows (duplicates included) differ between two warehouses of the same kind, compared in DuckDB. */
async function differingTables(kind: SinkKind, a: string, b: string, tables: readonly AnyTable[]): Promise<string[]> {
  const relations = async (path: string): Promise<Map<string, string>> => {
    if (kind === 'duckdb') return new Map(tables.map((table) => [table.name, `${path === a ? 'a' : 'b'}.${quotedIdentifier(table.name)}`]));
    const manifest = (await readManifest(path))!;
    return new Map(tables.map((table) => [table.name, readParquetSql(table, manifest.tables[table.name]!.files.map((file) => join(path, file.path)))]));
  };
  const [left, right] = [await relations(a), await relations(b)];
  return withDuckDB(':memory:', async (query) => {
    if (kind === 'duckdb') await query(`ATTACH ${quotedString(a)} AS a (READ_ONLY); ATTACH ${quotedString(b)} AS b (READ_ONLY)`);
    const differing: string[] = [];
    for (const table of tables) {
      const [x, y] = [left.get(table.name)!, right.get(table.name)!];
      const [row] = await query(`SELECT (SELECT count(*) FROM (FROM ${x} EXCEPT ALL FROM ${y})) + (SELECT count(*) FROM (FROM ${y} EXCEPT ALL FROM ${x})) AS n`);
      if (Number(row!.n) !== 0) differing.push(table.name);
    }
    return differing;
  }, false);
}

/**
 * The fixture made large enough to kill `chain-etl migrate` in the middle: DuckDB, transactions
 * copied under other hashes (the fixture of version 1 only); Parquet, the `bulk` table's file listed many times more.
 */
async function inflate(kind: SinkKind, path: string, bulk: string): Promise<void> {
  if (kind === 'duckdb') {
    await withDuckDB(
      path,
      async (query) => {
        await query("INSERT INTO transactions SELECT t.* REPLACE (t.hash || '-' || r.i AS hash) FROM transactions AS t, range(1, 500) AS r(i)");
        await query('CHECKPOINT');
      },
      false,
    );
    return;
  }
  const manifest = JSON.parse(await readFile(join(path, '_manifest.json'), 'utf8')) as Manifest;
  const entry = manifest.tables[bulk]!;
  const [file] = entry.files;
  for (let sequence = 1000; sequence < 1100; sequence += 1) {
    const copy = file!.path.replace(/-\d{4}\.parquet$/, `-${sequence}.parquet`);
    await copyFile(join(path, file!.path), join(path, copy));
    entry.files.push({ ...file!, path: copy });
  }
  await writeFile(join(path, '_manifest.json'), JSON.stringify(manifest, null, 1));
}

/**
 * True once the migration is under way and has published nothing: DuckDB, its process has held the
 * file open for a moment (its transaction shows nothing on disk before COMMIT); Parquet, it has
 * written a file of the next generation.
 */
async function midway(kind: SinkKind, path: string, pid: number, generation: number, bulk: string): Promise<boolean> {
  if (kind === 'duckdb') {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
    const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
    if (!links.includes(path)) return false;
    await sleep(DUCKDB_KILL_AFTER_MS);
    return true;
  }
  const folder = join(path, bulk, 'date=2026-01-01');
  const name = `part-${String(generation + 1).padStart(12, '0')}-`;
  return (await readdir(folder)).some((file) => file.startsWith(name) && file.endsWith('.parquet'));
}

async function storedVersion(kind: SinkKind, path: string): Promise<number> {
  if (kind === 'parquet') return (await readManifest(path))!.schemaVersion;
  return withDuckDB(path, async (query) => Number((await query("SELECT value FROM _etl_meta WHERE key = 'schema_version'"))[0]!.value));
}

/** kill -9 in the middle of `chain-etl migrate` of an inflated copy of the fixture: the old warehouse stays whole, and the next migrate gives what an uninterrupted one gives. */
export async function expectKilledMigrationRecovers(work: Workspace, kind: SinkKind, fixture: Fixture = 'previous-release'): Promise<void> {
  const { version, streams, tables, bulk } = FIXTURES[fixture];
  const original = work.sinkPath(kind, 'original');
  await copyFixture(kind, original, fixture);
  await inflate(kind, original, bulk);
  const [whole, killed] = [work.sinkPath(kind, 'whole'), work.sinkPath(kind, 'killed')];
  await cp(original, whole, { recursive: true });
  await cp(original, killed, { recursive: true });
  const pipelineOf = (path: string, name: string): Promise<string> => work.pipeline({ url: 'http://127.0.0.1:9', kind, sinkPath: path, streams, name });
  const wholePipeline = await pipelineOf(whole, 'whole.yaml');
  const killedPipeline = await pipelineOf(killed, 'killed.yaml');
  const generation = kind === 'parquet' ? (await readManifest(killed))!.generation : 0;

  const run = spawnCli(['migrate', killedPipeline], { cwd: work.dir });
  while (!(await midway(kind, killed, run.pid, generation, bulk))) {
    const ended = await Promise.race([run.done.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 5))]);
    if (ended) throw new Error(`the migration ended before it could be killed: make the inflated fixture larger (${run.stdout()})`);
  }
  run.child.kill('SIGKILL');
  expect((await run.done).signal).toBe('SIGKILL');
  expect(await storedVersion(kind, killed), 'killed before its commit').toBe(version);
  expect(await differingTables(kind, original, killed, tables), 'the killed warehouse holds what it held').toEqual([]);

  const resumed = await runCliInProcess(['migrate', killedPipeline]);
  expect(resumed.code, describeResult(resumed)).toBe(0);
  const uninterrupted = await runCliInProcess(['migrate', wholePipeline]);
  expect(uninterrupted.code, describeResult(uninterrupted)).toBe(0);
  expect(await differingTables(kind, whole, killed, tables)).toEqual([]);
  const [a, b] = [await read(kind, whole, []), await read(kind, killed, [])];
  expect(b.checkpoints).toEqual(a.checkpoints);
  expect(await layout(kind, killed, tables)).toEqual(await layout(kind, whole, tables));
  if (kind === 'parquet') {
    const manifest = (await readManifest(killed))!;
    const known = new Set([...Object.values(manifest.tables).flatMap((entry) => entry.files.map((file) => file.path)), ...manifest.retired.map((file) => file.path)]);
    expect(b.files!.onDisk.filter((file) => !known.has(file)), 'no file of the killed attempt is left').toEqual([]);
  }
}
