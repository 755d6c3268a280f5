import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { etlRejects, etlRuns } from '../../src/core/bookkeeping.js';
import { int64 } from '../../src/core/column-kinds.js';
import { LockedError } from '../../src/core/errors.js';
import { RowValueError, SchemaDriftError, SchemaVersionError } from '../../src/core/schema-errors.js';
import { defineTable, type AnyTable } from '../../src/core/table.js';
import { readRows } from '../../src/load/duckdb-read.js';
import { LOCK_FILE, parquetGlob, readParquetSql } from '../../src/load/parquet-layout.js';
import { readManifest } from '../../src/load/parquet-manifest.js';
import { ParquetSink } from '../../src/load/parquet-sink.js';
import { tableRows } from '../../src/core/stream.js';
import type { StreamCommit } from '../../src/load/sink.js';
import { holdDuckDBFile } from '../support/lock-holder.js';
import { BIG, DAY1, MAX_LT, action, actions, hashOf, transfer, transfers, type TransferRow } from './tables.js';
import { useTempDir } from './temp-dir.js';

const tempDir = useTempDir('parquet-sink');
const NOW = 1_700_000_000;

async function openSink(root: string, tables: readonly AnyTable[] = [transfers, actions]): Promise<ParquetSink> {
  const sink = new ParquetSink({ path: root, now: () => NOW });
  await sink.open(tables);
  return sink;
}

/** Runs `use` with a fresh in-memory DuckDB, as an analyst's notebook would read the folder. */
async function withReader<T>(use: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    return await use(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Every row of a table read through the folder glob, as the design promises analysts. */
async function globRows<T extends AnyTable>(root: string, table: T) {
  return withReader((connection) => readRows(connection, table, readParquetSql(table, [parquetGlob(root, table.name)])));
}

function byHash<T extends Readonly<Record<string, unknown>>>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => (String(a['tx_hash']) < String(b['tx_hash']) ? -1 : 1));
}

const day2 = (n: number, overrides: Partial<TransferRow> = {}): TransferRow =>
  transfer(n, { utime: DAY1 + 86_400 + n, ...overrides });

const firstBatch: StreamCommit = {
  stream: 'transfers',
  rows: new Map([
    tableRows(transfers, [
      transfer(1),
      transfer(2, { lt: MAX_LT, amount: -(10n ** 38n - 1n) }),
      day2(3, { amount: 10n ** 38n - 1n, source: null }),
    ]),
    tableRows(actions, [action(1, 'a'), action(1, 'b', { accounts: [] }), action(2, 'a')]),
  ]),
  checkpoint: '{"lt":"1000003"}',
};

describe('ParquetSink', () => {
  it('writes day partitions whose values read back exactly through the glob', async () => {
    const root = await tempDir();
    const sink = await openSink(root);
    await sink.commitAll([firstBatch]);
    expect(sink.listFiles('transfers').map((file) => file.path)).toEqual([
      'transfers/date=2024-01-01/part-000000000001-0000.parquet',
      'transfers/date=2024-01-02/part-000000000001-0001.parquet',
    ]);
    await sink.close();
    expect(await globRows(root, transfers)).toEqual(byHash(firstBatch.rows.get('transfers')!));
    expect(await globRows(root, actions)).toHaveLength(3);
    const dates = await withReader(async (connection) =>
      (await connection.runAndReadAll(
        `SELECT amount::VARCHAR, lt::VARCHAR, date::VARCHAR FROM ${readParquetSql(transfers, [parquetGlob(root, 'transfers')])} ORDER BY lt`,
      )).getRows(),
    );
    expect(dates).toEqual([
      [String(BIG + 1n), '1000001', '2024-01-01'],
      [String(10n ** 38n - 1n), '1000003', '2024-01-02'],
      [String(-(10n ** 38n - 1n)), String(MAX_LT), '2024-01-01'],
    ]);
  });

  it('stores each kind in Parquet exactly as its parquetType declares (DECIMAL, never DOUBLE)', async () => {
    const root = await tempDir();
    const sink = await openSink(root);
    await sink.commitAll([firstBatch]);
    const files = [...sink.listFiles('transfers'), ...sink.listFiles('actions')].slice(0, 3);
    await sink.close();
    const stored = await withReader(async (connection) => {
      const rendered = new Map<string, string>();
      for (const file of [files[0]!, files[2]!]) {
        const reader = await connection.runAndReadAll(
          `SELECT name, type, type_length, converted_type, precision, scale, logical_type FROM parquet_schema('${file.absolutePath}')`,
        );
        let listColumn: string | undefined;
        for (const [name, type, length, converted, precision, scale, logical] of reader.getRows()) {
          if (converted === 'LIST') listColumn = String(name);
          if (type === null) continue;
          const physical = length === null ? String(type) : `${String(type)}(${String(length)})`;
          let annotation = converted === null ? '' : String(converted);
          if (converted === 'DECIMAL') annotation = `DECIMAL(${String(precision)},${String(scale)})`;
          if (String(logical).includes('isAdjustedToUTC=1')) annotation += ', UTC';
          const text = annotation === '' ? physical : `${physical} (${annotation})`;
          if (name === 'element' && listColumn !== undefined) rendered.set(listColumn, `LIST<${text}>`);
          else rendered.set(String(name), text);
        }
      }
      return rendered;
    });
    expect(stored.get('amount')).toBe('FIXED_LEN_BYTE_ARRAY(16) (DECIMAL(38,0))');
    expect(stored.get('lt')).toBe('INT64 (UINT_64)');
    for (const table of [transfers, actions] as AnyTable[]) {
      for (const name of table.columnNames) expect([name, stored.get(name)]).toEqual([name, table.columns[name]!.parquetType]);
    }
  });

  it('keeps checkpoints in the manifest, across reopen', async () => {
    const root = await tempDir();
    const sink = await openSink(root);
    expect(await sink.readCheckpoint('transfers')).toBeUndefined();
    await sink.commitAll([firstBatch]);
    expect(await sink.readCheckpoint('transfers')).toBe('{"lt":"1000003"}');
    await sink.close();
    const again = await openSink(root);
    expect(await again.readCheckpoint('transfers')).toBe('{"lt":"1000003"}');
    await again.close();
    expect((await readManifest(root))?.checkpoints['transfers']).toEqual({ position: '{"lt":"1000003"}', updatedAt: NOW });
  });

  it('replays idempotently: the glob shows no duplicates and the replaced files are gone', async () => {
    const root = await tempDir();
    const sink = await openSink(root);
    await sink.commitAll([firstBatch]);
    await sink.commitAll([firstBatch]);
    const files = sink.listFiles('transfers').map((file) => file.path);
    await sink.close();
    expect(files).toEqual([
      'transfers/date=2024-01-01/part-000000000002-0000.parquet',
      'transfers/date=2024-01-02/part-000000000002-0001.parquet',
    ]);
    expect(await readdir(join(root, 'transfers/date=2024-01-01'))).toEqual(['part-000000000002-0000.parquet']);
    expect(await globRows(root, transfers)).toEqual(byHash(firstBatch.rows.get('transfers')!));
    expect(await globRows(root, actions)).toHaveLength(3);
  });

  it('commits several batches as one, equal to committing them one after another, in one generation of files', async () => {
    const later: StreamCommit = {
      stream: 'transfers',
      rows: new Map([tableRows(transfers, [transfer(1, { comment: 'later' }), day2(4)]), tableRows(actions, [action(1, 'c')])]),
      checkpoint: '{"lt":"1000004"}',
    };
    const state = async (root: string, sink: ParquetSink): Promise<unknown> => [
      byHash(await globRows(root, transfers)),
      await globRows(root, actions),
      await sink.readCheckpoint('transfers'),
    ];
    const separately = join(await tempDir(), 'separately');
    const one = await openSink(separately);
    for (const batch of [firstBatch, later]) await one.commitAll([batch]);
    const expected = await state(separately, one);
    await one.close();
    const together = join(await tempDir(), 'together');
    const sink = await openSink(together);
    await sink.commitAll([firstBatch, later]);
    expect(await state(together, sink)).toEqual(expected);
    expect((await readManifest(together))?.generation).toBe(1);
    await sink.close();
    expect((expected as unknown[][])[1]!.map((row) => (row as { action_id: string }).action_id).sort()).toEqual(['a', 'c']);
  });

  it('upserts overlapping keys: an older file is rewritten without them', async () => {
    const root = await tempDir();
    const sink = await openSink(root);
    const rows = (ns: number[], comment: string) => ns.map((n) => transfer(n, { comment }));
    await sink.commitAll([{ stream: 't', rows: new Map([tableRows(transfers, rows([1, 2, 3, 4], 'old'))]), checkpoint: '1' }]);
    await sink.commitAll([{ stream: 't', rows: new Map([tableRows(transfers, rows([3, 4, 5, 6], 'new'))]), checkpoint: '2' }]);
    expect(sink.listFiles('transfers').map((file) => [file.path, file.rows])).toEqual([
      ['transfers/date=2024-01-01/part-000000000002-0000.parquet', 2],
      ['transfers/date=2024-01-01/part-000000000002-0001.parquet', 4],
    ]);
    await sink.close();
    const stored = await globRows(root, transfers);
    expect(stored.map((row) => [row.tx_hash, row.comment])).toEqual(
      byHash([...rows([1, 2], 'old'), ...rows([3, 4, 5, 6], 'new')]).map((row) => [row.tx_hash, row.comment]),
    );
  });

  it('leaves files alone whose lt range cannot hold the new keys', async () => {
    const root = await tempDir();
    const sink = await openSink(root);
    await sink.commitAll([{ stream: 't', rows: new Map([tableRows(transfers, [transfer(1), transfer(2)])]), checkpoint: '1' }]);
    const [first] = sink.listFiles('transfers');
    await sink.commitAll([{ stream: 't', rows: new Map([tableRows(transfers, [transfer(3)])]), checkpoint: '2' }]);
    expect(sink.listFiles('transfers').map((file) => file.path)).toEqual([
      first!.path,
      'transfers/date=2024-01-01/part-000000000002-0000.parquet',
    ]);
    expect(first).toMatchObject({ clusterMin: '1000001', clusterMax: '1000002', rows: 2 });
    await sink.close();
  });

  it('replaces by trace: old action ids disappear, also for a trace that lost all its actions', async () => {
    const root = await tempDir();
    const sink = await openSink(root);
    await sink.commitAll([firstBatch]);
    await sink.commitAll([{ stream: 'actions', rows: new Map([tableRows(actions, [action(1, 'c')])]), checkpoint: '2' }]);
    await sink.close();
    expect((await globRows(root, actions)).map((row) => [row.trace_id, row.action_id])).toEqual([
      [hashOf(1), 'c'],
      [hashOf(2), 'a'],
    ]);
    const again = await openSink(root);
    await again.commitAll([{
      stream: 'actions',
      rows: new Map(),
      replace: [{ table: 'actions', column: 'trace_id', values: [hashOf(2)] }],
      checkpoint: '3',
    }]);
    await again.close();
    expect((await globRows(root, actions)).map((row) => row.action_id)).toEqual(['c']);
  });

  it('is atomic: a row violating its kind midway leaves no file, no checkpoint, the same manifest', async () => {
    const root = await tempDir();
    const sink = await openSink(root);
    const before = await readFile(join(root, '_manifest.json'), 'utf8');
    const bad: StreamCommit = {
      stream: 'transfers',
      rows: new Map([
        tableRows(transfers, [transfer(1)]),
        tableRows(actions, [action(1, 'a'), action(1, 'b', { details: '{not json' })]),
      ]),
      checkpoint: 'never',
    };
    await expect(sink.commitAll([bad])).rejects.toThrow(RowValueError);
    await expect(sink.commitAll([bad])).rejects.toThrow(/Table actions, row 1 .*column details: expected a string holding valid JSON/);
    expect(await sink.readCheckpoint('transfers')).toBeUndefined();
    expect(await readFile(join(root, '_manifest.json'), 'utf8')).toBe(before);
    expect(await readdir(root)).not.toContain('transfers');
    await sink.commitAll([firstBatch]);
    await sink.close();
    expect(await globRows(root, transfers)).toHaveLength(3);
  });

  it('deletes crash leftovers (files the manifest does not list) on open, and leaves foreign files alone', async () => {
    const root = await tempDir();
    const sink = await openSink(root);
    await sink.commitAll([firstBatch]);
    const [listed] = sink.listFiles('transfers');
    await sink.close();
    const folder = join(root, 'transfers/date=2024-01-01');
    await copyFile(listed!.absolutePath, join(folder, 'part-000000000002-0000.parquet'));
    await writeFile(join(folder, 'part-000000000002-0001.parquet.tmp'), 'half');
    await mkdir(join(root, 'transfers/date=2030-01-01'));
    await copyFile(listed!.absolutePath, join(root, 'transfers/date=2030-01-01/part-000000000002-0002.parquet'));
    await writeFile(join(root, 'transfers/NOTES.txt'), 'mine');
    expect(await globRows(root, transfers)).toHaveLength(3 + 2 + 2);

    const again = await openSink(root);
    await again.close();
    expect(await readdir(folder)).toEqual([listed!.path.split('/').at(-1)]);
    expect(await readdir(join(root, 'transfers'))).toEqual(['NOTES.txt', 'date=2024-01-01', 'date=2024-01-02']);
    expect(await globRows(root, transfers)).toEqual(byHash(firstBatch.rows.get('transfers')!));
  });

  it('offers views over exactly the listed files, typed even when a table has none', async () => {
    const root = await tempDir();
    const sink = await openSink(root);
    await sink.commitAll([{ stream: 't', rows: new Map([tableRows(transfers, [transfer(1)])]), checkpoint: '1' }]);
    const views = sink.viewsSql();
    const listed = sink.listFiles('transfers');
    await sink.close();
    await copyFile(listed[0]!.absolutePath, join(root, 'transfers/date=2024-01-01/orphan.parquet'));
    await withReader(async (connection) => {
      await connection.run(views);
      expect(await readRows(connection, transfers)).toEqual([transfer(1)]);
      expect(await readRows(connection, actions)).toEqual([]);
      const types = await connection.runAndReadAll(`SELECT typeof(amount), typeof(date) FROM transfers`);
      expect(types.getRows()).toEqual([['DECIMAL(38,0)', 'DATE']]);
    });
  });

  it('stores rejects once per distinct item and runs by id, as Parquet tables', async () => {
    const root = await tempDir();
    const sink = await openSink(root);
    const reject = { endpoint: '/api/v3/actions', params: '{"limit":1000}', raw: '{"x":1}', reason: 'bad' };
    await sink.commitAll([{ ...firstBatch, rejects: [reject, reject] }]);
    await sink.commitAll([{ ...firstBatch, rejects: [reject] }]);
    const run = {
      run_id: 'r1', command: 'sync', started_at: NOW, ended_at: null, status: 'running',
      rows: '{}', requests: '{}', retries: 0, error: null,
    };
    await sink.recordRun(run);
    await sink.recordRun({ ...run, ended_at: NOW + 5, status: 'ok' });
    await sink.close();
    expect(await globRows(root, etlRejects)).toEqual([
      { ...reject, stream: 'transfers', reject_id: expect.stringMatching(/^[0-9a-f]{64}$/), seen_at: NOW },
    ]);
    expect(await globRows(root, etlRuns)).toEqual([{ ...run, ended_at: NOW + 5, status: 'ok' }]);
  });

  it('fails a second writer process fast with LockedError', async () => {
    const root = await tempDir();
    const holder = await holdDuckDBFile(join(root, LOCK_FILE));
    try {
      const error = await new ParquetSink({ path: root }).open([transfers]).then(() => undefined, (err: unknown) => err);
      expect(error).toBeInstanceOf(LockedError);
      expect((error as Error).message).toContain(`${root}/${LOCK_FILE} is locked by process ${holder.pid}`);
    } finally {
      await holder.release();
    }
  });

  it('detects schema drift against the columns the manifest recorded', async () => {
    const root = await tempDir();
    const drifted = defineTable({ ...transfers, columns: { ...transfers.columns, amount: int64 } });
    await (await openSink(root, [drifted])).close();
    const error = await openSink(root, [transfers]).then(() => undefined, (err: unknown) => err);
    expect(error).toBeInstanceOf(SchemaDriftError);
    expect((error as Error).message).toContain('Table transfers in');
    expect((error as Error).message).toContain('column amount is BIGINT NOT NULL, expected DECIMAL(38,0) NOT NULL');
  });

  it('refuses a folder written by another schema version', async () => {
    const root = await tempDir();
    const old = new ParquetSink({ path: root, schemaVersion: 0 });
    await old.open([transfers]);
    await old.close();
    await expect(openSink(root)).rejects.toThrow(SchemaVersionError);
  });
});
