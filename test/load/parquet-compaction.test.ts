/**
 * ParquetSink.compact: each settled day's files of a table become one file with exactly their rows,
 * through the manifest, one commit per table; the newest day stays unless asked; a second compaction
 * changes nothing; later commits upsert into merged files as into any other.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { tableRows } from '../../src/core/stream.js';
import type { AnyTable } from '../../src/core/table.js';
import { readRows } from '../../src/load/engine/read.js';
import { readManifest } from '../../src/load/parquet/manifest.js';
import { ParquetSink } from '../../src/load/parquet/sink.js';
import type { StreamCommit } from '../../src/load/sink.js';
import { byHash, withReader } from './read-back.js';
import { DAY1, action, actions, transfer, transfers } from './tables.js';
import { useTempDir } from './temp-dir.js';

const tempDir = useTempDir('parquet-compaction');
const DAY = 86_400;

async function openSink(root: string): Promise<ParquetSink> {
  const sink = new ParquetSink({ path: root, now: () => 1_700_000_000 });
  await sink.open([transfers, actions]);
  return sink;
}

/** Commit `k` (0, 1, 2) of transfers on each of three days; the actions all in the first. */
function batch(k: number): StreamCommit {
  const rows = [0, 1, 2].map((day) => transfer(10 * day + k, { utime: DAY1 + day * DAY + k * 60, lt: BigInt(1_000_000 + 100 * day + k) }));
  const tables = [tableRows(transfers, rows)];
  if (k === 0) tables.push(tableRows(actions, [action(1, 'a'), action(2, 'a', { trace_end_utime: DAY1 + DAY })]));
  return { stream: 'transfers', rows: new Map(tables), checkpoint: `{"lt":"${1_000_200 + k}"}` };
}

const filesPerDay = (sink: ParquetSink, table: string): Record<string, number> => {
  const days: Record<string, number> = {};
  for (const file of sink.listFiles(table)) days[file.date!] = (days[file.date!] ?? 0) + 1;
  return days;
};

async function viewRows(sink: ParquetSink, table: AnyTable) {
  return withReader(async (connection) => {
    await connection.run(sink.viewsSql([table]));
    return byHash(await readRows(connection, table, table.name));
  });
}

describe('ParquetSink.compact', () => {
  it('merges each settled day into one file with the same rows, leaves the newest day, and is idempotent', async () => {
    const root = await tempDir();
    const sink = await openSink(root);
    for (const k of [0, 1, 2]) await sink.commitAll([batch(k)]);
    expect(filesPerDay(sink, 'transfers')).toEqual({ '2024-01-01': 3, '2024-01-02': 3, '2024-01-03': 3 });
    const before = { transfers: await viewRows(sink, transfers), actions: await viewRows(sink, actions) };
    const old = sink.listFiles('transfers').filter((file) => file.date !== '2024-01-03');
    const generation = (await readManifest(root))!.generation;

    const merges = await sink.compact();
    expect(merges.map((merge) => [merge.table.name, merge.files[0]!.date, merge.files.length])).toEqual([
      ['transfers', '2024-01-01', 3],
      ['transfers', '2024-01-02', 3],
    ]);
    expect(filesPerDay(sink, 'transfers')).toEqual({ '2024-01-01': 1, '2024-01-02': 1, '2024-01-03': 3 });
    expect(filesPerDay(sink, 'actions')).toEqual({ '2024-01-01': 1, '2024-01-02': 1 });
    expect(sink.listFiles('transfers').slice(0, 2).map(({ rows, clusterMin, clusterMax }) => ({ rows, clusterMin, clusterMax }))).toEqual([
      { rows: 3, clusterMin: '1000000', clusterMax: '1000002' },
      { rows: 3, clusterMin: '1000100', clusterMax: '1000102' },
    ]);
    const after = await readManifest(root);
    expect(after!.generation, 'one commit: only transfers had days to merge').toBe(generation + 1);
    expect(after!.checkpoints['transfers']?.position).toBe('{"lt":"1000202"}');
    expect({ transfers: await viewRows(sink, transfers), actions: await viewRows(sink, actions) }).toEqual(before);
    for (const file of old) await expect(readFile(file.absolutePath), file.path).rejects.toThrow(/ENOENT/);

    expect(await sink.compact(), 'a second compaction finds nothing').toEqual([]);
    expect((await readManifest(root))!.generation).toBe(generation + 1);

    await sink.commitAll([{ stream: 'transfers', rows: new Map([tableRows(transfers, [transfer(1, { utime: DAY1 + 60, lt: 1_000_001n, comment: 'again' })])]), checkpoint: 'x' }]);
    expect(filesPerDay(sink, 'transfers')['2024-01-01'], 'the merged file rewritten without the key, and the new row').toBe(2);
    expect((await viewRows(sink, transfers)).find((row) => row.tx_hash === transfer(1).tx_hash)?.comment).toBe('again');
    expect(await viewRows(sink, transfers)).toHaveLength(9);

    await sink.compact({ newestDay: true });
    expect(filesPerDay(sink, 'transfers')).toEqual({ '2024-01-01': 1, '2024-01-02': 1, '2024-01-03': 1 });
    await sink.close();
  });

  it('merges only days holding more files than maxFiles', async () => {
    const root = await tempDir();
    const sink = await openSink(root);
    for (const k of [0, 1, 2]) await sink.commitAll([batch(k)]);
    expect(await sink.compact({ maxFiles: 3 })).toEqual([]);
    expect((await sink.compact({ maxFiles: 2 })).map((merge) => merge.files[0]!.date)).toEqual(['2024-01-01', '2024-01-02']);
    await sink.close();
  });
});
