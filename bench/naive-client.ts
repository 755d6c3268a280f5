/**
 * 2. Against a naive client: bench/naive/fetch-insert.ts (sequential fetch-then-insert) fetches the
 * transactions of a range at the same rps and devnet latency as benchmark 1, for at most
 * `maxSeconds`; its rows/s is compared with ours (benchmark 1's rows/s at the same rps and latency).
 * Each case gets a range of its own, so neither client finds the devnet's body cache warm.
 *
 *   node .bench-build/bench/naive-client.js [max-seconds=12]
 */
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { BENCH_KEY, DevnetProcess, load, log, round, runBenchScript, tempDir } from './harness.js';

export interface NaiveCase {
  readonly rps: number;
  readonly latencyMs: number;
}

export interface NaiveResult {
  readonly rps: number;
  readonly latencyMs: number;
  readonly transactions: number;
  readonly runSeconds: number;
  readonly rowsPerSecond: number;
  /** rows/s ÷ (rps × 1000). */
  readonly ratio: number;
  readonly requests: number;
  readonly rateLimited: number;
  readonly cpuSeconds: number;
  readonly loadBefore: number;
}

export async function measureNaive(cases: readonly NaiveCase[], maxSeconds = 12): Promise<NaiveResult[]> {
  // A sequential client does at most one page per (latency + service time), and a page costs the
  // devnet over 100 ms to render: 6 pages/s is generous. Ranges end early rather than run short.
  const budget = (c: NaiveCase): number => Math.ceil(Math.min(c.rps, 6) * maxSeconds * 1000 * 1.1);
  const total = cases.reduce((sum, c) => sum + budget(c), 0);
  const devnet = await DevnetProcess.start(Math.ceil(total / 22) + 200);
  log(`naive: devnet of ${devnet.info.blocks} blocks ready in ${devnet.info.startupSeconds.toFixed(1)} s`);
  const dir = tempDir('naive');
  const results: NaiveResult[] = [];
  let nextStep = 1;
  try {
    for (const c of cases) {
      const { id, url } = await devnet.serve(c.rps, c.latencyMs);
      const range = await devnet.range(nextStep, budget(c));
      nextStep = range.toStep;
      const db = join(dir, `naive-rps${c.rps}-lat${c.latencyMs}.duckdb`);
      const loadBefore = load();
      const run = await runBenchScript('naive/fetch-insert.js', [
        '--url', url, '--key', BENCH_KEY, '--from-lt', range.fromLt, '--to-lt', range.toLt,
        '--rps', String(c.rps), '--db', db, '--max-seconds', String(maxSeconds),
      ]);
      const stats = await devnet.stats(id);
      await devnet.closeListener(id);
      const rows = await countRows(db);
      const runSeconds = (run.exitedAt - (stats.firstAt ?? run.spawnedAt)) / 1000;
      const result: NaiveResult = {
        rps: c.rps,
        latencyMs: c.latencyMs,
        transactions: rows,
        runSeconds: round(runSeconds, 2),
        rowsPerSecond: round(rows / runSeconds),
        ratio: round(rows / runSeconds / (c.rps * 1000), 3),
        requests: stats.requests,
        rateLimited: stats.rateLimited,
        cpuSeconds: round(run.cpuSeconds, 2),
        loadBefore,
      };
      log(`naive rps ${c.rps} latency ${c.latencyMs} ms: ${rows} tx in ${result.runSeconds} s = ${result.rowsPerSecond}/s (ratio ${result.ratio})`);
      results.push(result);
    }
  } finally {
    await devnet.stop();
  }
  return results;
}

async function countRows(path: string): Promise<number> {
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    return Number((await connection.runAndReadAll('SELECT count(DISTINCT hash) FROM transactions')).getRows()[0]![0]);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const cases = [1, 10, 25, 100].flatMap((rps) => [50, 400].map((latencyMs) => ({ rps, latencyMs })));
  measureNaive(cases, Number(process.argv[2] ?? 12)).then((results) => console.log(JSON.stringify(results, null, 2)));
}
