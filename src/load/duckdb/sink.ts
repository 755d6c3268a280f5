import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { quotedIdentifier } from '../../core/sql-quote.js';
import { SCHEMA_VERSION, SCHEMA_VERSION_KEY, bookkeepingTables, etlCheckpoints, etlMeta, etlRuns, writtenRangeKey } from '../../core/bookkeeping.js';
import { commentsSql, createTableSql, identifierList } from '../../core/ddl.js';
import { FatalError } from '../../core/errors.js';
import { SchemaVersionError } from '../../core/schema-errors.js';
import type { AnyTable } from '../../core/table.js';
import { definitionsSql, type AnalystDefinitions } from '../../core/warehouse-views.js';
import { planCommit, replacedRows, tableChange, type TableChange } from '../commit-plan.js';
import { clusterBetween, clusterRange, type ClusterRange } from '../cluster-range.js';
import { appendRows, appendValues } from '../engine/append.js';
import { openDuckDBFile, SINK_THREADS } from '../engine/open.js';
import { readRows } from '../engine/read.js';
import { keptRowsSql, sweepChange } from '../moved-keys.js';
import { RANGE_KINDS, asClusterRange, rangesAfter, withRanges, type RangeKind, type WrittenRanges } from '../written-ranges.js';
import { checkLiveSchemas } from './schema-check.js';
import { ProgressFile } from './progress.js';
import type { ReplacedRows, RunRecord, Sink, StreamCommit } from '../sink.js';
import { mark } from '../../core/timeline.js';

/** Where and how the DuckDB sink writes. */
export interface DuckDBSinkOptions {
  /** DuckDB database file; created when missing. */
  readonly path: string;
  /** Clock in unix seconds, for checkpoint and reject times. @default the system clock */
  readonly now?: () => number;
  /** Schema version this build writes; a warehouse with another one is refused. @default SCHEMA_VERSION */
  readonly schemaVersion?: number;
  /** DuckDB configuration options, e.g. `{ threads: '4' }`, over the sink's defaults (`checkpoint_threshold` 64MB, `memory_limit` 256MB, `threads` 1). */
  readonly config?: Readonly<Record<string, string>>;
  /** Macros and views created (or replaced) on every open, those over the opened tables. @default none */
  readonly definitions?: AnalystDefinitions;
  /**
   * Runs on the new connection before the schema version is checked: sync and backfill migrate a
   * warehouse of the previous version there, in the same open of the file. @default none
   */
  readonly migrate?: (connection: DuckDBConnection) => Promise<void>;
  /** Publish a run's progress beside the file for `status`, from its `running` record on (progress.ts). @default false */
  readonly publishProgress?: boolean;
}

const systemClock = (): number => Math.floor(Date.now() / 1000);
/**
 * DuckDB checkpoints the WAL into the file whenever it passes 16 MB by default, inside the COMMIT
 * that crossed it; until then the committed rows also stay in memory. Without key indexes (see
 * `AnyTable.keyIndex`) a checkpoint costs what it writes, so 64MB costs the commit CPU of larger
 * thresholds and holds far less memory (measured: docs/design.md §4). The memory limit bounds
 * DuckDB's cache of table blocks, which otherwise grows with the warehouse (default: 80 % of the
 * machine's memory). The sink also checkpoints on close; a killed process's WAL is replayed on the
 * next open.
 */
const DUCKDB_DEFAULTS: Readonly<Record<string, string>> = { checkpoint_threshold: '64MB', memory_limit: '256MB', threads: SINK_THREADS };
const stageName = (table: string): string => `__stage_${table}`;
const replaceName = (table: string, column: string): string => `__replace_${table}__${column}`;
const temp = (name: string): string => `temp.main.${quotedIdentifier(name)}`;
const target = (name: string): string => `main.${quotedIdentifier(name)}`;

/**
 * Writes one DuckDB file. Each commit is one transaction: rows are appended to temp staging tables,
 * the stored rows of their primary keys (counted: the rows replaced) and of replaced values are
 * deleted, the staged rows inserted, and the checkpoint row upserted the same way, then COMMIT
 * (faster than INSERT OR REPLACE when keys conflict: docs/design.md §4). A table whose stored rows hold nothing in the batch's `clusterBy`
 * range (a backfill's new pages) gets its rows appended in place.
 */
export class DuckDBSink implements Sink {
  readonly #options: DuckDBSinkOptions;
  readonly #tables = new Map<string, AnyTable>();
  #instance: DuckDBInstance | undefined;
  #connection: DuckDBConnection | undefined;
  readonly #progress: ProgressFile | undefined;
  /** Per table, the ranges its commits recorded (`written-ranges.ts`), as `_etl_meta` holds them. */
  readonly #ranges = new Map<string, WrittenRanges>();

  constructor(options: DuckDBSinkOptions) {
    this.#options = options;
    this.#progress = options.publishProgress === true ? new ProgressFile(options.path, () => this.#now()) : undefined;
  }

  /** The open connection, for reads by the same process (status, tests). */
  get connection(): DuckDBConnection {
    if (this.#connection === undefined) throw new FatalError(`DuckDB sink ${this.#options.path} is not open`);
    return this.#connection;
  }

  async open(tables: readonly AnyTable[]): Promise<void> {
    if (this.#connection !== undefined) throw new FatalError(`DuckDB sink ${this.#options.path} is already open`);
    const all = [...bookkeepingTables, ...tables];
    for (const table of all) {
      if (this.#tables.has(table.name)) throw new FatalError(`Table ${table.name} is opened twice`);
      this.#tables.set(table.name, table);
    }
    this.#instance = await openDuckDBFile(this.#options.path, { ...DUCKDB_DEFAULTS, ...this.#options.config });
    try {
      this.#connection = await this.#instance.connect();
      await this.#options.migrate?.(this.#connection);
      mark('migration checked');
      await this.#prepareTables([etlMeta]);
      await this.#checkVersion();
      await this.#prepareTables(all.filter((table) => table !== etlMeta));
      if (this.#options.definitions !== undefined) await this.#connection.run(definitionsSql(this.#options.definitions, new Set(this.#tables.keys())));
      await this.#readRanges();
      mark('warehouse open');
    } catch (err) {
      this.#release();
      throw err;
    }
  }

  async readCheckpoint(stream: string): Promise<string | undefined> {
    const reader = await this.connection.runAndReadAll(
      `SELECT position FROM ${target(etlCheckpoints.name)} WHERE stream = $stream`,
      { stream },
    );
    const position = reader.getRows()[0]?.[0];
    return typeof position === 'string' ? position : undefined;
  }

  async readCheckpoints(): Promise<ReadonlyMap<string, string>> {
    const reader = await this.connection.runAndReadAll(`SELECT stream, position FROM ${target(etlCheckpoints.name)} ORDER BY stream`);
    return new Map(reader.getRows().map(([stream, position]) => [String(stream), String(position)]));
  }

  async distinctText(table: string, column: string): Promise<string[]> {
    if (!this.#tables.has(table)) throw new FatalError(`Table ${table} is not open`);
    const name = quotedIdentifier(column);
    const reader = await this.connection.runAndReadAll(`SELECT DISTINCT ${name} FROM ${target(table)} WHERE ${name} IS NOT NULL`);
    return reader.getRows().map(([value]) => String(value));
  }

  async commitAll(commits: readonly StreamCommit[]): Promise<ReplacedRows> {
    const changes = planCommit(this.#tables, commits, this.#now());
    const replaced = replacedRows(changes, await this.#transaction(changes));
    this.#progress?.committed(changes, replaced);
    return replaced;
  }

  async sweepMovedKeys(): Promise<ReplacedRows> {
    const dropped = new Map<string, number>();
    for (const [name, range] of this.#rangesOf('unswept')) {
      const table = this.#tables.get(name)!;
      const kept = await readRows(this.connection, table, keptRowsSql(table, target(name), range));
      const [deleted] = await this.#transaction([sweepChange(table, kept)]);
      dropped.set(name, deleted! - kept.length);
    }
    return dropped;
  }

  uncheckedRanges(): ReadonlyMap<string, ClusterRange> {
    return this.#rangesOf('unchecked');
  }

  async markChecked(): Promise<void> {
    const checked = [...this.uncheckedRanges().keys()].map((name): [string, WrittenRanges] => [name, withRanges({ ...this.#ranges.get(name), unchecked: undefined })]);
    if (checked.length > 0) await this.#transaction([], new Map(checked));
  }

  readCommitted<T>(read: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    return read(this.connection);
  }

  /** The opened tables' recorded ranges of `kind`. */
  #rangesOf(kind: RangeKind): Map<string, ClusterRange> {
    const found = [...this.#ranges].flatMap(([name, ranges]) => {
      const table = this.#tables.get(name);
      const stored = ranges[kind];
      return table === undefined || stored === undefined ? [] : [[name, asClusterRange(table, stored)] as const];
    });
    return new Map(found);
  }

  async recordRun(run: RunRecord): Promise<void> {
    await this.#transaction([tableChange(etlRuns, [run])]);
    if (run.status === 'running') this.#progress?.begin(run, await this.readCheckpoints());
  }

  async close(): Promise<void> {
    try {
      mark('checkpoint');
      await this.#connection?.run('CHECKPOINT');
    } finally {
      this.#release();
      // Once the lock is gone: a reader in between opens the file itself.
      this.#progress?.remove();
      mark('warehouse closed');
    }
  }

  #release(): void {
    this.#connection?.closeSync();
    this.#instance?.closeSync();
    this.#connection = undefined;
    this.#instance = undefined;
    this.#tables.clear();
    this.#ranges.clear();
  }

  #now(): number {
    return (this.#options.now ?? systemClock)();
  }

  /**
   * Applies the changes in one transaction, with the ranges they record (`written-ranges.ts`; `ranges`
   * sets a table's ranges before its changes apply); returns, per change, the stored rows its rows replaced.
   */
  async #transaction(changes: readonly TableChange[], ranges: ReadonlyMap<string, WrittenRanges> = new Map()): Promise<number[]> {
    const connection = this.connection;
    const next = new Map(ranges);
    for (const change of changes) {
      const name = change.table.name;
      next.set(name, rangesAfter(change, next.get(name) ?? this.#ranges.get(name) ?? {}));
    }
    const recorded = rangesChange(this.#ranges, next);
    await connection.run('BEGIN TRANSACTION');
    try {
      const replaced: number[] = [];
      for (const change of changes) replaced.push(await this.#apply(change));
      if (recorded !== undefined) await this.#apply(recorded);
      await connection.run('COMMIT');
      for (const [name, tableRanges] of next) this.#ranges.set(name, tableRanges);
      return replaced;
    } catch (err) {
      try {
        await connection.run('ROLLBACK');
      } catch {
        // A failed COMMIT has already ended the transaction; `err` is the error to report.
      }
      throw err;
    }
  }

  /**
   * Deletes the stored rows of the change's keys (their count is returned: the rows replaced), then
   * those of its replaced values, and inserts its rows.
   */
  async #apply({ table, rows, replace, keysAnywhere }: TableChange): Promise<number> {
    const connection = this.connection;
    const range = keysAnywhere === true ? undefined : clusterRange(table, rows);
    if (rows.length > 0 && replace.length === 0 && range !== undefined && !(await this.#holdsAnyWithin(table, range))) {
      // No stored row shares a key with the group's rows (they would share its clusterBy range): append in place.
      await appendRows(connection, { name: table.name }, table, rows);
      return 0;
    }
    const stage = stageName(table.name);
    let replaced = 0;
    if (rows.length > 0) {
      await appendRows(connection, { name: stage, catalog: 'temp' }, table, rows);
      const keyMatch = table.primaryKey.map((c) => `t.${quotedIdentifier(c)} = s.${quotedIdentifier(c)}`).join(' AND ');
      const deleted = await connection.run(
        `DELETE FROM ${target(table.name)} AS t USING ${temp(stage)} AS s WHERE ${keyMatch}${clusterBetween(table, range, 't')}`,
      );
      replaced = deleted.rowsChanged;
    }
    for (const { column, values, unanchored } of replace) {
      const name = replaceName(table.name, column);
      await connection.run(`CREATE TEMP TABLE IF NOT EXISTS ${quotedIdentifier(name)} (v ${table.columns[column]!.sqlType})`);
      await appendValues(connection, { name, catalog: 'temp' }, table.columns[column]!, values);
      const within = unanchored.length === 0 ? clusterBetween(table, range, 't') : '';
      await connection.run(
        `DELETE FROM ${target(table.name)} AS t WHERE t.${quotedIdentifier(column)} IN (SELECT v FROM ${temp(name)})${within}`,
      );
      await connection.run(`DELETE FROM ${temp(name)}`);
    }
    if (rows.length === 0) return replaced;
    const columns = identifierList(table.columnNames);
    await connection.run(`INSERT INTO ${target(table.name)} (${columns}) SELECT ${columns} FROM ${temp(stage)}`);
    await connection.run(`DELETE FROM ${temp(stage)}`);
    return replaced;
  }

  async #readRanges(): Promise<void> {
    for (const kind of RANGE_KINDS) {
      const prefix = writtenRangeKey(kind, '');
      const reader = await this.connection.runAndReadAll(`SELECT key, value FROM ${target(etlMeta.name)} WHERE starts_with(key, $prefix)`, { prefix });
      for (const [key, value] of reader.getRows()) {
        const name = String(key).slice(prefix.length);
        this.#ranges.set(name, { ...this.#ranges.get(name), [kind]: JSON.parse(String(value)) as unknown });
      }
    }
  }

  async #holdsAnyWithin(table: AnyTable, range: ClusterRange): Promise<boolean> {
    const reader = await this.connection.runAndReadAll(`SELECT 1 FROM ${target(table.name)} AS t WHERE true${clusterBetween(table, range, 't')} LIMIT 1`);
    return reader.currentRowCount > 0;
  }

  async #checkVersion(): Promise<void> {
    const connection = this.connection;
    const expected = String(this.#options.schemaVersion ?? SCHEMA_VERSION);
    const reader = await connection.runAndReadAll(
      `SELECT value FROM ${target(etlMeta.name)} WHERE key = $key`,
      { key: SCHEMA_VERSION_KEY },
    );
    const found = reader.getRows()[0]?.[0];
    if (found === undefined) {
      await this.#transaction([tableChange(etlMeta, [{ key: SCHEMA_VERSION_KEY, value: expected }])]);
    } else if (found !== expected) {
      throw new SchemaVersionError(
        `Warehouse ${this.#options.path} has schema version ${String(found)}, this chain-etl writes version ${expected}; ` +
          'use a new warehouse file or a chain-etl release of that version',
      );
    }
  }

  /** Checks the tables the file holds, creates the others, and creates every table's staging table. */
  async #prepareTables(tables: readonly AnyTable[]): Promise<void> {
    const existing = await checkLiveSchemas(this.connection, tables, this.#options.path);
    const statements = tables.flatMap((table) => [
      ...(existing.has(table.name) ? [] : [createTableSql(table), commentsSql(table)]),
      createTableSql(table, { name: stageName(table.name), temporary: true, constraints: false }),
    ]);
    await this.connection.run(statements.join('\n'));
  }
}

/** The `_etl_meta` change recording the ranges of `next` that differ from `stored` (a range gone: its row deleted); undefined when none. */
function rangesChange(stored: ReadonlyMap<string, WrittenRanges>, next: ReadonlyMap<string, WrittenRanges>): TableChange | undefined {
  const rows: { key: string; value: string }[] = [];
  const cleared: string[] = [];
  for (const [name, ranges] of next) {
    for (const kind of RANGE_KINDS) {
      const value = ranges[kind] === undefined ? undefined : JSON.stringify(ranges[kind]);
      const before = stored.get(name)?.[kind];
      if (value === (before === undefined ? undefined : JSON.stringify(before))) continue;
      if (value === undefined) cleared.push(writtenRangeKey(kind, name));
      else rows.push({ key: writtenRangeKey(kind, name), value });
    }
  }
  if (rows.length === 0 && cleared.length === 0) return undefined;
  const change = tableChange(etlMeta, rows);
  return cleared.length === 0 ? change : { ...change, replace: [{ column: 'key', values: cleared, unanchored: cleared }] };
}
