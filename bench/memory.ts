/**
 * 5. Memory: peak RSS of the ETL process backfilling ranges of transactions of growing size into
 * DuckDB (default sink), unthrottled devnet, `rate: { rps: 100 }` (so the default concurrency, 16
 * pages in flight: the most memory a pipeline gets without setting concurrency). Peak RSS is the
 * kernel's (getrusage maxrss); the RSS is also sampled every second, to show whether it grows
 * during a run and with the size of the range.
 *
 *   node .bench-build/bench/memory.js [sizes=60000,250000]
 */
import { join } from 'node:path';
import { DevnetProcess, load, log, readDuckDBWarehouse, round, runCli, tempDir, writePipeline } from './harness.js';

export interface MemoryResult {
  readonly transactions: number;
  readonly peakRssMiB: number;
  /** Sampled RSS at 25, 50, 75 and 100 % of the run's wall time, MiB. */
  readonly rssAtQuarters: readonly number[];
  /** Largest JS heap in use and `external` (Buffers) seen, MiB: the rest of the RSS is native (DuckDB, V8 code). */
  readonly heapUsedMiB: number | undefined;
  readonly externalMiB: number | undefined;
  readonly wallSeconds: number;
  readonly rowsPerSecond: number;
  readonly cpuSeconds: number;
  readonly loadBefore: number;
}

export interface MemorySuite {
  readonly devnet: { readonly blocks: number; readonly transactions: number; readonly startupSeconds: number; readonly peakRssMiB: number };
  readonly runs: readonly MemoryResult[];
}

export async function measureMemory(sizes: readonly number[] = [60_000, 250_000]): Promise<MemorySuite> {
  const largest = Math.max(...sizes);
  const devnet = await DevnetProcess.start(Math.ceil(largest / 22) + 200);
  log(`memory: devnet of ${devnet.info.blocks} blocks (${devnet.info.transactions} tx) ready in ${devnet.info.startupSeconds.toFixed(1)} s`);
  const dir = tempDir('memory');
  const runs: MemoryResult[] = [];
  try {
    const { url } = await devnet.serve(1_000_000, 0);
    for (const size of sizes) {
      const range = await devnet.range(1, size);
      const warehouse = join(dir, `m${size}.duckdb`);
      const pipeline = writePipeline(dir, `m${size}`, { baseUrl: url, rps: 100, streams: ['transactions'], sink: { kind: 'duckdb', path: warehouse } });
      const loadBefore = load();
      const run = await runCli('backfill', pipeline, ['--from', `lt:${range.fromLt}`, '--to', `lt:${range.toLt}`], { sampleRssMs: 1000, sampleHeapMs: 500 });
      const rows = (await readDuckDBWarehouse(warehouse)).tables['transactions'] ?? 0;
      const at = (share: number): number => {
        const t = run.wallSeconds * share;
        const sample = run.rssSamples.filter(([s]) => s <= t).at(-1);
        return sample?.[1] ?? Number.NaN;
      };
      const result: MemoryResult = {
        transactions: rows,
        peakRssMiB: run.peakRssMiB,
        rssAtQuarters: [0.25, 0.5, 0.75, 1].map(at),
        heapUsedMiB: run.probe?.memory?.heapUsedMiB,
        externalMiB: run.probe?.memory?.externalMiB,
        wallSeconds: round(run.wallSeconds, 1),
        rowsPerSecond: round(rows / run.wallSeconds),
        cpuSeconds: round(run.cpuSeconds, 1),
        loadBefore,
      };
      log(`memory: ${rows} tx, peak RSS ${result.peakRssMiB} MiB (quarters ${result.rssAtQuarters.join(', ')}; JS heap ≤ ${result.heapUsedMiB} MiB, external ≤ ${result.externalMiB} MiB), ${result.wallSeconds} s`);
      runs.push(result);
    }
    const usage = await devnet.usage();
    return {
      devnet: { blocks: devnet.info.blocks, transactions: devnet.info.transactions, startupSeconds: round(devnet.info.startupSeconds, 1), peakRssMiB: round(usage.maxRssKiB / 1024) },
      runs,
    };
  } finally {
    await devnet.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = (process.argv[2] ?? '60000,250000').split(',').map(Number);
  measureMemory(sizes).then((result) => console.log(JSON.stringify(result, null, 2)));
}
