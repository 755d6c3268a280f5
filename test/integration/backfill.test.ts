/**
 * `chain-etl backfill` against a devnet: a fixed masterchain range equals the devnet truth for
 * exactly that range, for both sinks; usage errors exit 2 with one line; SIGINT exits 130 and the
 * same command resumes; kill -9 at seeded random moments never leaves the warehouse inconsistent,
 * and restarts converge to the truth (Parquet: no duplicate keys, no file outside the manifest).
 * Runs that are killed or interrupted are the binary as a child process; the others run in process.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '../../src/streams/index.js';
import { positionTables } from '../support/position-tables.js';
import { ABANDONED_RUN_ERROR } from '../../src/cli/abandoned-runs.js';
import type { StreamDefinition } from '../../src/core/stream.js';
import type { Row } from '../../src/core/table.js';
import { ensureBuilt } from '../support/build.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { addressProblems } from '../support/address-check.js';
import { mcBlock, positionAt, type Bounds } from '../support/chain-points.js';
import { spawnCli, whileRunning } from '../support/cli.js';
import { describeResult, messageLines } from '../support/cli-result.js';
import { expectedWarehouse } from '../support/expected-rows.js';
import { NO_MISMATCH, describeDiff, diffRows, diffSnapshots, diffWarehouse, mismatch, tableNamed } from '../support/row-diff.js';
import { seededRandom } from '../support/seeded-random.js';
import { sleep } from '../support/sleep.js';
import { FIRST_MC, startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { readWarehouse, type Snapshot } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';

const SEED = 9001;
/** Just past the range's end block. */
const BLOCKS = 310;
const TO_MC = FIRST_MC + 300;
const RANGE = ['--from', `mc:${FIRST_MC}`, '--to', `mc:${TO_MC}`] as const;

/** Answers after 30 ms, so that runs at a low pipeline rps last several seconds. */
let devnet: TestDevnet;
let work: Workspace;

/** The range's bounds on each axis: [start of block FIRST_MC, start of block TO_MC − 1]. */
function boundsOf(devnet: TestDevnet): (stream: StreamDefinition) => Bounds {
  const from = mcBlock(devnet, FIRST_MC);
  const to = mcBlock(devnet, TO_MC);
  return (stream) => ({ from: positionAt(from, stream), to: positionAt(to, stream) - 1n });
}

/** The finished backfill: every table equals the truth for the range, checkpoints at the range's end. */
function expectBackfilled(devnet: TestDevnet, snapshot: Snapshot): void {
  const bounds = boundsOf(devnet);
  const expected = expectedWarehouse(devnet, bounds);
  const sources: [string, ReadonlyMap<string, Row[]>][] = [['tables', snapshot.tables]];
  if (snapshot.glob !== undefined) sources.push(['parquet glob', snapshot.glob]);
  for (const [label, tables] of sources) {
    for (const diff of diffWarehouse(expected, tables)) {
      expect(diff.expected, `${label} ${diff.table}: the truth has rows in the range`).toBeGreaterThan(0);
      expect(mismatch(diff), `${label}: ${describeDiff(diff)}`).toEqual(NO_MISMATCH);
    }
  }
  // The stream's checkpoint covers exactly the range, and a sync would continue after it.
  for (const stream of streams) expect(snapshot.covered.get(stream.name), stream.name).toEqual([bounds(stream)]);
  for (const stream of streams) expect(snapshot.checkpoints.get(stream.name), stream.name).toBe(bounds(stream).to);
  expect(addressProblems(devnet, snapshot.tables.get('addresses')!)).toEqual([]);
  expect(snapshot.rejects).toBe(0);
  if (snapshot.files !== undefined) expect(snapshot.files.onDisk).toEqual([...snapshot.files.listed].sort());
}

/**
 * A warehouse left by an interrupted or killed run: nothing outside the range or different from the
 * truth, and everything up to each stream's checkpoint present. Returns how far each stream got.
 */
function expectConsistentPrefix(devnet: TestDevnet, snapshot: Snapshot): Map<string, bigint | undefined> {
  const bounds = boundsOf(devnet);
  const whole = expectedWarehouse(devnet, bounds);
  const reached = new Map<string, bigint | undefined>();
  const prefix = expectedWarehouse(devnet, (stream) => {
    const checkpoint = snapshot.checkpoints.get(stream.name);
    reached.set(stream.name, checkpoint);
    return { from: bounds(stream).from, to: checkpoint ?? bounds(stream).from - 1n };
  });
  for (const diff of diffWarehouse(whole, snapshot.tables)) {
    expect({ extra: diff.extra, changed: diff.changed, duplicates: diff.duplicates }, describeDiff(diff)).toEqual({ extra: 0, changed: 0, duplicates: 0 });
  }
  for (const [name, rows] of prefix) {
    const diff = diffRows(tableNamed(name), rows, snapshot.tables.get(name)!);
    expect(diff.missing, `below the checkpoint: ${describeDiff(diff)}`).toBe(0);
  }
  return reached;
}

beforeAll(async () => {
  ensureBuilt();
  devnet = await startTestDevnet({ seed: SEED, blocks: BLOCKS, latencyMs: 30 });
  expect(devnet.view.indexedSeqno).toBe(FIRST_MC + BLOCKS - 1);
  work = await makeWorkspace('backfill');
  // Renders the truth once (the devnet caches what it renders, so the runs below are served faster).
  expectedWarehouse(devnet, boundsOf(devnet));
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

describe.each<SinkKind>(['duckdb', 'parquet'])('backfill into %s', (kind) => {
  it(`--from mc:${FIRST_MC} --to mc:${TO_MC} equals the truth for exactly that range; running it again changes nothing`, async () => {
    const sinkPath = work.sinkPath(kind, 'range');
    const pipeline = await work.pipeline({ url: devnet.url, kind, sinkPath, name: `range-${kind}.yaml` });
    const result = await runCliInProcess(['backfill', pipeline, ...RANGE]);
    expect(result.code, describeResult(result)).toBe(0);
    const first = await readWarehouse(kind, sinkPath);
    expectBackfilled(devnet, first);
    // The lt range is exactly the transactions committed in masterchain blocks FIRST_MC … TO_MC − 1.
    const seqnos = first.tables.get('transactions')!.map((row) => row.mc_block_seqno as number);
    expect(Math.min(...seqnos)).toBe(FIRST_MC);
    expect(Math.max(...seqnos)).toBe(TO_MC - 1);
    const committedInRange = devnet.truth('transactions').filter((tx) => (tx.mc_block_seqno as number) >= FIRST_MC && (tx.mc_block_seqno as number) < TO_MC);
    expect(seqnos.length).toBe(committedInRange.length);
    expect(first.runs.map((run) => [run.command, run.status])).toEqual([['backfill', 'ok']]);

    const again = await runCliInProcess(['backfill', pipeline, ...RANGE]);
    expect(again.code, describeResult(again)).toBe(0);
    const second = await readWarehouse(kind, sinkPath, { glob: false });
    for (const diff of diffSnapshots(first.tables, second.tables)) expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
    expect(second.checkpoints).toEqual(first.checkpoints);
    expect(second.runs.map((run) => run.status)).toEqual(['ok', 'ok']);
    expect(JSON.parse(second.runs.find((run) => run.run_id !== first.runs[0]!.run_id)!.rows)).toEqual(Object.fromEntries(streams.map((stream) => [stream.name, 0])));
  });

  it('kill -9 at three seeded random moments, each followed by a restart, converges to the truth', async () => {
    const sinkPath = work.sinkPath(kind, 'killed');
    const pipeline = await work.pipeline({ url: devnet.url, kind, sinkPath, rate: { rps: 50, concurrency: 8 }, name: `killed-${kind}.yaml` });
    const random = seededRandom(kind === 'duckdb' ? 0xdead : 0xbeef);
    // A moment: after the run's n-th answered request, plus 0–60 ms (3 requests at rps 50). A run
    // first reads 6 landmarks (the tip, then the range's ends), then ~16 pages: each kill lands within
    // its first 7 pages, so even the third run, with what the first two left, is still running.
    const moments = [0, 1, 2].map(() => ({ requests: 7 + Math.floor(random() * 4), ms: Math.floor(random() * 60) }));
    let killed = 0;
    for (const moment of moments) {
      const run = spawnCli(['backfill', pipeline, ...RANGE], { cwd: work.dir });
      await whileRunning(run, devnet, devnet.served() + moment.requests);
      await sleep(moment.ms);
      run.child.kill('SIGKILL');
      const result = await run.done;
      expect(result.signal, `killed after ${moment.requests} requests + ${moment.ms} ms: ${describeResult(result)}`).toBe('SIGKILL');
      killed += 1;
      // A kill may land while the first run creates the warehouse: what is missing reads as empty.
      const snapshot = await readWarehouse(kind, sinkPath, { partial: true, glob: false });
      if (kind === 'parquet') {
        // Every file the manifest names exists; leftovers are only unlisted files.
        const onDisk = new Set(snapshot.files!.onDisk);
        expect(snapshot.files!.listed.filter((path) => !onDisk.has(path))).toEqual([]);
      }
      expectConsistentPrefix(devnet, snapshot);
    }
    expect(killed).toBe(3);
    const result = await runCliInProcess(['backfill', pipeline, ...RANGE]);
    expect(result.code, describeResult(result)).toBe(0);
    const snapshot = await readWarehouse(kind, sinkPath);
    expectBackfilled(devnet, snapshot);
    // Each killed run recorded itself as running before its first request; the restart marked it abandoned.
    expect(snapshot.runs.map((run) => run.status).sort()).toEqual(['abandoned', 'abandoned', 'abandoned', 'ok']);
    expect(new Set(snapshot.runs.filter((run) => run.status === 'abandoned').map((run) => run.error))).toEqual(new Set([ABANDONED_RUN_ERROR]));
    if (kind === 'parquet') {
      // After the restarts' opens, nothing but the manifest's files is left on disk, and the glob holds no duplicates.
      expect(snapshot.files!.onDisk.length).toBe(snapshot.files!.listed.length);
      for (const table of positionTables.map((t) => t.name)) {
        const rows = snapshot.glob!.get(table)!;
        const diff = diffRows(tableNamed(table), rows, rows);
        expect(diff.duplicates, table).toBe(0);
      }
    }
  });
});

describe('backfill usage errors and interruption', () => {
  it('--from after --to exits 2 with a one-line message', async () => {
    const pipeline = await work.pipeline({ url: devnet.url, kind: 'duckdb', sinkPath: work.sinkPath('duckdb', 'swapped'), name: 'swapped.yaml' });
    const result = await runCliInProcess(['backfill', pipeline, '--from', `mc:${TO_MC}`, '--to', `mc:${FIRST_MC}`]);
    expect(result.code, describeResult(result)).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `chain-etl: --from mc:${TO_MC} is not before --to mc:${FIRST_MC}: swap them or widen the range`,
    ]);
    expect(result.stdout).toBe('');
  });

  it('a --from date in the future exits 2 with a one-line message and touches no warehouse', async () => {
    const sinkPath = work.sinkPath('duckdb', 'future');
    const pipeline = await work.pipeline({ url: devnet.url, kind: 'duckdb', sinkPath, name: 'future.yaml' });
    const future = new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 10);
    const result = await runCliInProcess(['backfill', pipeline, '--from', future]);
    expect(result.code, describeResult(result)).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `chain-etl: --from ${future} is in the future: the chain has no data there yet; pick a date up to today`,
    ]);
    expect(existsSync(sinkPath)).toBe(false);
  });

  it('SIGINT mid-run exits 130 keeping a consistent prefix; the same command then resumes to the truth', async () => {
    const sinkPath = work.sinkPath('duckdb', 'interrupted');
    const pipeline = await work.pipeline({ url: devnet.url, kind: 'duckdb', sinkPath, rate: { rps: 20, concurrency: 8 }, name: 'interrupted.yaml' });
    const run = spawnCli(['backfill', pipeline, ...RANGE], { cwd: work.dir });
    // About 0.8 s into the run at 20 requests/s: 6 landmarks and 10 of the range's ~16 pages.
    await whileRunning(run, devnet, devnet.served() + 16);
    run.child.kill('SIGINT');
    const interrupted = await run.done;
    expect(interrupted.code, describeResult(interrupted)).toBe(130);
    expect(messageLines(interrupted.stderr)).toEqual([
      'chain-etl: interrupted by SIGINT: every committed page is kept; run the same command again to resume',
    ]);
    const partial = await readWarehouse('duckdb', sinkPath);
    expect(partial.runs.map((r) => [r.command, r.status])).toEqual([['backfill', 'interrupted']]);
    // The run's record says what it committed: every stored row, by stream.
    const recorded = JSON.parse(String(partial.runs[0]!.rows)) as Record<string, number>;
    const storedRows = (stream: StreamDefinition): number => stream.tables.reduce((sum, table) => sum + (partial.tables.get(table.name)?.length ?? 0), 0);
    expect(Object.values(recorded).some((rows) => rows > 0)).toBe(true);
    for (const stream of streams) expect(recorded[stream.name] ?? 0, stream.name).toBe(storedRows(stream));
    const reached = expectConsistentPrefix(devnet, partial);
    // It was stopped mid-run: some stream is short of the range's end.
    const bounds = boundsOf(devnet);
    expect(streams.some((stream) => (reached.get(stream.name) ?? -1n) < bounds(stream).to)).toBe(true);

    const resumed = await runCliInProcess(['backfill', pipeline, ...RANGE]);
    expect(resumed.code, describeResult(resumed)).toBe(0);
    const snapshot = await readWarehouse('duckdb', sinkPath);
    expectBackfilled(devnet, snapshot);
    expect(snapshot.runs.map((r) => r.status).sort()).toEqual(['interrupted', 'ok']);
  });

  it('a second SIGINT exits 130 at once, saying so; the next run resumes to the truth and leaves no run marked running', async () => {
    const sinkPath = work.sinkPath('duckdb', 'interrupted-twice');
    const pipeline = await work.pipeline({ url: devnet.url, kind: 'duckdb', sinkPath, rate: { rps: 20, concurrency: 8 }, name: 'interrupted-twice.yaml' });
    const run = spawnCli(['backfill', pipeline, ...RANGE], { cwd: work.dir });
    await whileRunning(run, devnet, devnet.served() + 16);
    run.child.kill('SIGINT');
    // Two signals sent at once reach the process as one.
    await sleep(10);
    run.child.kill('SIGINT');
    const interrupted = await run.done;
    expect(interrupted.code, describeResult(interrupted)).toBe(130);
    expect(messageLines(interrupted.stderr)).toContain(
      'chain-etl: second SIGINT: exiting now; the commit in progress is rolled back and the next run resumes from the last checkpoint',
    );
    expectConsistentPrefix(devnet, await readWarehouse('duckdb', sinkPath));

    const resumed = await runCliInProcess(['backfill', pipeline, ...RANGE]);
    expect(resumed.code, describeResult(resumed)).toBe(0);
    const snapshot = await readWarehouse('duckdb', sinkPath);
    expectBackfilled(devnet, snapshot);
    expect(snapshot.runs.map((r) => r.status)).not.toContain('running');
    expect(snapshot.runs.filter((r) => r.status === 'ok')).toHaveLength(1);
  });
});
