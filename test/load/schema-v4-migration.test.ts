/**
 * Schema version 3 → 4 (the lt columns of traces and the snapshot tables take the lt kind of every
 * other table), both sinks: a warehouse of version 3 is refused by the sink until migrated; the
 * migration keeps every lt exactly, those beyond 2^53 (where a double rounds) up to 2^63-1 included,
 * writes the Parquet files again with the lt as INT64 where they were DECIMAL(20,0), keeps the
 * DuckDB tables (UBIGINT before and after), and leaves a warehouse the sink opens and writes. The
 * version 3 warehouse is this build's with the lt columns written back as that release wrote them.
 * The same migration of a warehouse synced by that release: test/integration/migrate.test.ts.
 */
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { quotedIdentifier, quotedString } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { tableRows } from '../../src/core/stream.js';
import { SchemaVersionError } from '../../src/core/schema-errors.js';
import type { AnyTable } from '../../src/core/table.js';
import { readRows } from '../../src/load/engine/read.js';
import { DuckDBSink } from '../../src/load/duckdb/sink.js';
import { migrateWarehouse } from '../../src/load/migrate.js';
import { readParquetSql } from '../../src/load/parquet/layout.js';
import { readManifest, writeManifest } from '../../src/load/parquet/manifest.js';
import { ParquetSink } from '../../src/load/parquet/sink.js';
import type { Sink, StreamCommit } from '../../src/load/sink.js';
import { jettonWalletsTable } from '../../src/streams/jetton-wallets.js';
import { tracesTable } from '../../src/streams/traces.js';
import { withDuckDB } from '../support/with-duckdb.js';
import { MAX_LT, hashOf } from './tables.js';
import { useTempDir } from './temp-dir.js';

const tempDir = useTempDir('schema-v4');
const NOW = 1_700_000_000;
const TABLES: readonly AnyTable[] = [tracesTable, jettonWalletsTable];
/** The lt columns version 3 declared uint64: DECIMAL(20,0) in its Parquet files. */
const RETYPED: Readonly<Record<string, readonly string[]>> = { traces: ['start_lt', 'end_lt'], jetton_wallets: ['last_tx_lt'] };
const LT_COLUMNS = ['jetton_wallets.last_tx_lt', 'traces.end_lt', 'traces.start_lt'];
/** Above 2^53, odd: a double would round it. */
const PAST_DOUBLE = 2n ** 53n + 1n;

const trace = (n: number, startLt: bigint, endLt: bigint) => ({
  trace_id: hashOf(n), external_hash: hashOf(100 + n), start_lt: startLt, end_lt: endLt, start_time: NOW + n, end_time: NOW + n + 5,
  block_date: '2023-11-14', mc_seqno_start: 50_000_000 + n, mc_seqno_end: 50_000_001 + n, tx_count: 3, msg_count: 4, trace_state: 'complete', classification_state: 'ok',
});
const wallet = (n: number, lastTxLt: bigint) => ({
  jetton_wallet: `0:${n.toString(16).toUpperCase().padStart(64, '0')}`, owner: `0:${'A'.repeat(64)}`, jetton_master: `0:${'B'.repeat(64)}`,
  balance: 10n ** 30n + BigInt(n), last_tx_lt: lastTxLt, code_hash: null, data_hash: hashOf(200 + n), snapshot_time: NOW,
});
const TRACES = [trace(1, 60_000_000_000_001n, 60_000_000_000_009n), trace(2, PAST_DOUBLE, PAST_DOUBLE + 2n), trace(3, MAX_LT - 4n, MAX_LT)];
const WALLETS = [wallet(1, 0n), wallet(2, PAST_DOUBLE + 4n), wallet(3, MAX_LT)];
const COMMITS: readonly StreamCommit[] = [
  { stream: 'traces', rows: new Map([tableRows(tracesTable, TRACES)]), checkpoint: `{"lt":"${MAX_LT}"}` },
  { stream: 'jetton_wallets', rows: new Map([tableRows(jettonWalletsTable, WALLETS)]), checkpoint: '{"snapshot":"done"}' },
];

interface SinkUnderTest {
  readonly kind: 'duckdb' | 'parquet';
  place(): Promise<string>;
  open(path: string): Promise<Sink>;
  /** Marks the warehouse version 3, with its lt columns as that release wrote them. */
  downgrade(path: string): Promise<void>;
  /** Each retyped lt column as `table.column TYPE`, sorted: DuckDB's column type, or the physical types its Parquet files hold (one line per type). */
  ltTypes(path: string): Promise<string[]>;
  rows(path: string, table: AnyTable): Promise<unknown[]>;
}

const duckdb: SinkUnderTest = {
  kind: 'duckdb',
  place: async () => join(await tempDir(), 'warehouse.duckdb'),
  open: async (path) => {
    const sink = new DuckDBSink({ path, now: () => NOW });
    await sink.open(TABLES);
    return sink;
  },
  // Version 3 declared these columns UBIGINT in DuckDB, as this build does: only the version differs.
  downgrade: (path) => withDuckDB(path, {}, async (connection) => void (await connection.run("UPDATE _etl_meta SET value = '3' WHERE key = 'schema_version'"))),
  ltTypes: (path) =>
    withDuckDB(path, { access_mode: 'READ_ONLY' }, async (connection) => {
      const reader = await connection.runAndReadAll(
        `SELECT table_name || '.' || column_name || ' ' || data_type AS line FROM duckdb_columns() WHERE table_name || '.' || column_name IN (${LT_COLUMNS.map(quotedString).join(', ')}) ORDER BY line`,
      );
      return reader.getRows().map(([line]) => String(line));
    }),
  rows: (path, table) => withDuckDB(path, { access_mode: 'READ_ONLY' }, (connection) => readRows(connection, table)),
};

const parquet: SinkUnderTest = {
  kind: 'parquet',
  place: () => tempDir(),
  open: async (path) => {
    const sink = new ParquetSink({ path, now: () => NOW });
    await sink.open(TABLES);
    return sink;
  },
  downgrade: async (path) => {
    const manifest = (await readManifest(path))!;
    const tables = { ...manifest.tables };
    await withDuckDB(':memory:', {}, async (connection) => {
      for (const [name, columns] of Object.entries(RETYPED)) {
        const entry = tables[name]!;
        const files = [];
        for (const file of entry.files) {
          const absolute = join(path, file.path);
          const casts = columns.map((column) => `CAST(${quotedIdentifier(column)} AS DECIMAL(20,0)) AS ${quotedIdentifier(column)}`).join(', ');
          await connection.run(`COPY (SELECT * REPLACE (${casts}) FROM read_parquet(${quotedString(absolute)}, hive_partitioning = false)) TO ${quotedString(`${absolute}.v3`)} (FORMAT parquet)`);
          await connection.run(`COPY (FROM read_parquet(${quotedString(`${absolute}.v3`)})) TO ${quotedString(absolute)} (FORMAT parquet, PRESERVE_ORDER true)`);
          await rm(`${absolute}.v3`);
          files.push({ ...file, bytes: (await stat(absolute)).size });
        }
        tables[name] = { ...entry, files };
      }
    });
    await writeManifest(path, { ...manifest, schemaVersion: 3, tables });
  },
  ltTypes: async (path) => {
    const manifest = (await readManifest(path))!;
    return withDuckDB(':memory:', {}, async (connection) => {
      const types: string[] = [];
      for (const [table, columns] of Object.entries(RETYPED)) {
        for (const file of manifest.tables[table]!.files) {
          const reader = await connection.runAndReadAll(
            `SELECT name || ' ' || type FROM parquet_schema(${quotedString(join(path, file.path))}) WHERE name IN (${columns.map(quotedString).join(', ')}) ORDER BY name`,
          );
          types.push(...reader.getRows().map(([line]) => `${table}.${String(line)}`));
        }
      }
      return [...new Set(types)].sort();
    });
  },
  rows: async (path, table) => {
    const manifest = (await readManifest(path))!;
    const files = manifest.tables[table.name]!.files.map((file) => join(path, file.path));
    return withDuckDB(':memory:', {}, (connection) => readRows(connection, table, readParquetSql(table, files)));
  },
};

describe.each([
  { sut: duckdb, before: 'UBIGINT', after: 'UBIGINT', rewritten: [] },
  { sut: parquet, before: 'FIXED_LEN_BYTE_ARRAY', after: 'INT64', rewritten: ['traces', 'jetton_wallets'] },
])('a $sut.kind warehouse of schema version 3', ({ sut, before, after, rewritten }) => {
  it(`is migrated in place: every lt kept exactly (beyond 2^53, up to 2^63-1), the lt columns ${after}; the sink then opens and writes it`, async () => {
    const path = await sut.place();
    const sink = await sut.open(path);
    await sink.commitAll(COMMITS);
    await sink.close();
    await sut.downgrade(path);
    expect(await sut.ltTypes(path)).toEqual(LT_COLUMNS.map((column) => `${column} ${before}`));
    await expect(sut.open(path)).rejects.toThrow(SchemaVersionError);

    const migration = await migrateWarehouse(sut.kind, path);
    expect(migration).toMatchObject({ from: 3, to: 4, tables: rewritten });
    expect(await sut.ltTypes(path)).toEqual(LT_COLUMNS.map((column) => `${column} ${after}`));
    expect(await sut.rows(path, tracesTable)).toEqual(TRACES);
    expect(await sut.rows(path, jettonWalletsTable)).toEqual(WALLETS);
    expect(await migrateWarehouse(sut.kind, path)).toBeUndefined();

    const again = await sut.open(path);
    const added = trace(4, PAST_DOUBLE + 6n, PAST_DOUBLE + 8n);
    try {
      await again.commitAll([{ stream: 'traces', rows: new Map([tableRows(tracesTable, [added])]), checkpoint: `{"lt":"${MAX_LT}"}` }]);
    } finally {
      await again.close();
    }
    expect(await sut.rows(path, tracesTable)).toEqual([...TRACES, added]);
    expect(await sut.ltTypes(path)).toEqual(LT_COLUMNS.map((column) => `${column} ${after}`));
  });
});
