/**
 * A backfill of a fixed masterchain range against a devnet (test/integration/backfill.test.ts, and
 * its kill -9 case for Parquet in test/chaos/backfill-kill.chaos.ts): the range, what a finished
 * backfill holds, what a killed or interrupted one may hold, and kill -9 at three seeded moments.
 */
import { expect } from 'vitest';
import { ABANDONED_RUN_ERROR } from '../../src/run/abandoned-runs.js';
import type { StreamDefinition } from '../../src/core/stream.js';
import { streams } from '../../src/streams/index.js';
import { addressProblems } from '../support/address-check.js';
import { mcBlock, positionAt, type Bounds } from '../support/chain-points.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult } from '../support/cli-result.js';
import { spawnCli, whileRunning } from '../support/cli.js';
import { expectTablesEqual } from '../support/expect-truth.js';
import { expectedWarehouse } from '../support/expected-rows.js';
import { positionTables } from '../support/position-tables.js';
import { describeDiff, diffRows, diffWarehouse, tableNamed } from '../support/row-diff.js';
import { seededRandom } from '../support/seeded-random.js';
import { sleep } from '../support/sleep.js';
import { FIRST_MC, type TestDevnet } from '../support/test-devnet.js';
import { readWarehouse, type Snapshot } from '../support/warehouse-snapshot.js';
import type { SinkKind, Workspace } from '../support/workspace.js';

export const SEED = 9001;
/** Just past the range's end block. */
export const BLOCKS = 160;
/**
 * 150 blocks: 28 requests (6 landmarks, 22 pages, most streams one or two), where 300 blocks made 33
 * at twice the rows to fetch, store and compare.
 */
export const TO_MC = FIRST_MC + 150;
export const RANGE = ['--from', `mc:${FIRST_MC}`, '--to', `mc:${TO_MC}`] as const;

/** The range's bounds on each axis: [start of block FIRST_MC, start of block TO_MC − 1]. */
export function boundsOf(devnet: TestDevnet): (stream: StreamDefinition) => Bounds {
  const from = mcBlock(devnet, FIRST_MC);
  const to = mcBlock(devnet, TO_MC);
  return (stream) => ({ from: positionAt(from, stream), to: positionAt(to, stream) - 1n });
}

/** The finished backfill: every table equals the truth for the range, checkpoints at the range's end. */
export function expectBackfilled(devnet: TestDevnet, snapshot: Snapshot): void {
  const bounds = boundsOf(devnet);
  const expected = expectedWarehouse(devnet, bounds);
  expectTablesEqual(expected, snapshot);
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
export function expectConsistentPrefix(devnet: TestDevnet, snapshot: Snapshot): Map<string, bigint | undefined> {
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

/** kill -9 at three seeded moments of a backfill, each followed by a restart: a consistent prefix after each, the truth at the end, the killed runs marked abandoned. */
export async function expectKilledBackfillConverges(devnet: TestDevnet, work: Workspace, kind: SinkKind): Promise<void> {
  const sinkPath = work.sinkPath(kind, 'killed');
  const pipeline = await work.pipeline({ url: devnet.url, kind, sinkPath, rate: { rps: 50, concurrency: 8 }, name: `killed-${kind}.yaml` });
  const random = seededRandom(kind === 'duckdb' ? 0xdead : 0xbeef);
  // A moment: after the run's n-th answered request, plus 0–60 ms (3 requests at rps 50). A run
  // first reads 6 landmarks (the tip, then the range's ends), then ~22 pages: each kill lands within
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
}
