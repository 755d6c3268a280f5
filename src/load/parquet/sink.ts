import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { quotedIdentifier, quotedString } from '../../core/sql-quote.js';
import { mkdir, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import { dirname, join, resolve } from 'node:path';
import { SCHEMA_VERSION, etlCheckpoints, etlRejects, etlRuns } from '../../core/bookkeeping.js';
import { text } from '../../core/column-kinds.js';
import { createTableSql, identifierList } from '../../core/ddl.js';
import { FatalError } from '../../core/errors.js';
import { RowValueError, SchemaDriftError, SchemaVersionError } from '../../core/schema-errors.js';
import type { AnyTable } from '../../core/table.js';
import { isUtcDay } from '../../core/utc-day.js';
import { NO_DEFINITIONS, type AnalystDefinitions } from '../../core/warehouse-views.js';
import { planCommit, replacedRows, tableChange, type ReplaceSet, type TableChange } from '../commit-plan.js';
import { columnDifferences } from '../column-diff.js';
import { appendRows, appendValues } from '../engine/append.js';
import { SINK_THREADS } from '../engine/open.js';
import { readRows } from '../engine/read.js';
import { fsyncPath } from '../durable-fs.js';
import { removeLeftovers } from './cleanup.js';
import { damagedFiles, damagedFilesError, readManifestBesideData, type DamagedFile } from './integrity.js';
import { lockWarehouse } from './lock.js';
import { setAsideDamaged, type Refetch } from './set-aside.js';
import { compactionPlan, mergedFile, replaceFiles, type CompactionScope, type FileMerge } from './compaction.js';
import { TEMP_SUFFIX, castsOnWrite, dataFilePath, readParquetSql } from './layout.js';
import { writeDataFile } from './file.js';
import {
  PARQUET_TYPES,
  emptyManifest,
  emptyTableEntry,
  manifestColumns,
  readManifest,
  writeManifest,
  type Manifest,
  type ManifestFile,
  type RetiredFile,
  type SetAsideFile,
} from './manifest.js';
import { manifestViewsSql, writeViewsFile } from './views.js';
import { keptRowsSql, sweepChange } from '../moved-keys.js';
import { asClusterRange, rangesAfter, withRanges, type RangeKind } from '../written-ranges.js';
import type { ClusterRange } from '../cluster-range.js';
import { createDuckDBInstance } from '../../core/duckdb-api.js';
import type { ReplacedRows, RunRecord, Sink, StreamCommit } from '../sink.js';

/** Where and how the Parquet sink writes. */
export interface ParquetSinkOptions {
  /** Root folder of the warehouse; created when missing. */
  readonly path: string;
  /** Clock in unix seconds, for checkpoint and reject times. @default the system clock */
  readonly now?: () => number;
  /** Schema version this build writes; a warehouse with another one is refused. @default SCHEMA_VERSION */
  readonly schemaVersion?: number;
  /** Rows per Parquet row group. @default 122880 */
  readonly rowGroupSize?: number;
  /** DuckDB configuration of the working engine, e.g. `{ memory_limit: '1GB' }`, over `threads` SINK_THREADS. @default {} */
  readonly config?: Readonly<Record<string, string>>;
  /** Minutes a superseded file stays on disk for readers of an older manifest (pipelines: `sink.retain_superseded_minutes`). @default 0 */
  readonly retainSupersededMinutes?: number;
  /** Open a warehouse with damaged files, for `setAsideDamaged`; otherwise `open` refuses it. @default false */
  readonly repair?: boolean;
  /** Where warnings go (Parquet files in the table folders that chain-etl did not write). @default none */
  readonly logger?: Logger;
  /** The macros and views `views.sql` defines beside the tables' (rewritten on open and by every commit). @default none */
  readonly definitions?: AnalystDefinitions;
}

/** A file the manifest lists, with its absolute path. */
export interface ParquetFile extends ManifestFile {
  readonly absolutePath: string;
}

interface DayGroup {
  readonly date: string | undefined;
  min: bigint | undefined;
  max: bigint | undefined;
}

/** A table change staged in DuckDB temp tables: its rows there, its files still to write. */
interface StagedChange {
  readonly table: AnyTable;
  readonly rowCount: number;
  readonly groups: ReadonlyMap<string, DayGroup>;
  readonly replace: readonly ReplaceSet[];
  /** Stored rows of the staged keys may lie in any file (a sweep of moved keys). */
  readonly keysAnywhere: boolean;
}

const systemClock = (): number => Math.floor(Date.now() / 1000);
const DAY_COLUMN = '__date';
const nullableText = text.nullable();
const stageName = (table: string): string => `__stage_${table}`;
const replaceName = (table: string, column: string): string => `__replace_${table}__${column}`;
const temp = (name: string): string => `temp.main.${quotedIdentifier(name)}`;

/**
 * Writes Hive-partitioned Parquet files plus `_manifest.json`, the only truth about which files
 * exist and where each stream stopped. A commit stages its rows in DuckDB temp tables, writes new
 * files (temp name, fsync, rename), rewrites the listed files that hold keys or replaced values it
 * supersedes, then swaps the manifest atomically. Superseded files are listed as retired and
 * deleted by a later commit once `retainSupersededMinutes` have passed, so a reader holding an older
 * manifest's file list can finish. A crash before the swap leaves files of the next generation,
 * which `open` deletes; it touches no file it cannot prove it wrote. `open` refuses a missing or
 * damaged manifest and damaged listed files (exit 2). See docs/design.md §4.
 */
export class ParquetSink implements Sink {
  readonly #options: ParquetSinkOptions;
  readonly #root: string;
  readonly #tables = new Map<string, AnyTable>();
  #manifest: Manifest | undefined;
  #damaged: DamagedFile[] = [];
  #instance: DuckDBInstance | undefined;
  #connection: DuckDBConnection | undefined;

  constructor(options: ParquetSinkOptions) {
    this.#options = options;
    this.#root = resolve(options.path);
  }

  async open(tables: readonly AnyTable[]): Promise<void> {
    if (this.#connection !== undefined) throw new FatalError(`Parquet sink ${this.#root} is already open`);
    for (const table of [etlCheckpoints, etlRuns, etlRejects, ...tables]) {
      if (this.#tables.has(table.name)) throw new FatalError(`Table ${table.name} is opened twice`);
      this.#tables.set(table.name, table);
    }
    await mkdir(this.#root, { recursive: true }).catch((err: unknown) => {
      // Node words it `ENOTDIR: not a directory, mkdir '<path>'`; the path is already named.
      const reason = (err instanceof Error ? err.message : String(err)).split(', ')[0];
      throw new FatalError(
        `Cannot create the Parquet folder ${this.#root}: ${reason}: ` +
          'point sink.path (or --out) at a folder chain-etl may create or write',
        { cause: err },
      );
    });
    this.#instance = await lockWarehouse(this.#root, { threads: SINK_THREADS, ...this.#options.config });
    try {
      this.#connection = await this.#instance.connect();
      const version = this.#options.schemaVersion ?? SCHEMA_VERSION;
      const stored = await readManifestBesideData(this.#root);
      if (stored !== undefined && stored.schemaVersion !== version) {
        throw new SchemaVersionError(
          `Warehouse ${this.#root} has schema version ${stored.schemaVersion}, this chain-etl writes version ${version}; ` +
            'use a new folder or a chain-etl release of that version',
        );
      }
      const manifest = stored ?? emptyManifest(version);
      this.#damaged = await damagedFiles(this.#root, manifest);
      if (this.#damaged.length > 0 && this.#options.repair !== true) throw damagedFilesError(this.#root, this.#damaged);
      const tablesEntry = { ...manifest.tables };
      for (const table of this.#fileTables()) {
        const known = tablesEntry[table.name];
        if (known === undefined) tablesEntry[table.name] = emptyTableEntry(table);
        else this.#checkDrift(table, known.columns);
      }
      const { foreign } = await removeLeftovers(this.#root, manifest, Object.keys(tablesEntry));
      if (foreign.length > 0) {
        this.#options.logger?.warn(
          { files: foreign.slice(0, 10), count: foreign.length },
          'Parquet files chain-etl did not write are in the table folders; they are left alone: the manifest views skip them, a raw glob reads them',
        );
      }
      this.#manifest = { ...manifest, tables: tablesEntry };
      if (stored === undefined || Object.keys(tablesEntry).length !== Object.keys(manifest.tables).length) {
        await writeManifest(this.#root, this.#manifest);
      }
      if (this.#damaged.length === 0) await this.#upgradeParquetTypes();
      await this.#writeViewsFile();
      for (const table of this.#fileTables()) {
        await this.#connection.run(
          createTableSql(table, {
            name: stageName(table.name),
            temporary: true,
            constraints: false,
            extraColumns: [[DAY_COLUMN, 'VARCHAR']],
          }),
        );
      }
    } catch (err) {
      await this.close();
      throw err;
    }
  }

  async readCheckpoint(stream: string): Promise<string | undefined> {
    return this.#current().checkpoints[stream]?.position;
  }

  async readCheckpoints(): Promise<ReadonlyMap<string, string>> {
    return new Map(Object.entries(this.#current().checkpoints).map(([stream, { position }]) => [stream, position]));
  }

  async distinctText(table: string, column: string): Promise<string[]> {
    const opened = this.#tables.get(table);
    if (opened === undefined) throw new FatalError(`Table ${table} is not open`);
    const files = this.listFiles(table).map((file) => file.absolutePath);
    if (files.length === 0) return [];
    const name = quotedIdentifier(column);
    const reader = await this.#db().runAndReadAll(`SELECT DISTINCT ${name} FROM ${readParquetSql(opened, files)} WHERE ${name} IS NOT NULL`);
    return reader.getRows().map(([value]) => String(value));
  }

  async commitAll(commits: readonly StreamCommit[]): Promise<ReplacedRows> {
    const changes = planCommit(this.#tables, commits, this.#now());
    return replacedRows(changes, await this.#write(changes));
  }

  async sweepMovedKeys(): Promise<ReplacedRows> {
    const dropped = new Map<string, number>();
    for (const [name, range] of this.#rangesOf('unswept')) {
      const table = this.#tables.get(name)!;
      const files = this.#current().tables[name]!.files;
      const kept = files.length === 0 ? [] : await readRows(this.#db(), table, keptRowsSql(table, this.#scan(files, { filename: false }), range));
      const [deleted] = await this.#write([sweepChange(table, kept)]);
      dropped.set(name, deleted! - kept.length);
    }
    return dropped;
  }

  uncheckedRanges(): ReadonlyMap<string, ClusterRange> {
    return this.#rangesOf('unchecked');
  }

  async markChecked(): Promise<void> {
    const checked = [...this.uncheckedRanges().keys()];
    if (checked.length === 0) return;
    const manifest = this.#current();
    const tables = { ...manifest.tables };
    for (const name of checked) {
      const { unchecked: _passed, ...entry } = tables[name]!;
      tables[name] = entry;
    }
    const now = this.#now();
    await this.#swap({ ...manifest, generation: manifest.generation + 1, tables }, [], [], now);
    await this.#deleteExpired(manifest, [], now);
  }

  async readCommitted<T>(read: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const instance = await createDuckDBInstance(':memory:', { threads: SINK_THREADS, ...this.#options.config });
    const connection = await instance.connect();
    try {
      await connection.run(this.viewsSql());
      return await read(connection);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  }

  /** The file tables' recorded ranges of `kind`. */
  #rangesOf(kind: RangeKind): Map<string, ClusterRange> {
    const found = this.#fileTables().flatMap((table) => {
      const stored = this.#current().tables[table.name]?.[kind];
      return stored === undefined ? [] : [[table.name, asClusterRange(table, stored)] as const];
    });
    return new Map(found);
  }

  async recordRun(run: RunRecord): Promise<void> {
    await this.#write([tableChange(etlRuns, [run])]);
  }

  async close(): Promise<void> {
    this.#connection?.closeSync();
    this.#instance?.closeSync();
    this.#connection = undefined;
    this.#instance = undefined;
    this.#manifest = undefined;
    this.#tables.clear();
  }

  /** The files the manifest lists for `table`, in commit order. */
  listFiles(table: string): ParquetFile[] {
    const files = this.#current().tables[table]?.files ?? [];
    return files.map((file) => ({ ...file, absolutePath: join(this.#root, file.path) }));
  }

  /** The listed files found damaged on open (only a sink opened with `repair` gets this far with any). */
  damagedFiles(): readonly DamagedFile[] {
    return this.#damaged;
  }

  /** Every file a repair has moved to `_damaged/`, with the range it held. */
  setAsideFiles(): readonly SetAsideFile[] {
    return this.#current().setAside;
  }

  /**
   * Moves the damaged files into `_damaged/` (never deletes them) and commits a manifest that no
   * longer lists them, with the given checkpoints and the ranges each file left to fetch again.
   */
  async setAsideDamaged(checkpoints: ReadonlyMap<string, string>, refetch: ReadonlyMap<string, Refetch> = new Map()): Promise<void> {
    const now = this.#now();
    await this.#publish(await setAsideDamaged(this.#root, this.#current(), this.#damaged, { checkpoints, refetch, now }));
    this.#damaged = [];
  }

  /** SQL creating views over exactly the listed files of `tables` (see `manifestViewsSql`). @default every table but the checkpoints */
  viewsSql(tables: readonly AnyTable[] = this.#fileTables()): string {
    return manifestViewsSql(this.#root, this.#current(), tables);
  }

  #fileTables(): AnyTable[] {
    return [...this.#tables.values()].filter((table) => table !== etlCheckpoints);
  }

  #current(): Manifest {
    if (this.#manifest === undefined) throw new FatalError(`Parquet sink ${this.#root} is not open`);
    return this.#manifest;
  }

  #db(): DuckDBConnection {
    if (this.#connection === undefined) throw new FatalError(`Parquet sink ${this.#root} is not open`);
    return this.#connection;
  }

  #checkDrift(table: AnyTable, stored: Manifest['tables'][string]['columns']): void {
    const problems = columnDifferences(stored, manifestColumns(table));
    if (problems.length > 0) {
      throw new SchemaDriftError(
        `Table ${table.name} in ${this.#root} does not match its definition: ${problems.join('; ')}. ` +
          'Its files would not read as one table; migrate them or write to a new folder.',
      );
    }
  }

  /** Commits the changes in one manifest swap; returns, per change, the stored rows its rows replaced. */
  async #write(changes: readonly TableChange[]): Promise<number[]> {
    const connection = this.#db();
    const manifest = this.#current();
    const generation = manifest.generation + 1;
    const tables = { ...manifest.tables };
    const checkpoints = { ...manifest.checkpoints };
    const now = this.#now();
    const created: string[] = [];
    const superseded: string[] = [];
    let sequence = 0;
    const replaced = changes.map(() => 0);
    await connection.run('BEGIN TRANSACTION');
    try {
      const staged: { readonly index: number; readonly change: StagedChange }[] = [];
      for (const [index, change] of changes.entries()) {
        if (change.table === etlCheckpoints) {
          for (const row of change.rows) {
            checkpoints[String(row['stream'])] = { position: String(row['position']), updatedAt: Number(row['updated_at']) };
          }
        } else {
          staged.push({ index, change: await this.#stage(change) });
        }
      }
      for (const { index, change: table } of staged) {
        const name = table.table.name;
        const { unswept, unchecked, ...entry } = tables[name] ?? emptyTableEntry(table.table);
        const ranges = rangesAfter(changes[index]!, withRanges({ unswept, unchecked }));
        const { hits, keyRows } = await this.#findHits(table, entry.files);
        replaced[index] = keyRows;
        const files: ManifestFile[] = entry.files.filter((file) => !hits.has(file.path));
        for (const hit of entry.files.filter((file) => hits.has(file.path))) {
          const path = dataFilePath(name, hit.date, generation, sequence);
          const { rows, bytes } = await this.#copy(table.table, this.#rewriteQuery(table, hit), path, created);
          if (rows > 0) {
            files.push({ ...hit, path, rows, bytes });
            sequence += 1;
          }
          superseded.push(hit.path);
        }
        for (const group of table.groups.values()) {
          const path = dataFilePath(name, group.date, generation, sequence++);
          const { rows, bytes } = await this.#copy(table.table, this.#groupQuery(table, group), path, created);
          files.push({
            path,
            ...(group.date === undefined ? {} : { date: group.date }),
            rows,
            bytes,
            ...(group.min === undefined ? {} : { clusterMin: String(group.min), clusterMax: String(group.max) }),
          });
        }
        tables[name] = { ...entry, files, ...ranges };
      }
      await this.#swap({ ...manifest, generation, tables, checkpoints }, superseded, created, now);
    } catch (err) {
      await this.#dropUnpublished(generation, created);
      throw err;
    } finally {
      await connection.run('ROLLBACK');
    }
    await this.#deleteExpired(manifest, superseded, now);
    return replaced;
  }

  /**
   * Merges the files of each settled day of a table (any day but its newest; see `compactionPlan`)
   * into one file, one commit per table, so that a kill loses at most one table's work; readers keep
   * the superseded files for the retention time like any rewrite. Returns the merges.
   */
  async compact(scope: CompactionScope = {}): Promise<FileMerge[]> {
    const done: FileMerge[] = [];
    await this.#onEveryCore(async () => {
      for (const table of this.#fileTables()) {
        const merges = compactionPlan(this.#current(), [table], scope);
        if (merges.length === 0) continue;
        await this.#mergeFiles(merges);
        done.push(...merges);
      }
    });
    return done;
  }

  /**
   * Runs `work` with DuckDB on a thread per core, unless the pipeline set `threads`: a merge reads
   * and writes whole days, where DuckDB's parallel scan and write pay (a commit's small inserts do not).
   */
  async #onEveryCore(work: () => Promise<void>): Promise<void> {
    if (this.#options.config?.threads !== undefined) return work();
    await this.#db().run(`SET threads TO ${availableParallelism()}`);
    try {
      await work();
    } finally {
      await this.#db().run(`SET threads TO ${SINK_THREADS}`);
    }
  }

  /**
   * Rewrites each group of listed files (one table, one day) into one file holding exactly their rows,
   * in one commit that changes no row: compaction, and with one file per group the rewrite of a file
   * in this release's Parquet types. Marks the `upgraded` tables' entries as of PARQUET_TYPES. A
   * merged file whose row count differs from its sources' fails the commit.
   */
  async #mergeFiles(merges: readonly FileMerge[], upgraded: readonly string[] = []): Promise<void> {
    const manifest = this.#current();
    const generation = manifest.generation + 1;
    const tables = { ...manifest.tables };
    for (const name of upgraded) tables[name] = { ...tables[name]!, parquetTypes: PARQUET_TYPES };
    const now = this.#now();
    const created: string[] = [];
    const superseded: string[] = [];
    try {
      for (const [sequence, { table, files }] of merges.entries()) {
        const path = dataFilePath(table.name, files[0]!.date, generation, sequence);
        const source = `SELECT ${identifierList(table.columnNames)} FROM ${this.#scan(files, { filename: false })}`;
        const { rows, bytes } = await this.#copy(table, source, path, created);
        const listed = files.reduce((sum, file) => sum + file.rows, 0);
        if (rows !== listed) throw new FatalError(`Merging ${files.length} files of ${table.name} wrote ${rows} rows; the manifest lists ${listed}`);
        tables[table.name] = { ...tables[table.name]!, files: replaceFiles(tables[table.name]!.files, files, mergedFile(path, files, bytes)) };
        superseded.push(...files.map((file) => file.path));
      }
      await this.#swap({ ...manifest, generation, tables }, superseded, created, now);
    } catch (err) {
      await this.#dropUnpublished(generation, created);
      throw err;
    }
    await this.#deleteExpired(manifest, superseded, now);
  }

  /** Rewrites the files of opened tables that an earlier release wrote with unsigned types (see PARQUET_TYPES), one by one. */
  async #upgradeParquetTypes(): Promise<void> {
    const { tables } = this.#current();
    const outdated = this.#fileTables().filter((table) => tables[table.name]?.parquetTypes !== PARQUET_TYPES);
    if (outdated.length === 0) return;
    const merges = outdated.filter(castsOnWrite).flatMap((table) => tables[table.name]!.files.map((file) => ({ table, files: [file] })));
    await this.#mergeFiles(merges, outdated.map((table) => table.name));
    if (merges.length > 0) {
      this.#options.logger?.info(
        { files: merges.length, tables: outdated.filter(castsOnWrite).map((table) => table.name) },
        'Parquet files of an earlier release rewritten without unsigned types (lt as INT64, uint64 as DECIMAL(20,0))',
      );
    }
  }

  /** Makes the files of `created` durable and publishes `next`, listing `superseded` as retired from `now`. */
  async #swap(next: Manifest, superseded: readonly string[], created: readonly string[], now: number): Promise<void> {
    await this.#syncFolders(created);
    const retired = [...next.retired.filter((file) => !this.#expired(file, now)), ...superseded.map((path) => ({ path, retiredAt: now }))];
    await this.#publish({ ...next, retired });
  }

  /** After a failed commit: deletes the files it wrote, unless its manifest was published after all. */
  async #dropUnpublished(generation: number, created: readonly string[]): Promise<void> {
    if (this.#manifest?.generation !== generation) await Promise.all(created.map((path) => rm(path, { force: true })));
  }

  /**
   * Expired files leave the manifest with this commit (or already did with an earlier one); deleting
   * them after the swap means a crash in between leaves them listed as retired, deleted next time.
   */
  async #deleteExpired(previous: Manifest, superseded: readonly string[], now: number): Promise<void> {
    const expired = [...previous.retired, ...superseded.map((path) => ({ path, retiredAt: now }))].filter((file) => this.#expired(file, now));
    await Promise.all(expired.map((file) => rm(join(this.#root, file.path), { force: true })));
  }

  #now(): number {
    return (this.#options.now ?? systemClock)();
  }

  #expired(file: RetiredFile, now: number): boolean {
    return now - file.retiredAt >= 60 * (this.#options.retainSupersededMinutes ?? 0);
  }

  /** Swaps the manifest: the commit point. A failure after the rename still counts as committed. */
  async #publish(next: Manifest): Promise<void> {
    try {
      await writeManifest(this.#root, next);
    } catch (err) {
      const onDisk = await readManifest(this.#root).catch(() => undefined);
      if (onDisk?.generation === next.generation) this.#manifest = next;
      throw err;
    }
    this.#manifest = next;
    await this.#writeViewsFile();
  }

  async #writeViewsFile(): Promise<void> {
    await writeViewsFile(this.#root, this.#current(), this.#fileTables(), this.#options.definitions ?? NO_DEFINITIONS);
  }

  async #stage(change: TableChange): Promise<StagedChange> {
    const { table, rows, replace } = change;
    const connection = this.#db();
    const groups = new Map<string, DayGroup>();
    const dayOf = new Map<unknown, string | null>();
    rows.forEach((row, index) => {
      const date = table.partitionBy?.(row);
      if (date !== undefined && !isUtcDay(date)) {
        throw new RowValueError(`Table ${table.name}, row ${index}: partitionBy returned ${JSON.stringify(date)}, expected YYYY-MM-DD`);
      }
      const group = groups.get(date ?? '') ?? { date, min: undefined, max: undefined };
      groups.set(date ?? '', group);
      if (table.clusterBy !== undefined) {
        const value = BigInt(row[table.clusterBy] as bigint | number);
        if (group.min === undefined || value < group.min) group.min = value;
        if (group.max === undefined || value > group.max) group.max = value;
      }
      dayOf.set(row, date ?? null);
    });
    await appendRows(connection, { name: stageName(table.name), catalog: 'temp' }, table, rows, [
      { kind: nullableText, value: (row) => dayOf.get(row) },
    ]);
    for (const { column, values } of replace) {
      const name = replaceName(table.name, column);
      await connection.run(`CREATE TEMP TABLE IF NOT EXISTS ${quotedIdentifier(name)} (v ${table.columns[column]!.sqlType})`);
      await appendValues(connection, { name, catalog: 'temp' }, table.columns[column]!, values);
    }
    return { table, rowCount: rows.length, groups, replace, keysAnywhere: change.keysAnywhere === true };
  }

  /**
   * Listed files that hold a key of the staged rows or a replaced value, and how many stored rows
   * hold a key of the staged rows (those the commit replaces). Only files of the staged days whose
   * cluster range overlaps the staged rows can hold a key (or a value the rows carry); values no row
   * carries are looked for in every file of the table.
   */
  async #findHits(staged: StagedChange, files: readonly ManifestFile[]): Promise<{ hits: Set<string>; keyRows: number }> {
    const hits = new Set<string>();
    if (files.length === 0) return { hits, keyRows: 0 };
    const groups = [...staged.groups.values()];
    const candidates = staged.keysAnywhere ? files : files.filter((file) =>
      groups.some((group) =>
        group.date === file.date &&
        (group.min === undefined || file.clusterMin === undefined ||
          (BigInt(file.clusterMin) <= group.max! && BigInt(file.clusterMax!) >= group.min))),
    );
    const { table } = staged;
    const queries: string[] = [];
    if (staged.rowCount > 0 && candidates.length > 0) {
      queries.push(
        `SELECT f.filename, 1 AS key_row FROM ${this.#scan(candidates)} AS f SEMI JOIN ${temp(stageName(table.name))} AS s ON ${keyMatch(table)}`,
      );
    }
    for (const set of staged.replace) {
      const scope = set.unanchored.length > 0 ? files : candidates;
      if (scope.length === 0) continue;
      queries.push(
        `SELECT DISTINCT f.filename, 0 AS key_row FROM ${this.#scan(scope)} AS f SEMI JOIN ${temp(replaceName(table.name, set.column))} AS r ` +
          `ON f.${quotedIdentifier(set.column)} = r.v`,
      );
    }
    if (queries.length === 0) return { hits, keyRows: 0 };
    const reader = await this.#db().runAndReadAll(`SELECT filename, sum(key_row)::BIGINT FROM (${queries.join(' UNION ALL ')}) GROUP BY filename`);
    const prefix = `${this.#root}/`;
    let keyRows = 0;
    for (const [filename, rows] of reader.getRows()) {
      hits.add(String(filename).slice(prefix.length));
      keyRows += Number(rows);
    }
    return { hits, keyRows };
  }

  /** `read_parquet` over listed files, without the partition column; with a `filename` column when asked. @default filename true */
  #scan(files: readonly ManifestFile[], { filename = true } = {}): string {
    const list = files.map((file) => quotedString(join(this.#root, file.path))).join(', ');
    return `read_parquet([${list}], filename = ${filename}, hive_partitioning = false)`;
  }

  /** The rows of `file` that this commit does not supersede. */
  #rewriteQuery(staged: StagedChange, file: ManifestFile): string {
    const { table } = staged;
    const source = `read_parquet(${quotedString(join(this.#root, file.path))}, hive_partitioning = false)`;
    const conditions = [`NOT EXISTS (SELECT 1 FROM ${temp(stageName(table.name))} AS s WHERE ${keyMatch(table)})`];
    for (const set of staged.replace) {
      conditions.push(
        `NOT EXISTS (SELECT 1 FROM ${temp(replaceName(table.name, set.column))} AS r WHERE r.v = f.${quotedIdentifier(set.column)})`,
      );
    }
    return `SELECT ${identifierList(table.columnNames)} FROM ${source} AS f WHERE ${conditions.join(' AND ')}`;
  }

  #groupQuery(staged: StagedChange, group: DayGroup): string {
    const day = group.date === undefined ? 'IS NULL' : `= ${quotedString(group.date)}`;
    const columns = identifierList(staged.table.columnNames);
    return `SELECT ${columns} FROM ${temp(stageName(staged.table.name))} WHERE ${quotedIdentifier(DAY_COLUMN)} ${day}`;
  }

  /** Writes the query's rows to `path` (see writeDataFile), listing its names in `created` first. */
  async #copy(table: AnyTable, query: string, path: string, created: string[]): Promise<{ rows: number; bytes: number }> {
    const final = join(this.#root, path);
    created.push(`${final}${TEMP_SUFFIX}`, final);
    return writeDataFile(this.#db(), table, query, final, this.#options.rowGroupSize);
  }

  /** Makes the renames and new folders of this commit durable before the manifest names them. */
  async #syncFolders(created: readonly string[]): Promise<void> {
    const folders = new Set<string>();
    for (const path of created) {
      for (let folder = dirname(path); folder.startsWith(this.#root); folder = dirname(folder)) folders.add(folder);
    }
    for (const folder of folders) await fsyncPath(folder);
  }
}

function keyMatch(table: AnyTable): string {
  return table.primaryKey.map((column) => `f.${quotedIdentifier(column)} = s.${quotedIdentifier(column)}`).join(' AND ');
}
