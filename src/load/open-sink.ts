import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from 'pino';
import type { Sink } from './sink.js';
import { DuckDBSink } from './duckdb-sink.js';
import { ParquetSink } from './parquet-sink.js';

export type SinkKind = 'duckdb' | 'parquet';

/** A pipeline's `sink` settings. */
export interface SinkSettings {
  readonly kind: SinkKind;
  readonly path: string;
  readonly retainSupersededMinutes: number;
}

/** `repair`: open a Parquet warehouse with damaged files, to set them aside (see ParquetSinkOptions). */
export function createSink(settings: SinkSettings, logger: Logger, options: { readonly repair?: boolean } = {}): DuckDBSink | ParquetSink {
  const { kind, path, retainSupersededMinutes } = settings;
  return kind === 'duckdb' ? new DuckDBSink({ path }) : new ParquetSink({ path, retainSupersededMinutes, logger, ...options });
}

/** A SQL connection onto an open sink's tables: the DuckDB file itself, or views over the Parquet manifest's files. */
export async function warehouseReader(sink: Sink): Promise<DuckDBConnection> {
  if (sink instanceof DuckDBSink) return sink.connection;
  if (sink instanceof ParquetSink) {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run(sink.viewsSql());
    return connection;
  }
  throw new Error('unknown sink');
}
