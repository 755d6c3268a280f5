/**
 * What only ParquetSink has: day partitions and their files, the Parquet types, the manifest (its
 * checkpoints, generations and views), crash leftovers. The contract both sinks hold is in
 * sink-contract.test.ts.
 */
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnyTable } from '../../src/core/table.js';
import { readRows } from '../../src/load/engine/read.js';
import { parquetGlob, readParquetSql } from '../../src/load/parquet/layout.js';
import { readManifest } from '../../src/load/parquet/manifest.js';
import { ParquetSink } from '../../src/load/parquet/sink.js';
import { tableRows } from '../../src/core/stream.js';
import type { StreamCommit } from '../../src/load/sink.js';
import { byHash, globRows, withReader } from './read-back.js';
import { BIG, MAX_LT, action, actions, day2, firstBatch, transfer, transfers } from './tables.js';
import { useTempDir } from './temp-dir.js';

const tempDir = useTempDir('parquet-sink');
const NOW = 1_700_000_000;

async function openSink(root: string, tables: readonly AnyTable[] = [transfers, actions]): Promise<ParquetSink> {
  const sink = new ParquetSink({ path: root, now: () => NOW });
  await sink.open(tables);
  return sink;
}

describe('ParquetSink', () => {
  it('writes day partitions whose date column reads back through the glob', async () => {
    const root = await tempDir();
    const sink = await openSink(root);
    await sink.commitAll([firstBatch]);
    expect(sink.listFiles('transfers').map((file) => file.path)).toEqual([
      'transfers/date=2024-01-01/part-000000000001-0000.parquet',
      'transfers/date=2024-01-02/part-000000000001-0001.parquet',
    ]);
    await sink.close();
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
    expect(stored.get('lt')).toBe('INT64 (INT_64)');
    for (const table of [transfers, actions] as AnyTable[]) {
      for (const name of table.columnNames) expect([name, stored.get(name)]).toEqual([name, table.columns[name]!.parquetType]);
    }
  });

  it('keeps checkpoints in the manifest', async () => {
    const root = await tempDir();
    const sink = await openSink(root);
    await sink.commitAll([firstBatch]);
    await sink.close();
    expect((await readManifest(root))?.checkpoints['transfers']).toEqual({ position: '{"lt":"1000003"}', updatedAt: NOW });
  });

  it('replays into a new generation of files and deletes the files it replaced', async () => {
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
  });

  it('commits several batches in one generation of files', async () => {
    const later: StreamCommit = {
      stream: 'transfers',
      rows: new Map([tableRows(transfers, [transfer(1, { comment: 'later' }), day2(4)]), tableRows(actions, [action(1, 'c')])]),
      checkpoint: '{"lt":"1000004"}',
    };
    const root = await tempDir();
    const sink = await openSink(root);
    await sink.commitAll([firstBatch, later]);
    await sink.close();
    expect((await readManifest(root))?.generation).toBe(1);
  });

  it('upserts overlapping keys by rewriting the older file without them', async () => {
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

  it('leaves no file and the same manifest after a commit that failed', async () => {
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
    await expect(sink.commitAll([bad])).rejects.toThrow(/column details: expected a string holding valid JSON/);
    expect(await readFile(join(root, '_manifest.json'), 'utf8')).toBe(before);
    expect(await readdir(root)).not.toContain('transfers');
    await sink.close();
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
});
