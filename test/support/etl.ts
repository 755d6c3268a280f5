/**
 * Integration-test support: a devnet in process, a pipeline file in a temp dir, the CLI as a child
 * process, the warehouse read back (DuckDB file read-only; Parquet by glob and through the
 * manifest's views), and the rows the devnet truth says the warehouse must hold.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, quotedString, type DuckDBConnection } from '@duckdb/node-api';
import { parseItems } from '../../src/api/wire.js';
import { etlRejects, etlRuns } from '../../src/core/bookkeeping.js';
import { decodeCheckpoint } from '../../src/core/checkpoint.js';
import type { Range } from '../../src/core/coverage.js';
import type { StreamDefinition } from '../../src/core/stream.js';
import type { AnyTable, RowOf } from '../../src/core/table.js';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import type { FaultProfile } from '../../src/devnet/http/faults.js';
import { RenderContext } from '../../src/devnet/render/context.js';
import type { TruthDataset } from '../../src/devnet/truth.js';
import { readRows } from '../../src/load/duckdb-read.js';
import { parquetGlob } from '../../src/load/parquet-layout.js';
import { emptyManifest, readManifest, type Manifest } from '../../src/load/parquet-manifest.js';
import { manifestViewsSql } from '../../src/load/parquet-views.js';
import type { Row } from '../../src/core/table.js';
import { dataTables, streams } from '../../src/streams/index.js';
import { BIN } from './build.js';

export const KEY = 'gw5jbsYPTAxmEbf2jSteGM4vHT38LW9L';
export const KEY_ENV = 'CHAIN_ETL_TEST_KEY';
/** The devnet's first masterchain block. */
export const FIRST_MC = 50_000_000;

export type SinkKind = 'duckdb' | 'parquet';

/** Truth dataset of each stream. */
const DATASET: Readonly<Record<string, TruthDataset>> = {
  transactions: 'transactions',
  actions: 'actions',
  jetton_transfers: 'jetton_transfers',
  validator_events: 'validator_events',
};

export function tableNamed(name: string): AnyTable {
  const table = dataTables.find((t) => t.name === name);
  if (table === undefined) throw new Error(`no table ${name}`);
  return table;
}

// ---------------------------------------------------------------------------------------------
// Devnet and workspace

export interface TestDevnetOptions {
  readonly seed: number;
  readonly blocks: number;
  /** @default 2 (the devnet's default) */
  readonly classifyDelay?: number;
  /** @default 0 */
  readonly latencyMs?: number;
  /** @default none */
  readonly faults?: FaultProfile;
}

/** A devnet that counts the requests it has answered, so tests can act at a point of a run. */
export interface TestDevnet extends Devnet {
  /** Requests answered so far. */
  served(): number;
  /** Resolves once `count` requests have been answered in all; fails after `timeoutMs`. */
  untilServed(count: number, timeoutMs?: number): Promise<void>;
}

/** A devnet on a free loopback port that knows `KEY` (mainnet, 1000 requests/s). */
export async function startTestDevnet(options: TestDevnetOptions): Promise<TestDevnet> {
  let served = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  const devnet = await startDevnet({
    seed: options.seed,
    blocks: options.blocks,
    keys: new Map([[KEY, 'mainnet']]),
    keyRps: 1000,
    classifyDelay: options.classifyDelay,
    latencyMs: options.latencyMs,
    faults: options.faults,
    onRequest: () => {
      served += 1;
      for (const waiter of waiters.filter((w) => w.count <= served)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    },
  });
  return Object.assign(devnet, {
    served: () => served,
    untilServed: (count: number, timeoutMs = 30_000) =>
      new Promise<void>((resolve, reject) => {
        if (served >= count) return resolve();
        const timer = setTimeout(() => reject(new Error(`the devnet answered ${served} requests, not ${count}, within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      }),
  });
}

export interface PipelineSpec {
  readonly url: string;
  readonly kind: SinkKind;
  /** Absolute sink path (DuckDB file or Parquet folder). */
  readonly sinkPath: string;
  /** @default { rps: 200, concurrency: 8 } */
  readonly rate?: { readonly rps: number; readonly concurrency: number };
  /** @default all four streams */
  readonly streams?: readonly string[];
  /** File name in the workspace. @default `<kind>.yaml` */
  readonly name?: string;
  /** Parquet `sink.retain_superseded_minutes`. @default 0: superseded files go at once, so the raw glob equals the truth */
  readonly retainSupersededMinutes?: number;
}

export interface Workspace {
  readonly dir: string;
  /** Where a sink of this kind goes in the workspace, e.g. `<dir>/<label>.duckdb` or `<dir>/<label>-parquet`. */
  sinkPath(kind: SinkKind, label?: string): string;
  /** Writes a pipeline file into the workspace; returns its path. */
  pipeline(spec: PipelineSpec): Promise<string>;
  remove(): Promise<void>;
}

export async function makeWorkspace(prefix: string): Promise<Workspace> {
  const dir = await mkdtemp(join(tmpdir(), `chain-etl-${prefix}-`));
  return {
    dir,
    sinkPath: (kind, label = 'warehouse') => join(dir, kind === 'duckdb' ? `${label}.duckdb` : `${label}-parquet`),
    pipeline: async (spec) => {
      const path = join(dir, spec.name ?? `${spec.kind}.yaml`);
      await writeFile(path, pipelineYaml(spec));
      return path;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

export function pipelineYaml(spec: PipelineSpec): string {
  const rate = spec.rate ?? { rps: 200, concurrency: 8 };
  const names = spec.streams ?? streams.map((s) => s.name);
  return [
    '# written by test/support/etl.ts',
    'network: mainnet',
    `base_url: ${spec.url}`,
    `api_key_env: ${KEY_ENV}`,
    `rate: { rps: ${rate.rps}, concurrency: ${rate.concurrency} }`,
    `start: { mc_seqno: ${FIRST_MC} }`,
    'lag: { mc_blocks: 0 }',
    `streams: [${names.join(', ')}]`,
    `sink: { kind: ${spec.kind}, path: ${JSON.stringify(spec.sinkPath)}${spec.kind === 'parquet' ? `, retain_superseded_minutes: ${spec.retainSupersededMinutes ?? 0}` : ''} }`,
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// The CLI

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

export interface CliRun {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly done: Promise<CliResult>;
  stdout(): string;
  stderr(): string;
}

export interface CliOptions {
  readonly cwd: string;
  /** Kills the child (SIGKILL) and fails after this long. @default 90 s */
  readonly timeoutMs?: number;
}

/** Starts `node bin/chain-etl.js <args>` with the test key in `CHAIN_ETL_TEST_KEY`. */
export function spawnCli(args: readonly string[], options: CliOptions): CliRun {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    env: { ...process.env, [KEY_ENV]: KEY, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<CliResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`chain-etl ${args.join(' ')} did not finish in ${options.timeoutMs ?? 90_000} ms\nstderr:\n${stderr.slice(-2000)}`));
    }, options.timeoutMs ?? 90_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Math.round(performance.now() - started) });
    });
  });
  if (child.pid === undefined) throw new Error('could not start the CLI');
  return { child, pid: child.pid, done, stdout: () => stdout, stderr: () => stderr };
}

/** Waits until the devnet has answered `count` requests in all; fails if the run ends first. */
export async function whileRunning(run: CliRun, devnet: TestDevnet, count: number): Promise<void> {
  let ended = false;
  const early = run.done.then((result) => {
    if (!ended) throw new Error(`the run ended before the devnet answered ${count} requests (${devnet.served()}): ${describeResult(result)}`);
  });
  try {
    await Promise.race([devnet.untilServed(count), early]);
  } finally {
    ended = true;
    early.catch(() => undefined);
  }
}

export function runCli(args: readonly string[], options: CliOptions): Promise<CliResult> {
  return spawnCli(args, options).done;
}

/** A CLI result for assertion messages. */
export function describeResult(result: CliResult): string {
  return `exit ${result.code} signal ${result.signal} after ${result.ms} ms\n--- stdout\n${result.stdout.slice(-3000)}\n--- stderr\n${result.stderr.slice(-3000)}`;
}

/** stderr without pino's JSON log lines: what the CLI printed for a human. */
export function messageLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('{"level"'));
}

// ---------------------------------------------------------------------------------------------
// Chain landmarks and ranges

export interface McBlock {
  readonly seqno: number;
  readonly startLt: bigint;
  readonly endLt: bigint;
  readonly utime: number;
}

/** Masterchain block `seqno` as the devnet serves it. */
export function mcBlock(devnet: Devnet, seqno: number): McBlock {
  const block = devnet.truth('blocks').find((b) => b.workchain === -1 && b.seqno === seqno);
  if (block === undefined) throw new Error(`the devnet has no masterchain block ${seqno}`);
  return { seqno, startLt: BigInt(String(block.start_lt)), endLt: BigInt(String(block.end_lt)), utime: Number(block.gen_utime) };
}

/** The last indexed masterchain block: a sync with lag 0 ends there. */
export function tipBlock(devnet: Devnet): McBlock {
  return mcBlock(devnet, devnet.view.indexedSeqno);
}

/** Inclusive range of positions on a stream's axis. */
export interface Bounds {
  readonly from: bigint;
  readonly to: bigint;
}

/** Where a chain point lies on a stream's axis (as the planner computes it from a block). */
export function positionAt(block: McBlock, stream: StreamDefinition): bigint {
  return stream.axis === 'lt' ? block.startLt : BigInt(block.utime);
}

/** The last position a run ending at `tip` covers on a stream's axis (one second is held back on utime). */
export function tipPositionOf(tip: McBlock, stream: StreamDefinition): bigint {
  return stream.axis === 'lt' ? tip.endLt : BigInt(tip.utime - 1);
}

// ---------------------------------------------------------------------------------------------
// Expected rows

interface TruthEntry {
  /** The item as the devnet renders it. */
  readonly raw: unknown;
  readonly position: bigint;
  readonly rows: ReadonlyMap<string, readonly Row[]>;
}

/** Per devnet: the chain length the index was built at, and each stream's truth items as (position, rows). */
const truthIndexes = new WeakMap<Devnet, { steps: number; streams: Map<string, TruthEntry[]> }>();

/**
 * Each truth item of a stream with its position and the rows `toRows` makes of it (as
 * test/streams/rows.ts does); built once per chain length of the devnet.
 */
function truthEntries(devnet: Devnet, stream: StreamDefinition): TruthEntry[] {
  const steps = devnet.generator.chain.steps;
  let index = truthIndexes.get(devnet);
  if (index === undefined || index.steps !== steps) truthIndexes.set(devnet, (index = { steps, streams: new Map() }));
  let entries = index.streams.get(stream.name);
  if (entries === undefined) {
    const raw = devnet.truth(DATASET[stream.name]!);
    const { ok, rejects } = parseItems(stream.item, raw);
    if (rejects.length > 0) throw new Error(`${stream.name}: ${rejects.length} truth items do not parse: ${rejects[0]!.reason}`);
    entries = ok.map((item, index) => ({ raw: raw[index], position: stream.position(item), rows: stream.toRows(item) }));
    index.streams.set(stream.name, entries);
  }
  return entries;
}

/** Bounds of what a sync stored: from the devnet's first block up to each stream's checkpoint (empty without one). */
export function syncedBounds(devnet: Devnet, snapshot: Pick<Snapshot, 'checkpoints'>): (stream: StreamDefinition) => Bounds {
  return (stream) => {
    const from = positionAt(mcBlock(devnet, FIRST_MC), stream);
    return { from, to: snapshot.checkpoints.get(stream.name) ?? from - 1n };
  };
}

/** Truth items of a stream in `bounds`, as the devnet renders them. */
export function truthItems(devnet: Devnet, stream: StreamDefinition, bounds: Bounds): unknown[] {
  return truthEntries(devnet, stream)
    .filter((entry) => entry.position >= bounds.from && entry.position <= bounds.to)
    .map((entry) => entry.raw);
}

/**
 * Truth items of a stream whose position lies in `bounds` (and that `keep` keeps), through the
 * stream's `toRows`: rows per table.
 */
export function expectedStreamRows(devnet: Devnet, stream: StreamDefinition, bounds: Bounds, keep: (raw: unknown) => boolean = () => true): Map<string, Row[]> {
  const rows = new Map<string, Row[]>(stream.tables.map((table) => [table.name, []]));
  for (const entry of truthEntries(devnet, stream)) {
    if (entry.position < bounds.from || entry.position > bounds.to || !keep(entry.raw)) continue;
    for (const [name, tableRows] of entry.rows) {
      const list = rows.get(name);
      if (list === undefined) throw new Error(`toRows returned rows for ${name}, which is not a table of ${stream.name}`);
      for (const row of tableRows) list.push(row);
    }
  }
  return rows;
}

/** Every data table (but addresses) of the four streams, each stream restricted to its bounds. */
export function expectedWarehouse(devnet: Devnet, boundsOf: (stream: StreamDefinition) => Bounds, keep?: (raw: unknown) => boolean): Map<string, Row[]> {
  const all = new Map<string, Row[]>();
  for (const stream of streams) for (const [table, rows] of expectedStreamRows(devnet, stream, boundsOf(stream), keep)) all.set(table, rows);
  return all;
}

/** Problems of `addresses` rows against the devnet's address book (user-friendly form, interfaces, no domain). */
export function addressProblems(devnet: Devnet, rows: readonly Row[]): string[] {
  const chain = devnet.generator.chain;
  const render = new RenderContext(chain, 'mainnet');
  const problems: string[] = [];
  for (const row of rows) {
    const address = String(row.address);
    const index = chain.population.byRaw.get(address);
    if (index === undefined) {
      problems.push(`${address}: not an account of the devnet`);
      continue;
    }
    const friendly = render.userFriendly(index);
    if (row.user_friendly !== friendly) problems.push(`${address}: user_friendly ${String(row.user_friendly)}, the devnet renders ${friendly}`);
    const interfaces = chain.population.accountAt(index).interfaces;
    if (canonical(row.interfaces) !== canonical(interfaces)) problems.push(`${address}: interfaces ${canonical(row.interfaces)}, expected ${canonical(interfaces)}`);
    if (row.domain !== null) problems.push(`${address}: domain ${String(row.domain)}, expected null`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Comparing rows

/** JSON text of a value, bigints as `"<digits>n"`. Hand-written for the cell types (row diffs call it per cell). */
export function canonical(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'bigint':
      return `"${value}n"`;
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'undefined':
      return 'undefined';
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map((item: unknown) => (item === undefined || typeof item === 'function' ? 'null' : canonical(item))).join(',')}]`;
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? 'undefined';
}

export function keyOf(table: AnyTable, row: Row): string {
  return canonical(table.primaryKey.map((column) => row[column]));
}

function rowText(table: AnyTable, row: Row): string {
  return canonical(table.columnNames.map((column) => row[column]));
}

export interface RowDiff {
  readonly table: string;
  readonly expected: number;
  readonly actual: number;
  readonly missing: number;
  readonly extra: number;
  readonly changed: number;
  /** Primary keys held by more than one actual row. */
  readonly duplicates: number;
  readonly examples: readonly string[];
}

/** Compares rows by primary key, every column; counts missing, extra, changed and duplicated keys. */
export function diffRows(table: AnyTable, expected: readonly Row[], actual: readonly Row[]): RowDiff {
  const want = new Map<string, Row>();
  for (const row of expected) want.set(keyOf(table, row), row);
  const have = new Map<string, Row>();
  let duplicates = 0;
  const examples: string[] = [];
  const example = (line: string): void => {
    if (examples.length < 6) examples.push(line);
  };
  for (const row of actual) {
    const key = keyOf(table, row);
    if (have.has(key)) {
      duplicates += 1;
      example(`duplicate ${key}`);
    }
    have.set(key, row);
  }
  let missing = 0;
  let changed = 0;
  for (const [key, row] of want) {
    const found = have.get(key);
    if (found === undefined) {
      missing += 1;
      example(`missing ${key}`);
      continue;
    }
    if (rowText(table, row) === rowText(table, found)) continue;
    const columns = table.columnNames.filter((column) => canonical(row[column]) !== canonical(found[column]));
    if (columns.length > 0) {
      changed += 1;
      example(`changed ${key}: ${columns.slice(0, 3).map((c) => `${c} ${canonical(found[c]).slice(0, 80)} ≠ expected ${canonical(row[c]).slice(0, 80)}`).join('; ')}`);
    }
  }
  let extra = 0;
  for (const key of have.keys()) {
    if (!want.has(key)) {
      extra += 1;
      example(`extra ${key}`);
    }
  }
  return { table: table.name, expected: want.size, actual: actual.length, missing, extra, changed, duplicates, examples };
}

/** The counts of a diff that must all be zero, for `toEqual`. */
export function mismatch(diff: RowDiff): { missing: number; extra: number; changed: number; duplicates: number } {
  return { missing: diff.missing, extra: diff.extra, changed: diff.changed, duplicates: diff.duplicates };
}

export function describeDiff(diff: RowDiff): string {
  return `${diff.table}: expected ${diff.expected} rows, found ${diff.actual}; missing ${diff.missing}, extra ${diff.extra}, changed ${diff.changed}, duplicate keys ${diff.duplicates}\n  ${diff.examples.join('\n  ')}`;
}

export const NO_MISMATCH = { missing: 0, extra: 0, changed: 0, duplicates: 0 } as const;

// ---------------------------------------------------------------------------------------------
// Reading a warehouse back

export type RunRow = RowOf<typeof etlRuns>;
export type RejectRow = RowOf<typeof etlRejects>;

export interface ParquetFiles {
  /** Data files on disk under the table folders (`.parquet` and `.tmp`), relative to the root. */
  readonly onDisk: readonly string[];
  /** Files the manifest lists, relative to the root. */
  readonly listed: readonly string[];
}

export interface Snapshot {
  readonly kind: SinkKind;
  /** Rows of every data table (DuckDB: the tables; Parquet: the manifest views). */
  readonly tables: ReadonlyMap<string, Row[]>;
  /** Parquet only: rows of every data table read by `read_parquet('<root>/<table>/**\/*.parquet', hive_partitioning=true)`. */
  readonly glob?: ReadonlyMap<string, Row[]>;
  readonly files?: ParquetFiles;
  readonly manifest?: Manifest;
  /** Checkpoint positions by stream: a sync continues after it. */
  readonly checkpoints: ReadonlyMap<string, bigint>;
  /** The ranges each stream's checkpoint says the warehouse holds completely. */
  readonly covered: ReadonlyMap<string, readonly Range[]>;
  readonly runs: readonly RunRow[];
  readonly rejects: number;
  readonly rejectRows: readonly RejectRow[];
}

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

async function openReader(kind: SinkKind, path: string, manifest: Manifest | undefined, tables: readonly AnyTable[] = dataTables): Promise<WarehouseReader> {
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

export interface ReadOptions {
  /**
   * Tables missing from a DuckDB file (a pipeline without their stream, a run killed while creating
   * them) and a Parquet folder without a manifest read as empty. @default false
   */
  readonly partial?: boolean;
  /** Parquet: also read every table through the glob (`Snapshot.glob`). @default true */
  readonly glob?: boolean;
  /** The data tables to read (`Snapshot.tables` holds only these). @default every data table */
  readonly tables?: readonly AnyTable[];
}

/** Reads every data table, the checkpoints, runs and rejects of a warehouse the CLI has closed. */
export async function readWarehouse(kind: SinkKind, path: string, options: ReadOptions = {}): Promise<Snapshot> {
  const manifest = kind === 'parquet' ? ((await readManifest(path)) ?? (options.partial ? emptyManifest(0) : undefined)) : undefined;
  if (kind === 'parquet' && manifest === undefined) throw new Error(`no manifest in ${path}`);
  const wanted = options.tables ?? dataTables;
  const reader = await openReader(kind, path, manifest, wanted);
  try {
    const present = new Set((await reader.query('SELECT table_name FROM information_schema.tables')).map((row) => String(row.table_name)));
    const read = async (table: AnyTable, from?: string): Promise<Row[]> =>
      options.partial && from === undefined && !present.has(table.name) ? [] : readRows(reader.connection, table, from);
    const tables = new Map<string, Row[]>();
    for (const table of wanted) tables.set(table.name, await read(table));
    const runs = (await read(etlRuns)) as RunRow[];
    const rejectRows = (await read(etlRejects)) as RejectRow[];
    const rejects = rejectRows.length;
    if (kind === 'duckdb') {
      const rows = !options.partial || present.has('_etl_checkpoints') ? await reader.query('SELECT stream, position FROM _etl_checkpoints') : [];
      return { kind, tables, ...checkpointsOf(rows.map((row) => [String(row.stream), String(row.position)])), runs, rejects, rejectRows };
    }
    const { checkpoints, covered } = checkpointsOf(Object.entries(manifest!.checkpoints).map(([key, value]) => [key, value.position]));
    const onDisk = await dataFilesOnDisk(path);
    const glob = options.glob === false ? undefined : new Map<string, Row[]>();
    for (const table of glob === undefined ? [] : wanted) {
      const any = onDisk.some((file) => file.startsWith(`${table.name}/`) && file.endsWith('.parquet'));
      glob!.set(table.name, any ? await read(table, reader.relation(table.name)) : []);
    }
    const listed = Object.values(manifest!.tables).flatMap((entry) => entry.files.map((file) => file.path));
    return { kind, tables, glob, files: { onDisk, listed }, manifest, checkpoints, covered, runs, rejects, rejectRows };
  } finally {
    reader.close();
  }
}

/** Checkpoint rows (stream, text) as positions and covered ranges by stream. */
export function checkpointsOf(rows: readonly (readonly [string, string])[]): Pick<Snapshot, 'checkpoints' | 'covered'> {
  const records = rows.map(([stream, text]) => [stream, decodeCheckpoint(text)] as const);
  return {
    checkpoints: new Map(records.map(([stream, record]) => [stream, record.position])),
    covered: new Map(records.map(([stream, record]) => [stream, record.covered.ranges])),
  };
}

/** `.parquet` and `.tmp` files under the warehouse's table folders, relative to the root, sorted. */
export async function dataFilesOnDisk(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await readdir(join(root, relative), { withFileTypes: true })) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) await walk(path);
      else if (relative !== '' && /\.(parquet|tmp)$/.test(entry.name)) found.push(path);
    }
  };
  if (existsSync(root)) await walk('');
  return found.sort();
}

/** Every data table of a snapshot compared with the expected rows (addresses excluded). */
export function diffWarehouse(expected: ReadonlyMap<string, Row[]>, tables: ReadonlyMap<string, Row[]>): RowDiff[] {
  return [...expected].map(([name, rows]) => diffRows(tableNamed(name), rows, tables.get(name) ?? []));
}

/** Row diffs of every data table between two snapshots' tables (addresses included). */
export function diffSnapshots(before: ReadonlyMap<string, Row[]>, after: ReadonlyMap<string, Row[]>): RowDiff[] {
  return dataTables.map((table) => diffRows(table, before.get(table.name) ?? [], after.get(table.name) ?? []));
}

// ---------------------------------------------------------------------------------------------
// Determinism helpers

/** mulberry32: a small seeded PRNG in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
