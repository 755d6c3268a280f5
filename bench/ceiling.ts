/**
 * 1. Ceiling ratio: how close the transactions stream gets to the rate limit. For each (rps, latency)
 * the bench devnet serves a listener limited to `rps` per key with a fixed `latency`, and the real
 * CLI backfills a range of transactions into DuckDB with `rate: { rps }` (default concurrency).
 *
 *   ratio = transactions written / run seconds ÷ (rps × 1000)
 *
 * The run is timed from the first request the devnet receives to the exit of the CLI (node start-up,
 * module loading and opening DuckDB come before that and are reported apart as start-up). 429s and
 * requests are counted by the devnet. Beside each case: the CPU-bound ceiling, cores ÷ CPU-seconds
 * per row, where the CPU is that of the ETL process and of the devnet together (both run on this
 * machine), and the ETL-alone figure 1 ÷ ETL CPU-seconds per row (one core's worth, the limit of one
 * ETL process whose JS runs on one thread).
 *
 *   node .bench-build/bench/ceiling.js [scale=1] [rps=1,10,25,100]
 */
import { join } from 'node:path';
import { defaultConcurrency } from '../src/config/defaults.js';
import { CORES, DevnetProcess, load, log, readDuckDBWarehouse, round, runCli, tempDir, writePipeline } from './harness.js';

export interface CeilingCase {
  readonly rps: number;
  readonly latencyMs: number;
  /** Size of the range, transactions. */
  readonly transactions: number;
}

export interface CeilingResult {
  readonly rps: number;
  readonly latencyMs: number;
  readonly concurrency: number;
  readonly transactions: number;
  /** Spawn → first request, s. */
  readonly startupSeconds: number;
  /** First request → exit, s. */
  readonly runSeconds: number;
  readonly rowsPerSecond: number;
  readonly ratio: number;
  readonly requests: number;
  readonly requestsPer1000Rows: number;
  readonly rateLimited: number;
  readonly rateLimitedAfterFirstSecond: number;
  /** Most requests the devnet saw in any 1 s window. */
  readonly maxPerSecond: number;
  /** Arrival gap before each of the first 429s, ms (the devnet holds rps tokens: at rps 1, one). */
  readonly rateLimitedGapsMs: readonly number[];
  readonly retries: number;
  readonly etlCpuSeconds: number;
  readonly devnetCpuSeconds: number;
  /** cores ÷ (ETL + devnet CPU-seconds per row), rows/s, and as a share of rps × 1000. */
  readonly cpuCeilingRowsPerSecond: number;
  readonly cpuCeilingRatio: number;
  /** 1 ÷ ETL CPU-seconds per row: one core of ETL, rows/s. */
  readonly etlCoreRowsPerSecond: number;
  readonly etlPeakRssMiB: number;
  /** Load average ÷ cores before the case (other work on the machine). */
  readonly loadBefore: number;
}

export const CEILING_CASES: readonly CeilingCase[] = [1, 10, 25, 100].flatMap((rps) =>
  [50, 400].map((latencyMs) => ({ rps, latencyMs, transactions: rps === 1 ? 60_000 : 30_000 })),
);

export async function measureCeiling(cases: readonly CeilingCase[] = CEILING_CASES): Promise<CeilingResult[]> {
  const total = cases.reduce((sum, c) => sum + c.transactions, 0);
  const devnet = await DevnetProcess.start(Math.ceil(total / 22) + 200);
  log(`ceiling: devnet of ${devnet.info.blocks} blocks (${devnet.info.transactions} transactions) ready in ${devnet.info.startupSeconds.toFixed(1)} s`);
  const dir = tempDir('ceiling');
  const results: CeilingResult[] = [];
  let nextStep = 1;
  try {
    for (const c of cases) {
      const { id, url } = await devnet.serve(c.rps, c.latencyMs);
      const range = await devnet.range(nextStep, c.transactions);
      nextStep = range.toStep;
      const name = `rps${c.rps}-lat${c.latencyMs}`;
      const warehouse = join(dir, `${name}.duckdb`);
      const pipeline = writePipeline(dir, name, { baseUrl: url, rps: c.rps, streams: ['transactions'], sink: { kind: 'duckdb', path: warehouse } });
      const loadBefore = load();
      const before = await devnet.usage();
      const run = await runCli('backfill', pipeline, ['--from', `lt:${range.fromLt}`, '--to', `lt:${range.toLt}`]);
      const after = await devnet.usage();
      const stats = await devnet.stats(id);
      await devnet.closeListener(id);
      const warehouseRows = await readDuckDBWarehouse(warehouse);
      const rows = warehouseRows.tables['transactions'] ?? 0;
      const firstAt = stats.firstAt ?? run.spawnedAt;
      const runSeconds = (run.exitedAt - firstAt) / 1000;
      const rowsPerSecond = rows / runSeconds;
      const devnetCpu = after.cpuSeconds - before.cpuSeconds;
      const cpuPerRow = (run.cpuSeconds + devnetCpu) / rows;
      const result: CeilingResult = {
        rps: c.rps,
        latencyMs: c.latencyMs,
        concurrency: defaultConcurrency(c.rps),
        transactions: rows,
        startupSeconds: round((firstAt - run.spawnedAt) / 1000, 2),
        runSeconds: round(runSeconds, 2),
        rowsPerSecond: round(rowsPerSecond),
        ratio: round(rowsPerSecond / (c.rps * 1000), 3),
        requests: stats.requests,
        requestsPer1000Rows: round((stats.requests / rows) * 1000, 3),
        rateLimited: stats.rateLimited,
        rateLimitedAfterFirstSecond: stats.rateLimitedAfterFirstSecond,
        maxPerSecond: stats.maxPerSecond,
        rateLimitedGapsMs: stats.rateLimitedGapsMs,
        retries: warehouseRows.runs.at(-1)?.retries ?? 0,
        etlCpuSeconds: round(run.cpuSeconds, 2),
        devnetCpuSeconds: round(devnetCpu, 2),
        cpuCeilingRowsPerSecond: round(CORES / cpuPerRow),
        cpuCeilingRatio: round(CORES / cpuPerRow / (c.rps * 1000), 3),
        etlCoreRowsPerSecond: round(rows / run.cpuSeconds),
        etlPeakRssMiB: run.peakRssMiB,
        loadBefore,
      };
      log(
        `ceiling rps ${c.rps} latency ${c.latencyMs} ms: ${rows} tx in ${result.runSeconds} s = ${result.rowsPerSecond}/s, ratio ${result.ratio}, ` +
          `${result.requests} requests, ${result.rateLimited} × 429 (${result.rateLimitedAfterFirstSecond} after 1 s), CPU ceiling ${result.cpuCeilingRowsPerSecond}/s`,
      );
      results.push(result);
    }
  } finally {
    await devnet.stop();
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const scale = Number(process.argv[2] ?? 1);
  const rates = process.argv[3]?.split(',').map(Number);
  const cases = CEILING_CASES.filter((c) => rates === undefined || rates.includes(c.rps)).map((c) => ({
    ...c,
    transactions: Math.round(c.transactions * scale),
  }));
  measureCeiling(cases).then((results) => console.log(JSON.stringify(results, null, 2)));
}
