/** Everything a warehouse the CLI has closed holds, read back at once: data tables, checkpoints, runs, rejects, Parquet files. */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { etlRejects, etlRuns } from '../../src/core/bookkeeping.js';
import { decodeCheckpoint } from '../../src/core/checkpoint/record.js';
import type { Range } from '../../src/core/checkpoint/coverage.js';
import type { AnyTable, Row, RowOf } from '../../src/core/table.js';
import { readRows } from '../../src/load/engine/read.js';
import { emptyManifest, readManifest, type Manifest } from '../../src/load/parquet/manifest.js';
import { positionTables } from './position-tables.js';
import { openReader } from './warehouse-reader.js';
import { storedInconsistencies } from './stored-inconsistencies.js';
import type { SinkKind } from './workspace.js';

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
  /** Snapshot streams: the times of the snapshots begun and not completed (the checkpoint's `pending`), where there are any. */
  readonly pending: ReadonlyMap<string, readonly bigint[]>;
  readonly runs: readonly RunRow[];
  readonly rejects: number;
  readonly rejectRows: readonly RejectRow[];
  /** With `ReadOptions.verify`: what `chain-etl verify`'s checks find, a line each (`stored-inconsistencies.ts`). */
  readonly inconsistencies?: readonly string[];
}

export interface ReadOptions {
  /**
   * Tables missing from a DuckDB file (a pipeline without their stream, a run killed while creating
   * them) and a Parquet folder without a manifest read as empty. @default false
   */
  readonly partial?: boolean;
  /** Parquet: also read every table through the glob (`Snapshot.glob`). @default true */
  readonly glob?: boolean;
  /** The data tables to read (`Snapshot.tables` holds only these). @default the tables of every position stream */
  readonly tables?: readonly AnyTable[];
  /** Also run verify's checks over the warehouse (`Snapshot.inconsistencies`). @default false */
  readonly verify?: boolean;
}

/** Reads every data table, the checkpoints, runs and rejects of a warehouse the CLI has closed. */
export async function readWarehouse(kind: SinkKind, path: string, options: ReadOptions = {}): Promise<Snapshot> {
  const manifest = kind === 'parquet' ? ((await readManifest(path)) ?? (options.partial ? emptyManifest(0) : undefined)) : undefined;
  if (kind === 'parquet' && manifest === undefined) throw new Error(`no manifest in ${path}`);
  const wanted = options.tables ?? positionTables;
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
    const stored =
      kind === 'parquet'
        ? Object.entries(manifest!.checkpoints).map(([key, value]): [string, string] => [key, value.position])
        : (!options.partial || present.has('_etl_checkpoints') ? await reader.query('SELECT stream, position FROM _etl_checkpoints') : []).map((row): [string, string] => [String(row.stream), String(row.position)]);
    const verified = options.verify === true ? { inconsistencies: await storedInconsistencies(reader.connection, new Map(stored), present) } : {};
    if (kind === 'duckdb') return { kind, tables, ...checkpointsOf(stored), runs, rejects, rejectRows, ...verified };
    const records = checkpointsOf(stored);
    const onDisk = await dataFilesOnDisk(path);
    const glob = options.glob === false ? undefined : new Map<string, Row[]>();
    for (const table of glob === undefined ? [] : wanted) {
      const any = onDisk.some((file) => file.startsWith(`${table.name}/`) && file.endsWith('.parquet'));
      glob!.set(table.name, any ? await read(table, reader.relation(table.name)) : []);
    }
    const listed = Object.values(manifest!.tables).flatMap((entry) => entry.files.map((file) => file.path));
    return { kind, tables, glob, files: { onDisk, listed }, manifest, ...records, runs, rejects, rejectRows, ...verified };
  } finally {
    reader.close();
  }
}

/** Checkpoint rows (stream, text) as positions, covered ranges and pending snapshots by stream. */
export function checkpointsOf(rows: readonly (readonly [string, string])[]): Pick<Snapshot, 'checkpoints' | 'covered' | 'pending'> {
  const records = rows.map(([stream, text]) => [stream, decodeCheckpoint(text)] as const);
  return {
    checkpoints: new Map(records.map(([stream, record]) => [stream, record.position])),
    covered: new Map(records.map(([stream, record]) => [stream, record.covered.ranges])),
    pending: new Map(records.flatMap(([stream, record]) => (record.pending === undefined ? [] : [[stream, record.pending] as const]))),
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
