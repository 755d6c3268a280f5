/**
 * 5. Memory: peak RSS of the ETL process backfilling ranges of transactions of growing size into
 * DuckDB (default sink), unthrottled devnet, `rate: { rps: 100 }` (so the default concurrency, 16
 * pages in flight: the most memory a pipeline gets without setting concurrency). Peak RSS is the
 * kernel's (getrusage maxrss); the RSS is also sampled every second, to show whether it grows
 * during a run and with the size of the range, and the probe (probe.ts) says what held it: the main
 * thread's heap, the page workers' heaps, memory held by JS objects outside them, DuckDB's own
 * accounting, and the rest.
 *
 *   node .bench-build/bench/memory.js [sizes=250000,1000000]
 */
import { join } from 'node:path';
import { startupOf, type DevnetStartupResult } from './devnet-startup.js';
import { DevnetProcess, load, log, readDuckDBWarehouse, round, runCli, tempDir, writePipeline } from './harness.js';
import type { MemoryShares } from './probe.js';

/** The sizes: 1,000,000 transactions, and 250,000 to show the peak does not grow with the range. */
export const MEMORY_SIZES: readonly number[] = [250_000, 1_000_000];

export interface MemoryResult {
  readonly transactions: number;
  readonly peakRssMiB: number;
  /** Sampled RSS at 25, 50, 75 and 100 % of the run's wall time, MiB. */
  readonly rssAtQuarters: readonly number[];
  /** Largest JS heap in use and `external` (Buffers) seen in the main thread, MiB. */
  readonly heapUsedMiB: number | undefined;
  readonly externalMiB: number | undefined;
  /** What held the memory (probe.ts) at the sample of the largest RSS, and the largest of each share. */
  readonly atPeakRss: MemoryShares | undefined;
  readonly largest: MemoryShares | undefined;
  readonly wallSeconds: number;
  readonly rowsPerSecond: number;
  readonly cpuSeconds: number;
  readonly loadBefore: number;
}

export interface MemorySuite {
  /** The devnet's start-up, measured as bench/devnet-startup.ts does, before the runs. */
  readonly devnet: DevnetStartupResult;
  readonly runs: readonly MemoryResult[];
}

export interface MemoryOptions {
  /**
   * Blocks of the devnet, e.g. the 40,000 of issue 14's bound (about 1,039,000 transactions), so that its
   * start-up is reported from the same chain. @default enough for the largest size, with a margin
   */
  readonly devnetBlocks?: number;
}

/** Blocks that surely hold `transactions` (the devnet averages about 26 per masterchain block). */
const blocksFor = (transactions: number): number => Math.ceil(transactions / 22) + 200;

export async function measureMemory(sizes: readonly number[] = MEMORY_SIZES, options: MemoryOptions = {}): Promise<MemorySuite> {
  const largest = Math.max(...sizes);
  const devnet = await DevnetProcess.start(options.devnetBlocks ?? blocksFor(largest));
  log(`memory: devnet of ${devnet.info.blocks} blocks (${devnet.info.transactions} tx) ready in ${devnet.info.startupSeconds.toFixed(1)} s`);
  const dir = tempDir('memory');
  const runs: MemoryResult[] = [];
  try {
    const { url } = await devnet.serve(1_000_000, 0);
    const startup = await startupOf(devnet, url);
    for (const size of sizes) runs.push(await measureBackfill(devnet, url, dir, size));
    return { devnet: startup, runs };
  } finally {
    await devnet.stop();
  }
}

async function measureBackfill(devnet: DevnetProcess, url: string, dir: string, size: number): Promise<MemoryResult> {
  const range = await devnet.range(1, size);
  if (range.transactions < size) throw new Error(`the devnet holds ${range.transactions} transactions after its first block, fewer than the ${size} asked for`);
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
    atPeakRss: run.probe?.memory?.atPeakRss,
    largest: largestShares(run.probe?.memory),
    wallSeconds: round(run.wallSeconds, 1),
    rowsPerSecond: round(rows / run.wallSeconds),
    cpuSeconds: round(run.cpuSeconds, 1),
    loadBefore,
  };
  log(`memory: ${rows} tx, peak RSS ${result.peakRssMiB} MiB (quarters ${result.rssAtQuarters.join(', ')}; at the peak: ${sharesText(result.atPeakRss)}), ${result.wallSeconds} s, ${result.cpuSeconds} CPU-s`);
  return result;
}

function largestShares(memory: (MemoryShares & { readonly atPeakRss: MemoryShares }) | undefined): MemoryShares | undefined {
  if (memory === undefined) return undefined;
  const { atPeakRss: _, ...largest } = memory;
  return largest;
}

/** "RSS 500 = main heap 120 (used 80), worker heap 60, external 20 (ArrayBuffers 5), DuckDB 100, rest 200 MiB": the shares of one sample. */
export function sharesText(shares: MemoryShares | undefined): string {
  if (shares === undefined) return 'not sampled';
  return (
    `RSS ${shares.rssMiB} = main heap ${shares.heapTotalMiB} (used ${shares.heapUsedMiB}), worker heap ${shares.workersHeapMiB}, ` +
    `external ${shares.externalMiB + shares.workersExternalMiB} (ArrayBuffers ${shares.arrayBuffersMiB}), DuckDB ${shares.duckdbMiB}, rest ${shares.restMiB} MiB`
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv[2] === undefined ? MEMORY_SIZES : process.argv[2].split(',').map(Number);
  measureMemory(sizes).then((result) => console.log(JSON.stringify(result, null, 2)));
}
