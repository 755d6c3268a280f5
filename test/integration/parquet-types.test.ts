/**
 * The Parquet files of a devnet sync as hyparquet reads them (a pure-JS reader, not DuckDB): every
 * column of every file is stored in a type the engines people point at a lake read (Spark, Trino/Athena,
 * BigQuery, ClickHouse): no unsigned logical type, decimals of at most 38 digits, timestamps adjusted
 * to UTC, days as DATE; and the rows equal the devnet's truth value for value.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookkeepingTables } from '../../src/core/bookkeeping.js';
import type { AnyTable, Row } from '../../src/core/table.js';
import { readManifest, type Manifest } from '../../src/load/parquet/manifest.js';
import { dataTables } from '../../src/streams/index.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult } from '../support/cli-result.js';
import { expectedWarehouse, syncedBounds } from '../support/expected-rows.js';
import { readWithHyparquet, storedTypes, type HyparquetFile } from '../support/hyparquet-read.js';
import { NO_MISMATCH, describeDiff, diffRows, mismatch } from '../support/row-diff.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { readWarehouse } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type Workspace } from '../support/workspace.js';

/** How each column kind must be stored, as hyparquet reports the file's schema. */
const STORED: Readonly<Record<string, string>> = {
  logicalTime: 'INT64 INT_64',
  int64: 'INT64 INT_64',
  int32: 'INT32 INT_32',
  uint64: 'FIXED_LEN_BYTE_ARRAY(16) DECIMAL(20,0)',
  amount: 'FIXED_LEN_BYTE_ARRAY(16) DECIMAL(38,0)',
  timestamptz: 'INT64 TIMESTAMP(MICROS, UTC)',
  date: 'INT32 DATE',
  bool: 'BOOLEAN',
  text: 'BYTE_ARRAY UTF8',
  hash: 'BYTE_ARRAY UTF8',
  rawAddress: 'BYTE_ARRAY UTF8',
  json: 'BYTE_ARRAY JSON',
  textList: 'LIST<BYTE_ARRAY UTF8>',
};

describe('Parquet files read by an independent reader (hyparquet)', () => {
  let devnet: TestDevnet;
  let work: Workspace;
  let root: string;
  let manifest: Manifest;
  const files = new Map<string, HyparquetFile[]>();
  const tables = new Map<string, AnyTable>([...dataTables, ...bookkeepingTables].map((table) => [table.name, table]));

  beforeAll(async () => {
    devnet = await startTestDevnet({ seed: 1515, blocks: 60 });
    work = await makeWorkspace('parquet-types');
    root = work.sinkPath('parquet');
    const result = await runCliInProcess(['sync', await work.pipeline({ url: devnet.url, kind: 'parquet', sinkPath: root })]);
    expect(result.code, describeResult(result)).toBe(0);
    manifest = (await readManifest(root))!;
    for (const [name, entry] of Object.entries(manifest.tables)) {
      files.set(name, await Promise.all(entry.files.map((file) => readWithHyparquet(join(root, file.path), tables.get(name)!))));
    }
  }, 120_000);

  afterAll(async () => {
    await devnet?.close();
    await work?.remove();
  });

  it('stores every column of every file as its kind says: signed INT64 lt, DECIMAL(≤38), UTC timestamps, DATE', () => {
    const checked: string[] = [];
    for (const [name, read] of files) {
      const table = tables.get(name)!;
      const want = new Map(table.columnNames.map((column) => [column, STORED[table.columns[column]!.kind]]));
      for (const file of read) expect([name, storedTypes(file.metadata)]).toEqual([name, want]);
      if (read.length > 0) checked.push(name);
    }
    expect(checked.sort()).toEqual(expect.arrayContaining(['actions', 'blocks', 'jetton_transfers', 'messages', 'transactions', 'validator_events']));
    const everyType = [...files.values()].flat().flatMap((file) => [...storedTypes(file.metadata).values()]);
    expect(everyType.filter((type) => /UINT|unsigned/.test(type))).toEqual([]);
  });

  it('holds exactly the truth, value for value (amounts and query ids beyond 2^53, instants, days)', async () => {
    const snapshot = await readWarehouse('parquet', root);
    const expected = expectedWarehouse(devnet, syncedBounds(devnet, snapshot));
    for (const [name, rows] of expected) {
      const stored: Row[] = (files.get(name) ?? []).flatMap((file) => file.rows);
      const diff = diffRows(tables.get(name)!, rows, stored);
      expect(diff.expected, `${name}: the truth has rows in the range`).toBeGreaterThan(0);
      expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
    }
    const largest = (kind: string): bigint =>
      [...expected].flatMap(([name, rows]) => {
        const table = tables.get(name)!;
        const columns = table.columnNames.filter((column) => table.columns[column]!.kind === kind);
        return rows.flatMap((row) => columns.map((column) => row[column])).filter((value): value is bigint => typeof value === 'bigint');
      }).reduce((a, b) => (b > a ? b : a), 0n);
    expect(largest('amount')).toBeGreaterThan(2n ** 53n);
    expect(largest('uint64')).toBeGreaterThan(2n ** 53n);
  });
});
