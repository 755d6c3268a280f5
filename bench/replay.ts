/**
 * Goal 2 of issue 13: transactions/s into DuckDB against a replay server (bench/replay-listener.ts)
 * with the service's rate limit and a 200 ms latency, so the figure measures the ETL and not the
 * devnet rendering pages on the same two cores. For each rps: the CLI backfills the range once
 * through a recording listener (unthrottled; the answers are kept byte for byte), then again, into a
 * fresh warehouse, through a replaying listener with `rps` and the latency; only that second run is
 * measured, from its first request to its exit. The replay runs once for each number of page
 * workers (0, 1, 2 and the CLI's default), alternating within one rps, so they compare in one run.
 * The first rate is replayed once more under `node --cpu-prof` (main thread and page workers).
 *
 *   ceiling = rps × 1000 (items per page)     ratio = transactions/s ÷ ceiling
 *   CPU ceiling = cores ÷ (ETL + replay server CPU-seconds per transaction)
 *
 *   node .bench-build/bench/replay.js [transactions=60000] [rps=10,25,100]
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defaultConcurrency, defaultWorkers } from '../src/config/defaults.js';
import { summariseProfile, type ProfileSummary } from './cpu-profile.js';
import { CORES, DevnetProcess, load, log, readDuckDBWarehouse, round, runCli, tempDir, writePipeline } from './harness.js';
import { WORKER_COUNTS } from './local-cost.js';

/** Items per page of /api/v3/transactions at the ETL's limit. */
const PAGE_ITEMS = 1000;

export interface ReplayCase {
  readonly rps: number;
  readonly latencyMs: number;
}

export const REPLAY_CASES: readonly ReplayCase[] = [10, 25, 100].map((rps) => ({ rps, latencyMs: 200 }));

export interface ReplayResult {
  readonly rps: number;
  readonly latencyMs: number;
  /** Page worker threads of the run (issue 13 goal 3). */
  readonly workers: number;
  /** Whether `workers` is the CLI's default on this machine (the run goal 2 is judged by). */
  readonly defaultWorkers: boolean;
  readonly concurrency: number;
  readonly transactions: number;
  /** First request → exit, s. */
  readonly runSeconds: number;
  readonly rowsPerSecond: number;
  /** rps × 1000 transactions/s. */
  readonly ceilingRowsPerSecond: number;
  readonly ratio: number;
  readonly requests: number;
  readonly rateLimited: number;
  /** Requests the replay had no recording for (0 when the recording run asked the same). */
  readonly notReplayed: number;
  readonly etlCpuSeconds: number;
  /** ETL CPU-seconds per 100,000 transactions. */
  readonly etlPer100k: number;
  readonly replayCpuSeconds: number;
  readonly cpuCeilingRowsPerSecond: number;
  readonly etlPeakRssMiB: number;
  readonly loadBefore: number;
}

/** The CPU profile of one more replay of the first case at the default workers (`node --cpu-prof`): one summary per thread. */
export interface ReplayProfile {
  readonly rps: number;
  readonly latencyMs: number;
  readonly workers: number;
  readonly transactions: number;
  readonly cpuSeconds: number;
  /** The main thread first, then each page worker. */
  readonly threads: readonly (ProfileSummary & { readonly thread: string })[];
}

export interface ReplayMeasurement {
  readonly results: ReplayResult[];
  readonly profile: ReplayProfile | undefined;
}

export async function measureReplay(transactions: number, cases: readonly ReplayCase[] = REPLAY_CASES): Promise<ReplayMeasurement> {
  const devnet = await DevnetProcess.start(Math.ceil(transactions / 22) + 200);
  log(`replay: devnet of ${devnet.info.blocks} blocks ready in ${devnet.info.startupSeconds.toFixed(1)} s`);
  const dir = tempDir('replay');
  const results: ReplayResult[] = [];
  let profile: ReplayProfile | undefined;
  try {
    const upstream = await devnet.serve(1_000_000, 0);
    const range = await devnet.range(1, transactions);
    const rangeArgs = ['--from', `lt:${range.fromLt}`, '--to', `lt:${range.toLt}`];
    for (const c of cases) {
      const name = `rps${c.rps}-lat${c.latencyMs}`;
      const pipeline = (label: string, baseUrl: string, workers?: number): string =>
        writePipeline(dir, `${name}-${label}`, { baseUrl, rps: c.rps, streams: ['transactions'], sink: { kind: 'duckdb', path: join(dir, `${name}-${label}.duckdb`) }, workers });
      const recorder = await devnet.record(upstream.id);
      await runCli('backfill', pipeline('record', recorder.url), rangeArgs);
      await devnet.closeListener(recorder.id);
      for (const workers of [...new Set([...WORKER_COUNTS, defaultWorkers()])]) results.push(await replayOnce(devnet, upstream.id, c, workers, pipeline, rangeArgs, dir));
      profile ??= await profileReplay(devnet, upstream.id, c, pipeline, rangeArgs, dir);
    }
  } finally {
    await devnet.stop();
  }
  return { results, profile };
}

/**
 * The replay once more at the default workers under `--cpu-prof`, which writes a profile per thread
 * (`CPU.<date>.<time>.<pid>.<thread id>.<n>.cpuprofile`, thread 0 the main one). The profile covers
 * JS threads only: DuckDB's own threads are in the CPU total, not in any profile.
 */
async function profileReplay(
  devnet: DevnetProcess,
  upstream: number,
  c: ReplayCase,
  pipeline: (label: string, baseUrl: string, workers?: number) => string,
  rangeArgs: string[],
  dir: string,
): Promise<ReplayProfile> {
  const profileDir = join(dir, `profile-rps${c.rps}`);
  const workers = defaultWorkers();
  const replayer = await devnet.replay(upstream, c.rps, c.latencyMs);
  const run = await runCli('backfill', pipeline('profiled', replayer.url, workers), rangeArgs, { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] });
  await devnet.closeListener(replayer.id);
  const rows = (await readDuckDBWarehouse(join(dir, `rps${c.rps}-lat${c.latencyMs}-profiled.duckdb`))).tables['transactions'] ?? 0;
  const threadOf = (file: string): number => Number(file.split('.')[4]);
  const files = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile')).sort((a, b) => threadOf(a) - threadOf(b));
  const threads = files.map((file) => ({ ...summariseProfile(join(profileDir, file), 15), thread: threadOf(file) === 0 ? 'main' : `worker ${threadOf(file)}` }));
  log(`replay rps ${c.rps} profiled: ${threads.map((t) => `${t.thread} busy ${t.busyMs} ms`).join(', ')}`);
  return { rps: c.rps, latencyMs: c.latencyMs, workers, transactions: rows, cpuSeconds: round(run.cpuSeconds, 2), threads };
}

async function replayOnce(
  devnet: DevnetProcess,
  upstream: number,
  c: ReplayCase,
  workers: number,
  pipeline: (label: string, baseUrl: string, workers?: number) => string,
  rangeArgs: string[],
  dir: string,
): Promise<ReplayResult> {
  const name = `rps${c.rps}-lat${c.latencyMs}`;
  const replayer = await devnet.replay(upstream, c.rps, c.latencyMs);
  const loadBefore = load();
  const before = await devnet.usage();
  const run = await runCli('backfill', pipeline(`replay-w${workers}`, replayer.url, workers), rangeArgs);
  const after = await devnet.usage();
  const stats = await devnet.stats(replayer.id);
  await devnet.closeListener(replayer.id);
  const rows = (await readDuckDBWarehouse(join(dir, `${name}-replay-w${workers}.duckdb`))).tables['transactions'] ?? 0;
  const runSeconds = (run.exitedAt - (stats.firstAt ?? run.spawnedAt)) / 1000;
  const replayCpu = after.cpuSeconds - before.cpuSeconds;
  const ceiling = c.rps * PAGE_ITEMS;
  const result: ReplayResult = {
    rps: c.rps,
    latencyMs: c.latencyMs,
    workers,
    defaultWorkers: workers === defaultWorkers(),
    concurrency: defaultConcurrency(c.rps),
    transactions: rows,
    runSeconds: round(runSeconds, 2),
    rowsPerSecond: round(rows / runSeconds),
    ceilingRowsPerSecond: ceiling,
    ratio: round(rows / runSeconds / ceiling, 3),
    requests: stats.requests,
    rateLimited: stats.rateLimited,
    notReplayed: stats.notReplayed,
    etlCpuSeconds: round(run.cpuSeconds, 2),
    etlPer100k: round((run.cpuSeconds / rows) * 100_000, 2),
    replayCpuSeconds: round(replayCpu, 2),
    cpuCeilingRowsPerSecond: round(CORES / ((run.cpuSeconds + replayCpu) / rows)),
    etlPeakRssMiB: run.peakRssMiB,
    loadBefore,
  };
  log(
    `replay rps ${c.rps} latency ${c.latencyMs} ms, ${workers} page workers: ${rows} tx in ${result.runSeconds} s = ${result.rowsPerSecond}/s, ratio ${result.ratio} of ${ceiling}/s, ` +
      `${result.etlPer100k} ETL CPU-s per 100k, ${result.requests} requests (${result.notReplayed} not replayed, ${result.rateLimited} × 429)`,
  );
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rates = process.argv[3]?.split(',').map(Number);
  const cases = REPLAY_CASES.filter((c) => rates === undefined || rates.includes(c.rps));
  measureReplay(Number(process.argv[2] ?? 60_000), cases).then((measured) => console.log(JSON.stringify(measured, null, 2)));
}
