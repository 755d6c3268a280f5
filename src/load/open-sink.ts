import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { Sink } from './sink.js';
import { DuckDBSink } from './duckdb-sink.js';
import { ParquetSink } from './parquet-sink.js';

export type SinkKind = 'duckdb' | 'parquet';

export function createSink(kind: SinkKind, path: string): DuckDBSink | ParquetSink {
  return kind === 'duckdb' ? new DuckDBSink({ path }) : new ParquetSink({ path });
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
