/**
 * 6. Cron no-op: `chain-etl sync` of the four streams when nothing is new, as cron runs it
 * (pipelines/cron-sync.yaml: rps 10, default lag of 2 masterchain blocks, default actions overlap of
 * 150 blocks, DuckDB). A first sync without `start` records every stream's checkpoint at the settled
 * tip; the second, measured, finds nothing new. Wall time is spawn → exit of the process (node
 * start-up included); requests are counted by the devnet, per endpoint.
 *
 *   node .bench-build/bench/cron-noop.js
 */
import { join } from 'node:path';
import { DevnetProcess, load, log, round, runCli, tempDir, writePipeline } from './harness.js';
import { ALL_STREAMS } from './rows-per-request.js';
import { summariseProfile, type ProfileSummary } from './cpu-profile.js';
import { readdirSync } from 'node:fs';

export interface CronNoopResult {
  readonly latencyMs: number;
  readonly wallSeconds: number;
  /** Spawn → first request, s. */
  readonly startupSeconds: number;
  readonly requests: number;
  readonly requestsByPath: Record<string, number>;
  readonly cpuSeconds: number;
  readonly loadBefore: number;
  /** The same no-op once more under `node --cpu-prof` (first latency only): where its CPU goes. */
  readonly profile?: ProfileSummary;
}

export async function measureCronNoop(latencies: readonly number[] = [50, 400]): Promise<CronNoopResult[]> {
  const devnet = await DevnetProcess.start(400);
  const dir = tempDir('cron');
  const results: CronNoopResult[] = [];
  try {
    for (const latencyMs of latencies) {
      const spec = (url: string): Parameters<typeof writePipeline>[2] => ({
        baseUrl: url,
        rps: 10,
        lagBlocks: 2,
        streams: ALL_STREAMS,
        sink: { kind: 'duckdb', path: join(dir, `cron${latencyMs}.duckdb`) },
      });
      // First sync, through a listener of its own: records the checkpoints at the tip.
      const first = await devnet.serve(10, latencyMs);
      await runCli('sync', writePipeline(dir, `cron${latencyMs}`, spec(first.url)));
      await devnet.closeListener(first.id);
      // The measured sync, same warehouse, a fresh listener (so its counters hold this run only).
      const { id, url } = await devnet.serve(10, latencyMs);
      const pipeline = writePipeline(dir, `cron${latencyMs}`, spec(url));
      const loadBefore = load();
      const run = await runCli('sync', pipeline);
      const stats = await devnet.stats(id);
      await devnet.closeListener(id);
      let profile: ProfileSummary | undefined;
      if (results.length === 0) {
        const profileDir = join(dir, `profile${latencyMs}`);
        const again = await devnet.serve(10, latencyMs);
        await runCli('sync', writePipeline(dir, `cron${latencyMs}`, spec(again.url)), [], { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] });
        await devnet.closeListener(again.id);
        const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
        if (file !== undefined) profile = summariseProfile(join(profileDir, file), 15);
      }
      const result: CronNoopResult = {
        latencyMs,
        wallSeconds: round(run.wallSeconds, 2),
        startupSeconds: round(((stats.firstAt ?? run.exitedAt) - run.spawnedAt) / 1000, 2),
        requests: stats.requests,
        requestsByPath: stats.byPath as Record<string, number>,
        cpuSeconds: round(run.cpuSeconds, 2),
        loadBefore,
        ...(profile === undefined ? {} : { profile }),
      };
      log(`cron no-op at ${latencyMs} ms: ${result.wallSeconds} s, ${result.requests} requests ${JSON.stringify(result.requestsByPath)}`);
      results.push(result);
    }
  } finally {
    await devnet.stop();
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  measureCronNoop().then((result) => console.log(JSON.stringify(result, null, 2)));
}
