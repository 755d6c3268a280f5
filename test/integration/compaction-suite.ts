/**
 * `chain-etl compact` from the user's side: after several syncs every table
 * and day holds one file with exactly the truth's rows; a second compaction changes nothing; a kill -9
 * at any point of a compaction leaves a warehouse equal to the truth that the next one finishes; a
 * reader of the manifest during a compaction reads exactly the rows; a sync compacts on its own once
 * a day holds more than `sink.compact_after_files` files. test/integration/compaction.test.ts runs it
 * with a kill at the first generation; test/chaos/compaction-kill.chaos.ts kills at the third. The
 * killed compaction and the one a reader watches are the binary as a child process; the others run
 * in process.
 */
import { cpSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams as registry } from '../../src/streams/index.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult, type CliResult } from '../support/cli-result.js';
import { spawnCli } from '../support/cli.js';
import { expectedWarehouse, syncedBounds } from '../support/expected-rows.js';
import { NO_MISMATCH, describeDiff, diffWarehouse, mismatch } from '../support/row-diff.js';
import { sleep } from '../support/sleep.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { readWarehouse, type Snapshot } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type Workspace } from '../support/workspace.js';

const SYNCS = 4;

export interface CompactSuite {
  /** The generations (after the warehouse's) at whose first file a compaction is killed. */
  readonly killAt: readonly number[];
  /** Only the kills (the chaos run's share). @default false */
  readonly killsOnly?: boolean;
}

/** The suite over one devnet and a warehouse after SYNCS syncs, never compacted: each test compacts a copy. */
export function describeCompact(suite: CompactSuite): void {
  describe('chain-etl compact', { timeout: 180_000 }, () => {
    let devnet: TestDevnet;
    let work: Workspace;
    /** A warehouse after SYNCS syncs, never compacted: each test compacts a copy. */
    let synced: string;

    /** Writes a pipeline over `sinkPath` with the given sink settings; returns its path. */
    const pipelineFor = async (sinkPath: string, sink: { retain?: number; compactAfterFiles: number }, streams?: readonly string[]): Promise<string> => {
      const path = await work.pipeline({ url: devnet.url, kind: 'parquet', sinkPath, streams, name: `${sinkPath.split('/').at(-1)}.yaml`, retainSupersededMinutes: sink.retain ?? 0 });
      const text = await readFile(path, 'utf8');
      await writeFile(path, text.replace(/retain_superseded_minutes: (\d+) \}/, `retain_superseded_minutes: $1, compact_after_files: ${sink.compactAfterFiles} }`));
      return path;
    };

    const copyOfSynced = async (label: string, sink: { retain?: number } = {}): Promise<{ path: string; pipeline: string }> => {
      const path = work.sinkPath('parquet', label);
      cpSync(synced, path, { recursive: true });
      return { path, pipeline: await pipelineFor(path, { ...sink, compactAfterFiles: 0 }) };
    };

    const compact = (pipeline: string, ...flags: string[]): Promise<CliResult> => runCliInProcess(['compact', pipeline, ...flags]);

    /** Every table of `streams` (default: all) equals the truth up to the checkpoints, through the manifest and the glob. */
    const expectEqualsTruth = (snapshot: Snapshot, label: string, streams?: readonly string[]): void => {
      const tables = streams === undefined ? undefined : new Set(registry.filter((stream) => streams.includes(stream.name)).flatMap((stream) => stream.tables.map((table) => table.name)));
      const expected = new Map([...expectedWarehouse(devnet, syncedBounds(devnet, snapshot))].filter(([table]) => tables?.has(table) ?? true));
      const sources: [string, ReadonlyMap<string, unknown[]>][] = [['manifest', snapshot.tables]];
      if (snapshot.glob !== undefined) sources.push(['glob', snapshot.glob]);
      for (const [source, tables] of sources) {
        for (const diff of diffWarehouse(expected, tables as never)) {
          expect(diff.expected, `${label} ${source} ${diff.table}: the truth has rows`).toBeGreaterThan(0);
          expect(mismatch(diff), `${label} ${source}: ${describeDiff(diff)}`).toEqual(NO_MISMATCH);
        }
      }
    };

    /** Files per table and day that the manifest lists, e.g. `{ transactions: { '2026-01-01': 4 } }`. */
    const filesPerDay = (snapshot: Snapshot): Record<string, Record<string, number>> => {
      const days: Record<string, Record<string, number>> = {};
      for (const [table, entry] of Object.entries(snapshot.manifest!.tables)) {
        for (const file of entry.files) {
          const day = file.date ?? 'all';
          days[table] = { ...days[table], [day]: (days[table]?.[day] ?? 0) + 1 };
        }
      }
      return days;
    };
    const most = (snapshot: Snapshot, tables?: readonly string[]): number =>
      Math.max(...Object.entries(filesPerDay(snapshot)).filter(([table]) => tables?.includes(table) ?? true).flatMap(([, days]) => Object.values(days)));

    beforeAll(async () => {
      devnet = await startTestDevnet({ seed: 2626, blocks: 60 });
      work = await makeWorkspace('compaction');
      synced = work.sinkPath('parquet', 'synced');
      const pipeline = await pipelineFor(synced, { compactAfterFiles: 0 });
      for (let run = 0; run < SYNCS; run += 1) {
        if (run > 0) devnet.grow(15);
        const result = await runCliInProcess(['sync', pipeline]);
        expect(result.code, describeResult(result)).toBe(0);
      }
    }, 180_000);

    afterAll(async () => {
      await devnet?.close();
      await work?.remove();
    });

    it.skipIf(suite.killsOnly)('leaves one file per table and day with the truth\'s rows; the newest day only with --all-days; twice is once', async () => {
      const { path, pipeline } = await copyOfSynced('once');
      const before = await readWarehouse('parquet', path);
      expect(most(before, ['transactions', 'messages']), 'the syncs left several files a day').toBeGreaterThanOrEqual(SYNCS);

      const settled = await compact(pipeline);
      expect(settled.code, describeResult(settled)).toBe(0);
      expect(settled.stdout + settled.stderr).toBe('');
      const afterSettled = await readWarehouse('parquet', path);
      expect(filesPerDay(afterSettled)['transactions'], 'the devnet chain has one day, the newest: left as it is').toEqual(filesPerDay(before)['transactions']);
      expect(filesPerDay(afterSettled)['addresses'], 'an unpartitioned table is merged whole').toEqual({ all: 1 });

      const all = await compact(pipeline, '--all-days');
      expect(all.code, describeResult(all)).toBe(0);
      const after = await readWarehouse('parquet', path);
      expect(most(after)).toBe(1);
      expectEqualsTruth(after, 'after compact');
      expect(after.checkpoints).toEqual(before.checkpoints);
      expect(after.files!.onDisk.filter((file) => !after.files!.listed.includes(file)), 'superseded files deleted (retention 0)').toEqual([]);

      const again = await compact(pipeline, '--all-days');
      expect(again.code, describeResult(again)).toBe(0);
      expect((await readWarehouse('parquet', path)).manifest!.generation, 'nothing left to merge: no commit').toBe(after.manifest!.generation);
    });

    it.each(suite.killAt)('kill -9 once generation +%i appears: the warehouse equals the truth, and the next compact finishes', async (step) => {
      const { path, pipeline } = await copyOfSynced(`kill-${step}`);
      const generation = (await readWarehouse('parquet', path, { glob: false })).manifest!.generation;
      const marker = `part-${String(generation + step).padStart(12, '0')}-`;
      const run = spawnCli(['compact', pipeline, '--all-days'], { cwd: work.dir });
      let ended = false;
      void run.done.finally(() => (ended = true));
      while (!ended && !filesUnder(path).some((name) => name.startsWith(marker))) await sleep(1);
      run.child.kill('SIGKILL');
      const killed = await run.done;
      expect(killed.signal, `killed mid-compaction, not after it: ${describeResult(killed)}`).toBe('SIGKILL');

      const left = await readWarehouse('parquet', path);
      expect(left.manifest!.generation).toBeGreaterThanOrEqual(generation + step - 1);
      expectEqualsTruth({ ...left, glob: undefined }, `after kill at +${step}`);

      const next = await compact(pipeline, '--all-days');
      expect(next.code, describeResult(next)).toBe(0);
      const done = await readWarehouse('parquet', path);
      expect(most(done)).toBe(1);
      expectEqualsTruth(done, `after the next compact (+${step})`);
    });

    it.skipIf(suite.killsOnly)('a reader of the manifest during a compaction reads exactly the rows, every time', async () => {
      const { path, pipeline } = await copyOfSynced('reader', { retain: 10 });
      const run = spawnCli(['compact', pipeline, '--all-days'], { cwd: work.dir });
      let ended = false;
      void run.done.finally(() => (ended = true));
      let reads = 0;
      while (!ended) {
        const snapshot = await readWarehouse('parquet', path, { glob: false });
        expectEqualsTruth(snapshot, `read ${reads}`);
        reads += 1;
      }
      const result = await run.done;
      expect(result.code, describeResult(result)).toBe(0);
      expect(reads).toBeGreaterThan(0);
      const after = await readWarehouse('parquet', path, { glob: false });
      expect(most(after)).toBe(1);
      expectEqualsTruth(after, 'after');
    });

    it.skipIf(suite.killsOnly)('sync compacts on its own once a settled day holds more files than sink.compact_after_files', async () => {
      const off = work.sinkPath('parquet', 'auto-off');
      const auto = work.sinkPath('parquet', 'auto');
      // compact_after_files 1: how many files the syncs leave depends on how pages group into commits and
      // which files an upsert rewrites, so a larger threshold may never be crossed. One stream: a sync
      // compacts every table alike, and the eight syncs of every stream took 40 s.
      const light = ['transactions'];
      const pipelines = [await pipelineFor(off, { compactAfterFiles: 0 }, light), await pipelineFor(auto, { compactAfterFiles: 1 }, light)];
      const counts: [number, number][] = [];
      for (let run = 0; run < 4; run += 1) {
        if (run > 0) devnet.grow(15);
        for (const pipeline of pipelines) {
          const result = await runCliInProcess(['sync', pipeline]);
          expect(result.code, describeResult(result)).toBe(0);
        }
        const [withoutIt, withIt] = await Promise.all([off, auto].map((path) => readWarehouse('parquet', path, { glob: false })));
        counts.push([filesPerDay(withoutIt!)['addresses']!['all']!, filesPerDay(withIt!)['addresses']!['all']!]);
      }
      expect(Math.max(...counts.map(([withoutIt]) => withoutIt)), `the same syncs without it leave more files (${JSON.stringify(counts)})`).toBeGreaterThan(1);
      expect(Math.max(...counts.map(([, withIt]) => withIt)), `never more than 1 file in a settled group (${JSON.stringify(counts)})`).toBeLessThanOrEqual(1);
      const last = await readWarehouse('parquet', auto);
      // Each of the four syncs commits to the newest day; how pages group into commits depends on timing.
      const [newestDay, newestFiles] = Object.entries(filesPerDay(last)['transactions']!).sort(([a], [b]) => a.localeCompare(b)).at(-1)!;
      expect(newestFiles, `the newest day (${newestDay}) is not merged by a sync`).toBeGreaterThan(1);
      expectEqualsTruth(last, 'after a sync compacted', light);
    });
  });
}

/** File names (not paths) under `root`, recursively. */
function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name);
}
