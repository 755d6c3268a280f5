import { setTimeout as sleep } from 'node:timers/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { createDuckDBInstance } from '../core/duckdb-api.js';
import type { Logger } from 'pino';
import { ReadersHoldError } from '../core/errors.js';
import type { AnyTable } from '../core/table.js';
import { analystDefinitions } from '../streams/analyst-views.js';
import type { Sink } from './sink.js';
import { DuckDBSink, type DuckDBSinkOptions } from './duckdb/sink.js';
import { ParquetSink } from './parquet/sink.js';
import { migrateOpenDuckDB, migrateWarehouse } from './migrate.js';

export type SinkKind = 'duckdb' | 'parquet';

/** A pipeline's `sink` settings. */
export interface SinkSettings {
  readonly kind: SinkKind;
  readonly path: string;
  readonly retainSupersededMinutes: number;
  /** Parquet: files of a table's settled day above which a sync or backfill merges them; 0 never. */
  readonly compactAfterFiles: number;
  /** DuckDB: seconds a run waits for other processes reading the file to close it; 0 gives up at once. */
  readonly waitForReadersSeconds: number;
}

/**
 * The sink of a pipeline, defining the analysts' macros and views (`analystDefinitions`) on every open.
 * `repair`: open a Parquet warehouse with damaged files, to set them aside (see ParquetSinkOptions).
 */
export function createSink(
  settings: SinkSettings,
  logger: Logger,
  options: { readonly repair?: boolean; readonly migrate?: DuckDBSinkOptions['migrate'] } = {},
): DuckDBSink | ParquetSink {
  const { kind, path, retainSupersededMinutes } = settings;
  const definitions = analystDefinitions;
  return kind === 'duckdb'
    ? new DuckDBSink({ path, definitions, migrate: options.migrate, publishProgress: true })
    : new ParquetSink({ path, retainSupersededMinutes, logger, definitions, repair: options.repair });
}

/** Where a run opening the warehouse says it waits for readers, and how it is opened. */
export interface WriteOpenOptions {
  readonly logger: Logger;
  /** See `createSink`. @default false */
  readonly repair?: boolean;
  /** Between tries. @default 500 */
  readonly retryMs?: number;
  readonly signal?: AbortSignal;
}

/**
 * Opens the warehouse for writing, having migrated one of an earlier schema version in place
 * (`migrateWarehouse`; a DuckDB file in the sink's own open). While other processes read a DuckDB file (a notebook's read-only connection)
 * the open is retried, with one warning, up to `waitForReadersSeconds`; then `ReadersHoldError`
 * (exit 3) says a reader holds it. Another writer fails at once (`LockedError`).
 */
export async function openSinkForWriting(settings: SinkSettings, tables: readonly AnyTable[], options: WriteOpenOptions): Promise<Sink> {
  const seconds = settings.waitForReadersSeconds;
  const deadline = Date.now() + seconds * 1000;
  for (let attempt = 0; ; attempt += 1) {
    // A sink whose open failed is not reused: it may hold half its state.
    const migrate = async (connection: DuckDBConnection): Promise<void> => {
      await migrateOpenDuckDB(connection, settings.path, options.logger);
    };
    const sink = createSink(settings, options.logger.child({ component: 'sink' }), { repair: options.repair, migrate });
    try {
      if (settings.kind === 'parquet') await migrateWarehouse(settings.kind, settings.path, options.logger);
      await sink.open(tables);
      return sink;
    } catch (err) {
      if (!(err instanceof ReadersHoldError)) throw err;
      const left = deadline - Date.now();
      if (left <= 0) {
        const waited = seconds === 0 ? 'sink.wait_for_readers_seconds is 0' : `waited ${seconds} s for it to close`;
        throw new ReadersHoldError(`${err.message}; ${waited}: close that connection (a notebook, a DuckDB shell), or raise sink.wait_for_readers_seconds`, {
          cause: err,
        });
      }
      if (attempt === 0) options.logger.warn({ path: settings.path, waitForReadersSeconds: seconds }, `${err.message}; waiting up to ${seconds} s for it to close`);
      await sleep(Math.min(left, options.retryMs ?? 500), undefined, { signal: options.signal }).catch(() => undefined);
      options.signal?.throwIfAborted();
    }
  }
}

/**
 * A SQL connection onto an open sink's tables: the DuckDB file itself, or views over the Parquet
 * manifest's files of `tables` (each view reads its files' footers). @default every table
 */
export async function warehouseReader(sink: Sink, tables?: readonly AnyTable[]): Promise<DuckDBConnection> {
  if (sink instanceof DuckDBSink) return sink.connection;
  if (sink instanceof ParquetSink) {
    const instance = await createDuckDBInstance(':memory:');
    const connection = await instance.connect();
    await connection.run(sink.viewsSql(tables));
    return connection;
  }
  throw new Error('unknown sink');
}
