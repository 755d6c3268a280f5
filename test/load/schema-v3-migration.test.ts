/**
 * Schema version 2 → 3 (`_etl_runs.rows_replaced`), both sinks: a warehouse of version 2 is refused by
 * the sink until migrated; the migration keeps every run as it was, with `rows_replaced` null (the
 * replaced rows of those runs are unknown: they were counted in `rows`), touches no data table, and
 * leaves a warehouse the sink opens and writes. The version 2 warehouse is this build's with the
 * column taken out again, which is all version 3 changed (the same step brings it to this build's
 * version: version 4 changed only tables this warehouse does not hold).
 */
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance, quotedString } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { etlRuns } from '../../src/core/bookkeeping.js';
import { SchemaVersionError } from '../../src/core/schema-errors.js';
import type { AnyTable } from '../../src/core/table.js';
import { readRows } from '../../src/load/engine/read.js';
import { DuckDBSink } from '../../src/load/duckdb/sink.js';
import { migrateWarehouse } from '../../src/load/migrate.js';
import { readParquetSql } from '../../src/load/parquet/layout.js';
import { readManifest, writeManifest } from '../../src/load/parquet/manifest.js';
import { ParquetSink } from '../../src/load/parquet/sink.js';
import type { RunRecord, Sink } from '../../src/load/sink.js';
import { withDuckDB } from '../support/with-duckdb.js';
import { firstBatch, transfers, actions } from './tables.js';
import { useTempDir } from './temp-dir.js';

const tempDir = useTempDir('schema-v3');
const NOW = 1_700_000_000;
const RUN: RunRecord = {
  run_id: 'r1', command: 'sync', started_at: NOW, ended_at: NOW + 5, status: 'ok',
  rows: '{"transfers":3}', rows_replaced: '{"transfers":0}', requests: '{"total":4}', retries: 0, error: null, tip_seqno: 50_000_120, tip_time: NOW - 60,
};

interface SinkUnderTest {
  readonly kind: 'duckdb' | 'parquet';
  place(): Promise<string>;
  open(path: string): Promise<Sink>;
  /** Takes `rows_replaced` out of `_etl_runs` and marks the warehouse version 2, as that release left it. */
  downgrade(path: string): Promise<void>;
  rows(path: string, table: AnyTable): Promise<unknown[]>;
}

const duckdb: SinkUnderTest = {
  kind: 'duckdb',
  place: async () => join(await tempDir(), 'warehouse.duckdb'),
  open: async (path) => {
    const sink = new DuckDBSink({ path, now: () => NOW });
    await sink.open([transfers, actions]);
    return sink;
  },
  downgrade: (path) =>
    withDuckDB(path, {}, async (connection) => {
      await connection.run("ALTER TABLE _etl_runs DROP COLUMN rows_replaced; UPDATE _etl_meta SET value = '2' WHERE key = 'schema_version'");
    }),
  rows: (path, table) =>
    withDuckDB(path, { access_mode: 'READ_ONLY' }, (connection) => readRows(connection, table)),
};

const parquet: SinkUnderTest = {
  kind: 'parquet',
  place: () => tempDir(),
  open: async (path) => {
    const sink = new ParquetSink({ path, now: () => NOW });
    await sink.open([transfers, actions]);
    return sink;
  },
  downgrade: async (path) => {
    const manifest = (await readManifest(path))!;
    const entry = manifest.tables[etlRuns.name]!;
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const files = [];
    for (const file of entry.files) {
      const absolute = join(path, file.path);
      const rewritten = `${absolute}.v2`;
      await connection.run(`COPY (SELECT * EXCLUDE (rows_replaced) FROM read_parquet(${quotedString(absolute)}, hive_partitioning = false)) TO ${quotedString(rewritten)} (FORMAT parquet)`);
      await connection.run(`COPY (FROM read_parquet(${quotedString(rewritten)})) TO ${quotedString(absolute)} (FORMAT parquet)`);
      await rm(rewritten);
      files.push({ ...file, bytes: (await stat(absolute)).size });
    }
    connection.closeSync();
    instance.closeSync();
    const columns = entry.columns.filter((column) => column.name !== 'rows_replaced');
    await writeManifest(path, { ...manifest, schemaVersion: 2, tables: { ...manifest.tables, [etlRuns.name]: { ...entry, columns, files } } });
  },
  rows: async (path, table) => {
    const manifest = (await readManifest(path))!;
    const files = manifest.tables[table.name]!.files.map((file) => join(path, file.path));
    return withDuckDB(':memory:', {}, (connection) => readRows(connection, table, readParquetSql(table, files)));
  },
};

describe.each([duckdb, parquet])('a $kind warehouse of schema version 2', (sut) => {
  it('is migrated in place: runs kept with rows_replaced null, data tables untouched; the sink then opens and writes it', async () => {
    const path = await sut.place();
    const sink = await sut.open(path);
    await sink.commitAll([firstBatch]);
    await sink.recordRun(RUN);
    await sink.close();
    const stored = await sut.rows(path, transfers);
    await sut.downgrade(path);
    await expect(sut.open(path)).rejects.toThrow(SchemaVersionError);

    const migration = await migrateWarehouse(sut.kind, path);
    expect(migration).toMatchObject({ from: 2, to: 4, tables: ['_etl_runs'] });
    expect(await sut.rows(path, etlRuns)).toEqual([{ ...RUN, rows_replaced: null }]);
    expect(await sut.rows(path, transfers)).toEqual(stored);
    expect(await migrateWarehouse(sut.kind, path)).toBeUndefined();

    const again = await sut.open(path);
    try {
      expect(await again.commitAll([firstBatch])).toEqual(new Map([['transfers', 3], ['actions', 3]]));
      await again.recordRun({ ...RUN, run_id: 'r2', started_at: NOW + 10, ended_at: NOW + 15, rows: '{"transfers":0}', rows_replaced: '{"transfers":3}' });
    } finally {
      await again.close();
    }
    expect((await sut.rows(path, etlRuns)).map((run) => (run as RunRecord).rows_replaced)).toEqual([null, '{"transfers":3}']);
  });
});
