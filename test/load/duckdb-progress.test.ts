/**
 * The progress a DuckDB sink publishes beside its file for `status` (src/load/duckdb-progress.ts):
 * from the run's `running` record on, after each commit that returned and never for one that did not,
 * what the file then holds; removed once the sink has closed the file; read back only for the
 * process that holds the file.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { progressPath, readProgress, type DuckDBProgress } from '../../src/load/duckdb/progress.js';
import { DuckDBSink } from '../../src/load/duckdb/sink.js';
import type { RunRecord } from '../../src/load/sink.js';
import { firstBatch, transfer, transfers, actions } from './tables.js';
import { useTempDir } from './temp-dir.js';

const tempDir = useTempDir('duckdb-progress');
const NOW = 1_700_000_000;
const RUN: RunRecord = {
  run_id: 'r1', command: 'backfill', started_at: NOW - 5, ended_at: null, status: 'running',
  rows: '{}', rows_replaced: '{}', requests: '{}', retries: 0, error: null, tip_seqno: null, tip_time: null,
};

async function published(path: string): Promise<DuckDBProgress> {
  return JSON.parse(await readFile(progressPath(path), 'utf8')) as DuckDBProgress;
}

async function checkpointRows(sink: DuckDBSink): Promise<Record<string, string>> {
  return Object.fromEntries(await sink.readCheckpoints());
}

describe('the progress file of a DuckDB sink', () => {
  it('follows the commits that returned, as the file holds them, and is removed once the file is closed', async () => {
    const path = join(await tempDir(), 'w.duckdb');
    let now = NOW;
    const sink = new DuckDBSink({ path, now: () => now, publishProgress: true });
    await sink.open([transfers, actions]);
    try {
      await sink.commitAll([firstBatch]);
      // Nothing before the run's record: a sink that runs no run (a migration) publishes nothing.
      expect(existsSync(progressPath(path))).toBe(false);
      await sink.recordRun(RUN);
      const begun = await published(path);
      expect(begun).toEqual({ run_id: 'r1', pid: process.pid, command: 'backfill', started_at: NOW - 5, committed_at: NOW, checkpoints: await checkpointRows(sink), rows: {}, rows_replaced: {} });
      expect(await readProgress(path, process.pid)).toEqual(begun);

      now += 7;
      const second = { ...firstBatch, checkpoint: '{"lt":"1000010"}', rows: new Map([['transfers', [transfer(1), transfer(4), transfer(5)]]]) };
      await sink.commitAll([second, { ...second, rows: new Map([['transfers', [transfer(5), transfer(6)]]]), checkpoint: '{"lt":"1000020"}' }]);
      const after = await published(path);
      expect(after.checkpoints).toEqual(await checkpointRows(sink));
      expect(after.checkpoints.transfers).toBe('{"lt":"1000020"}');
      // transfer 1 was stored, transfer 5 written twice in the group: 2 replaced; 4, 5 and 6 are new.
      expect([after.committed_at, after.rows, after.rows_replaced]).toEqual([NOW + 7, { transfers: 3 }, { transfers: 2 }]);

      // A commit that fails leaves the file as of the last one that returned.
      await sink.connection.run('DROP TABLE actions');
      await expect(sink.commitAll([{ ...firstBatch, checkpoint: '{"lt":"1000030"}' }])).rejects.toThrow();
      expect(await published(path)).toEqual(after);
      expect(await checkpointRows(sink)).toEqual(after.checkpoints);
    } finally {
      await sink.close();
    }
    expect(existsSync(progressPath(path))).toBe(false);
  });

  it('is read back only for the process that holds the file: another pid, or none alive, is stale', async () => {
    const path = join(await tempDir(), 'w.duckdb');
    const sink = new DuckDBSink({ path, now: () => NOW, publishProgress: true });
    await sink.open([transfers]);
    try {
      await sink.recordRun(RUN);
      expect((await readProgress(path, process.pid))?.run_id).toBe('r1');
      expect(await readProgress(path, process.pid + 1)).toBeUndefined();
      // DuckDB did not name the holder: a live pid counts.
      expect((await readProgress(path, undefined))?.pid).toBe(process.pid);
    } finally {
      await sink.close();
    }
    expect(await readProgress(path, process.pid)).toBeUndefined();
  });
});
