/**
 * A warehouse of the previous release (test/fixtures/previous-release: schema version 1, synced from
 * the devnet below) and what the migration tests compare: each table's layout and rows, read in
 * DuckDB; and kill -9 in the middle of a migration (run by test/chaos/migrate-kill.chaos.ts).
 */
import { copyFile, cp, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DuckDBInstance, quotedIdentifier, quotedString } from '@duckdb/node-api';
import { expect } from 'vitest';
import type { AnyTable } from '../../src/core/table.js';
import { readParquetSql } from '../../src/load/parquet-layout.js';
import { readManifest, type Manifest } from '../../src/load/parquet-manifest.js';
import { addressesTable } from '../../src/streams/addresses.js';
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
const FIXTURE = join(PROJECT_ROOT, 'test', 'fixtures', 'previous-release');
export const CHANGED = 'transactions, messages, actions, action_accounts, jetton_transfers, validator_events, _etl_runs';
/** How long after opening the file the DuckDB migration is killed: well inside its transaction over the inflated fixture (seconds). */
const DUCKDB_KILL_AFTER_MS = 300;
export const tables: readonly AnyTable[] = [...STREAMS.flatMap((name) => streamByName(name).tables), addressesTable];

export async function copyFixture(kind: SinkKind, target: string): Promise<void> {
  if (kind === 'duckdb') await writeFile(target, gunzipSync(await readFile(join(FIXTURE, 'warehouse.duckdb.gz'))));
  else await cp(join(FIXTURE, 'warehouse-parquet'), target, { recursive: true });
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
export async function layout(kind: SinkKind, path: string): Promise<Record<string, string[]>> {
  const names = tables.map((table) => quotedString(table.name)).join(', ');
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
    for (const table of tables) {
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

/** The tables whose rows (duplicates included) differ between two warehouses of the same kind, compared in DuckDB. */
async function differingTables(kind: SinkKind, a: string, b: string): Promise<string[]> {
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
 * copied under other hashes; Parquet, the transactions file listed many times more.
 */
async function inflate(kind: SinkKind, path: string): Promise<void> {
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
  const entry = manifest.tables.transactions!;
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
async function midway(kind: SinkKind, path: string, pid: number, generation: number): Promise<boolean> {
  if (kind === 'duckdb') {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
    const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
    if (!links.includes(path)) return false;
    await sleep(DUCKDB_KILL_AFTER_MS);
    return true;
  }
  const folder = join(path, 'transactions', 'date=2026-01-01');
  const name = `part-${String(generation + 1).padStart(12, '0')}-`;
  return (await readdir(folder)).some((file) => file.startsWith(name) && file.endsWith('.parquet'));
}

async function storedVersion(kind: SinkKind, path: string): Promise<number> {
  if (kind === 'parquet') return (await readManifest(path))!.schemaVersion;
  return withDuckDB(path, async (query) => Number((await query("SELECT value FROM _etl_meta WHERE key = 'schema_version'"))[0]!.value));
}

/** kill -9 in the middle of `chain-etl migrate` of an inflated copy of the fixture: the old warehouse stays whole, and the next migrate gives what an uninterrupted one gives. */
export async function expectKilledMigrationRecovers(work: Workspace, kind: SinkKind): Promise<void> {
  const original = work.sinkPath(kind, 'original');
  await copyFixture(kind, original);
  await inflate(kind, original);
  const [whole, killed] = [work.sinkPath(kind, 'whole'), work.sinkPath(kind, 'killed')];
  await cp(original, whole, { recursive: true });
  await cp(original, killed, { recursive: true });
  const pipelineOf = (path: string, name: string): Promise<string> => work.pipeline({ url: 'http://127.0.0.1:9', kind, sinkPath: path, streams: STREAMS, name });
  const wholePipeline = await pipelineOf(whole, 'whole.yaml');
  const killedPipeline = await pipelineOf(killed, 'killed.yaml');
  const generation = kind === 'parquet' ? (await readManifest(killed))!.generation : 0;

  const run = spawnCli(['migrate', killedPipeline], { cwd: work.dir });
  while (!(await midway(kind, killed, run.pid, generation))) {
    const ended = await Promise.race([run.done.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 5))]);
    if (ended) throw new Error(`the migration ended before it could be killed: make the inflated fixture larger (${run.stdout()})`);
  }
  run.child.kill('SIGKILL');
  expect((await run.done).signal).toBe('SIGKILL');
  expect(await storedVersion(kind, killed), 'killed before its commit').toBe(1);

  const resumed = await runCliInProcess(['migrate', killedPipeline]);
  expect(resumed.code, describeResult(resumed)).toBe(0);
  const uninterrupted = await runCliInProcess(['migrate', wholePipeline]);
  expect(uninterrupted.code, describeResult(uninterrupted)).toBe(0);
  expect(await differingTables(kind, whole, killed)).toEqual([]);
  const [a, b] = [await read(kind, whole, []), await read(kind, killed, [])];
  expect(b.checkpoints).toEqual(a.checkpoints);
  expect(await layout(kind, killed)).toEqual(await layout(kind, whole));
  if (kind === 'parquet') {
    const manifest = (await readManifest(killed))!;
    const known = new Set([...Object.values(manifest.tables).flatMap((entry) => entry.files.map((file) => file.path)), ...manifest.retired.map((file) => file.path)]);
    expect(b.files!.onDisk.filter((file) => !known.has(file)), 'no file of the killed attempt is left').toEqual([]);
  }
}
