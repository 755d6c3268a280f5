/**
 * 6. Cron no-op: `chain-etl sync` of the four streams when nothing is new, as cron runs it
 * (pipelines/cron-sync.yaml: rps 10, default lag of 2 masterchain blocks, default actions overlap of
 * 150 blocks, DuckDB). A first sync without `start` records every stream's checkpoint at the settled
 * tip; the measured ones, `RUNS` at each latency, find nothing new; the figures are the median run's.
 * Every run of a latency goes to one listener, as cron's runs go to one service (a new URL would
 * change the streams' recorded scope, and every run would store it again). Wall time is spawn → exit
 * of the process (node start-up included); requests are counted by the devnet, per endpoint; the
 * timeline (bench/timeline-probe.ts) says where the wall time goes.
 *
 *   node .bench-build/bench/cron-noop.js
 */
import { join } from 'node:path';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { DevnetProcess, load, log, round, runCli, tempDir, writePipeline, type ProcessRun } from './harness.js';
import type { ServerStats } from './devnet-server.js';
import { ALL_STREAMS } from './rows-per-request.js';
import { summariseProfile, type ProfileSummary } from './cpu-profile.js';
import type { TimelineReport } from './timeline-probe.js';
import { timelineLines, timelineSummary } from './cron-timeline.js';

/** Measured no-ops at each latency: the machine is shared, one run is noise. */
const RUNS = 5;

export interface CronNoopResult {
  readonly latencyMs: number;
  readonly runs: number;
  /** Of the median run (by wall time). */
  readonly wallSeconds: number;
  /** Every run's, in the order they ran. */
  readonly wallSecondsAll: readonly number[];
  /** Spawn → the first request handed to the HTTP stack (the timeline's), s. */
  readonly startupSeconds: number;
  readonly requests: number;
  readonly requestsByPath: Record<string, number>;
  readonly cpuSeconds: number;
  readonly loadBefore: number;
  /** The median run's marks and requests in one line, ms since spawn. */
  readonly timeline: string;
  /** The same, one line per mark and request. */
  readonly timelineLines: readonly string[];
  /** The same no-op once more under `node --cpu-prof` (first latency only): where its CPU goes. */
  readonly profile?: ProfileSummary;
}

interface MeasuredNoop {
  readonly run: ProcessRun;
  readonly requestsByPath: Record<string, number>;
  readonly timeline: TimelineReport;
}

const TIMELINE_PROBE = pathToFileURL(join(import.meta.dirname, 'timeline-probe.js')).href;

export async function measureCronNoop(latencies: readonly number[] = [50, 400], runs = RUNS): Promise<CronNoopResult[]> {
  const devnet = await DevnetProcess.start(400);
  const dir = tempDir('cron');
  const results: CronNoopResult[] = [];
  try {
    for (const latencyMs of latencies) {
      const { id, url } = await devnet.serve(10, latencyMs);
      const pipeline = writePipeline(dir, `cron${latencyMs}`, {
        baseUrl: url,
        rps: 10,
        lagBlocks: 2,
        streams: ALL_STREAMS,
        sink: { kind: 'duckdb', path: join(dir, `cron${latencyMs}.duckdb`) },
      });
      // The first sync records the checkpoints at the tip; the second loads the actions overlap below them.
      await runCli('sync', pipeline);
      await runCli('sync', pipeline);
      const loadBefore = load();
      const measured: MeasuredNoop[] = [];
      let before = await devnet.stats(id);
      for (let index = 0; index < runs; index += 1) {
        const out = join(dir, `timeline${latencyMs}-${index}.json`);
        const run = await runCli('sync', pipeline, [], { nodeFlags: ['--import', TIMELINE_PROBE], env: { BENCH_TIMELINE_OUT: out } });
        const after = await devnet.stats(id);
        if (!existsSync(out)) throw new Error(`the cron no-op wrote no timeline to ${out}:\n${run.stderrTail}`);
        measured.push({ run, requestsByPath: requestsBetween(before, after), timeline: JSON.parse(readFileSync(out, 'utf8')) as TimelineReport });
        before = after;
      }
      const { run, requestsByPath, timeline } = [...measured].sort((a, b) => a.run.wallSeconds - b.run.wallSeconds)[Math.floor(runs / 2)]!;
      let profile: ProfileSummary | undefined;
      if (results.length === 0) {
        const profileDir = join(dir, `profile${latencyMs}`);
        await runCli('sync', pipeline, [], { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] });
        const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
        if (file !== undefined) profile = summariseProfile(join(profileDir, file), 15);
      }
      await devnet.closeListener(id);
      const firstRequest = timeline.requests[0]?.start;
      const result: CronNoopResult = {
        latencyMs,
        runs,
        wallSeconds: round(run.wallSeconds, 2),
        wallSecondsAll: measured.map((m) => round(m.run.wallSeconds, 2)),
        startupSeconds: round(firstRequest === undefined ? run.wallSeconds : (timeline.timeOrigin + firstRequest - run.spawnedAt) / 1000, 2),
        requests: Object.values(requestsByPath).reduce((sum, n) => sum + n, 0),
        requestsByPath,
        cpuSeconds: round(run.cpuSeconds, 2),
        loadBefore,
        timeline: timelineSummary(timeline, run.spawnedAt, run.exitedAt),
        timelineLines: timelineLines(timeline, run.spawnedAt, run.exitedAt),
        ...(profile === undefined ? {} : { profile }),
      };
      log(`cron no-op at ${latencyMs} ms: median ${result.wallSeconds} s of ${result.wallSecondsAll.join(', ')}; ${result.requests} requests ${JSON.stringify(result.requestsByPath)}`);
      for (const line of result.timelineLines) log(line);
      results.push(result);
    }
  } finally {
    await devnet.stop();
  }
  return results;
}

/** The requests a listener answered between two of its stats, by path. */
function requestsBetween(before: ServerStats, after: ServerStats): Record<string, number> {
  const between: Record<string, number> = {};
  for (const [path, count] of Object.entries(after.byPath)) {
    const added = count - (before.byPath[path] ?? 0);
    if (added > 0) between[path] = added;
  }
  return between;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  measureCronNoop().then((result) => console.log(JSON.stringify(result, null, 2)));
}
