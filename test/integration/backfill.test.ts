/**
 * `chain-etl backfill` against a devnet: a fixed masterchain range equals the devnet truth for
 * exactly that range, for both sinks; usage errors exit 2 with one line; SIGINT exits 130 and the
 * same command resumes; kill -9 at seeded random moments never leaves the warehouse inconsistent,
 * and restarts converge to the truth (DuckDB here; Parquet, no duplicate keys and no file outside the
 * manifest, in test/chaos/backfill-kill.chaos.ts, beside the fast chaos subset's kills of a Parquet
 * backfill).
 * Runs that are killed or interrupted are the binary as a child process; the others run in process.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamDefinition } from '../../src/core/stream.js';
import { streams } from '../../src/streams/index.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult, messageLines } from '../support/cli-result.js';
import { spawnCli, whileRunning } from '../support/cli.js';
import { expectedWarehouse } from '../support/expected-rows.js';
import { NO_MISMATCH, describeDiff, diffSnapshots, mismatch } from '../support/row-diff.js';
import { FIRST_MC, startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { readWarehouse } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';
import { BLOCKS, RANGE, SEED, TO_MC, boundsOf, expectBackfilled, expectConsistentPrefix, expectKilledBackfillConverges } from './backfill-range.js';

/** Answers after 30 ms, so that runs at a low pipeline rps last several seconds. */
let devnet: TestDevnet;
let work: Workspace;

beforeAll(async () => {
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

  it.runIf(kind === 'duckdb')('kill -9 at three seeded random moments, each followed by a restart, converges to the truth (Parquet: in the chaos run)', async () => {
    await expectKilledBackfillConverges(devnet, work, kind);
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
    // About 0.8 s into the run at 20 requests/s: 6 landmarks and 10 of the range's ~22 pages.
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

  it('a second signal exits at once, saying so; the next run resumes to the truth and leaves no run marked running', async () => {
    const sinkPath = work.sinkPath('duckdb', 'interrupted-twice');
    const pipeline = await work.pipeline({ url: devnet.url, kind: 'duckdb', sinkPath, rate: { rps: 20, concurrency: 8 }, name: 'interrupted-twice.yaml' });
    const run = spawnCli(['backfill', pipeline, ...RANGE], { cwd: work.dir });
    await whileRunning(run, devnet, devnet.served() + 16);
    // The first signal's orderly stop can end within milliseconds, before a second signal sent after
    // it arrives. Sent while the process is stopped, both are pending when it resumes and are handled
    // together. Two pending SIGINTs are one (a standard signal does not queue), hence a SIGTERM beside it.
    process.kill(run.pid, 'SIGSTOP');
    run.child.kill('SIGINT');
    run.child.kill('SIGTERM');
    process.kill(run.pid, 'SIGCONT');
    const interrupted = await run.done;
    // Which of the two the process handles second is the kernel's choice: that one names the line and the exit code.
    const [line] = messageLines(interrupted.stderr);
    const second = /^chain-etl: second (SIGINT|SIGTERM): /.exec(line ?? '')?.[1];
    expect(second, describeResult(interrupted)).toBeDefined();
    expect(messageLines(interrupted.stderr)).toEqual([
      `chain-etl: second ${second}: exiting now; the commit in progress is rolled back and the next run resumes from the last checkpoint`,
    ]);
    expect(interrupted.code, describeResult(interrupted)).toBe(second === 'SIGINT' ? 130 : 143);
    expectConsistentPrefix(devnet, await readWarehouse('duckdb', sinkPath));

    const resumed = await runCliInProcess(['backfill', pipeline, ...RANGE]);
    expect(resumed.code, describeResult(resumed)).toBe(0);
    const snapshot = await readWarehouse('duckdb', sinkPath);
    expectBackfilled(devnet, snapshot);
    expect(snapshot.runs.map((r) => r.status)).not.toContain('running');
    expect(snapshot.runs.filter((r) => r.status === 'ok')).toHaveLength(1);
  });
});
