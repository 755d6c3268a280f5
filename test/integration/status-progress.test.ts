/**
 * `status` while a backfill writes a DuckDB file, which DuckDB lets no other process open: it shows
 * the progress the run publishes beside the file, exact as of the run's last commit. A proxy in front
 * of the devnet holds the backfill's fourth page of transactions (one window at a time: the page
 * before it is the last the run can commit); once the progress names that page's end, status runs
 * (processes, text and --json), the backfill is killed -9 there, and the warehouse then holds exactly
 * the checkpoint and rows status showed. The file the killed run left is ignored (its pid holds no
 * lock); the next run replaces it and removes it at its end.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ReportedRun, StatusReport } from '../../src/cli/status-report.js';
import type { StreamStatus } from '../../src/cli/stream-status.js';
import { utcTime } from '../../src/core/utc-time.js';
import { decodeCheckpoint } from '../../src/core/checkpoint/record.js';
import { progressPath, type DuckDBProgress } from '../../src/load/duckdb/progress.js';
import { childEnv, runCli, spawnCli } from '../support/cli.js';
import { runInProcess } from '../support/cli-in-process.js';
import { describeResult, messageLines } from '../support/cli-result.js';
import { holdDuckDBFile } from '../support/lock-holder.js';
import { startMisbehavingServer, type MisbehavingServer } from '../support/misbehaving-server.js';
import { FIRST_MC, startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { KEY, KEY_ENV } from '../support/test-key.js';
import { readWarehouse } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type Workspace } from '../support/workspace.js';

const SEED = 6503;
/** About 10 pages of transactions. */
const BLOCKS = 400;
/** The page of transactions the proxy holds: three are committed before it. */
const HELD_PAGE = 4;

type StatusJson = Omit<StatusReport, 'streams' | 'runs'> & { streams: StreamStatus[]; runs: ReportedRun[] | null };

let devnet: TestDevnet;
let proxy: MisbehavingServer;
let work: Workspace;

beforeAll(async () => {
  [devnet, work] = await Promise.all([startTestDevnet({ seed: SEED, blocks: BLOCKS }), makeWorkspace('status-progress')]);
  proxy = await startMisbehavingServer(devnet.url);
});

afterAll(async () => {
  await proxy?.close();
  await devnet?.close();
  await work?.remove();
});

const env = childEnv({ [KEY_ENV]: KEY });
/** The binary: status beside the backfill is another process, as a user's is. */
const cli = (args: readonly string[]) => runCli(args, { cwd: work.dir, env });
/** The rest in the test's process (quicker). */
const run = (args: readonly string[]) => runInProcess(args, { [KEY_ENV]: KEY });

it('a backfill holding the file: status prints its progress (exit 0), exactly what the warehouse holds when the run is killed there; a stale progress file is ignored', async () => {
  const sinkPath = work.sinkPath('duckdb', 'progress');
  const file = join(work.dir, 'progress.yaml');
  const lines = ['network: mainnet', `base_url: ${proxy.url}`, `api_key_env: ${KEY_ENV}`, 'lag: { mc_blocks: 0 }', 'rate: { rps: 100, concurrency: 1 }', 'streams: { transactions: {} }'];
  await writeFile(file, [...lines, `sink: { kind: duckdb, path: ${JSON.stringify(sinkPath)} }`, ''].join('\n'));

  let pages = 0;
  let heldUrl = (_url: URL): void => undefined;
  const held = new Promise<URL>((resolve) => (heldUrl = resolve));
  proxy.behave(({ url }) => {
    if (!url.startsWith('/api/v3/transactions')) return { kind: 'proxy' };
    pages += 1;
    if (pages < HELD_PAGE) return { kind: 'proxy' };
    if (pages === HELD_PAGE) heldUrl(new URL(url, proxy.url));
    return { kind: 'hold' };
  });
  const backfill = spawnCli(['backfill', file, '--from', `mc:${FIRST_MC}`], { cwd: work.dir, env });
  const ended = backfill.done.then((result) => {
    throw new Error(`the backfill ended before its page ${HELD_PAGE} was held: ${describeResult(result)}`);
  });
  ended.catch(() => undefined);
  const heldPage = await Promise.race([held, ended]);
  // The run's checkpoint after the page before the held one: everything below the held page's start.
  const through = BigInt(heldPage.searchParams.get('start_lt')!) - 1n;
  const progress = await untilProgress(sinkPath, (p) => p.checkpoints.transactions !== undefined && decodeCheckpoint(p.checkpoints.transactions).position === through);
  expect(progress.pid).toBe(backfill.pid);

  const text = await cli(['status', file, '--offline']);
  const json = await cli(['status', file, '--json', '--offline']);
  backfill.child.kill('SIGKILL');
  const killed = await backfill.done;
  expect(killed.signal, describeResult(killed)).toBe('SIGKILL');

  for (const result of [text, json]) expect(result.code, describeResult(result)).toBe(0);
  const report = JSON.parse(json.stdout) as StatusJson;
  const writing = report.writing!;
  expect(writing).toEqual({
    run_id: progress.run_id,
    pid: backfill.pid,
    command: 'backfill',
    started_at: iso(progress.started_at),
    committed_at: iso(progress.committed_at),
    rows: progress.rows,
    rows_replaced: progress.rows_replaced,
  });
  expect([report.tables, report.rejects, report.runs]).toEqual([null, null, null]);
  const people = (time: string): string => utcTime(Date.parse(time) / 1000);
  expect(text.stdout.split('\n').slice(0, 2)).toEqual([
    `pipeline ${file} → duckdb ${sinkPath}`,
    `a backfill (pid ${backfill.pid}, started ${people(writing.started_at)}) is writing this warehouse; as of its commit at ${people(writing.committed_at)}:`,
  ]);

  // Killed while waiting for the held page: the warehouse holds what the progress named, to the row.
  const snapshot = await readWarehouse('duckdb', sinkPath, { partial: true });
  const [stream] = report.streams;
  expect(stream!.checkpoint).toBe(String(through));
  expect(BigInt(stream!.checkpoint!)).toBe(snapshot.checkpoints.get('transactions'));
  expect(stream!.covered!.map(({ from, to }) => ({ from: BigInt(from), to: BigInt(to) }))).toEqual(snapshot.covered.get('transactions'));
  const committed = Object.fromEntries(['addresses', 'transactions', 'messages'].map((table) => [table, snapshot.tables.get(table)!.length]));
  expect(writing.rows).toEqual(committed);
  expect(committed.transactions).toBeGreaterThan(2000);
  expect(text.stdout).toContain(`\ntransactions       ${committed.transactions} new, 0 replaced\n`);

  // The killed run's file stays; its pid holds no lock: status reads the warehouse itself, and a lock of another process is refused as before.
  expect(existsSync(progressPath(sinkPath))).toBe(true);
  const after = await run(['status', file, '--json', '--offline']);
  expect(after.code, describeResult(after)).toBe(0);
  expect((JSON.parse(after.stdout) as StatusJson).writing).toBeNull();
  const holder = await holdDuckDBFile(sinkPath);
  try {
    const locked = await run(['status', file, '--offline']);
    expect(locked.code, describeResult(locked)).toBe(3);
    expect(messageLines(locked.stderr)).toEqual([
      `chain-etl: Warehouse ${sinkPath} is being written by process ${holder.pid} (${process.execPath}), and DuckDB lets no other process open the file meanwhile: ` +
        'run status again when that run has ended (between the runs of sync --follow the file is free)',
    ]);
    const query = await run(['query', file, 'SELECT 1']);
    expect(query.code, describeResult(query)).toBe(3);
    expect(messageLines(query.stderr)).toEqual([
      `chain-etl: Warehouse ${sinkPath} is being written by process ${holder.pid} (${process.execPath}), and DuckDB lets no other process open the file meanwhile: ` +
        'run query again when that run has ended (between the runs of sync --follow the file is free); chain-etl status shows how far a sync or backfill has come meanwhile',
    ]);
  } finally {
    await holder.release();
  }

  // The next run resumes, and at its end removes the file.
  proxy.behave(() => ({ kind: 'proxy' }));
  const resumed = await run(['backfill', file, '--from', `mc:${FIRST_MC}`]);
  expect(resumed.code, describeResult(resumed)).toBe(0);
  expect(existsSync(progressPath(sinkPath))).toBe(false);
  const done = await run(['status', file, '--json', '--offline']);
  expect((JSON.parse(done.stdout) as StatusJson).writing).toBeNull();
});

function iso(utime: number): string {
  return new Date(utime * 1000).toISOString().replace('.000Z', 'Z');
}

/** The progress file once `done` holds for it; fails after 30 s. */
async function untilProgress(warehouse: string, done: (progress: DuckDBProgress) => boolean): Promise<DuckDBProgress> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const text = await readFile(progressPath(warehouse), 'utf8').catch(() => undefined);
    const progress = text === undefined ? undefined : (JSON.parse(text) as DuckDBProgress);
    if (progress !== undefined && done(progress)) return progress;
    if (Date.now() > deadline) throw new Error(`the progress file did not reach the held page within 30 s: ${text ?? 'none'}`);
    await sleep(50);
  }
}
