/**
 * Local cost of two builds in one run: the ETL of another checkout (`--before`, built: its
 * `bin/chain-etl.js` and `dist/`) and of this one backfill the same range from one devnet, into
 * DuckDB and into Parquet, alternated with DuckDB's `read_json` loading the same saved pages
 * (bench/duckdb-loader.ts), for `rounds` rounds. On a machine shared with other work CPU-seconds move
 * from minute to minute; alternating puts both builds and the loader under the same load, and the
 * lower of the rounds is the steadier figure.
 *
 *   node .bench-build/bench/before-after.js --before DIR [--transactions 50000] [--rounds 3]
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CLI, DevnetProcess, load, log, readDuckDBWarehouse, readParquetWarehouse, round, runBenchScript, runMeasured, tempDir, writePipeline, type ProcessRun } from './harness.js';
import { savePages } from './local-cost.js';

type SinkKind = 'duckdb' | 'parquet';

export interface BeforeAfterRun {
  readonly round: number;
  readonly sink: SinkKind;
  readonly what: 'before' | 'after' | 'read_json';
  readonly transactions: number;
  /** CPU-seconds per 100,000 transactions. */
  readonly per100k: number;
  /** The 1-minute load per core when the run ended. */
  readonly load: number;
}

export interface BeforeAfterResult {
  readonly runs: readonly BeforeAfterRun[];
  /** Per sink: the lowest CPU-s per 100k of each, and each build's lowest ÷ the loader's lowest. */
  readonly lowest: Readonly<Record<SinkKind, { readonly before: number; readonly after: number; readonly readJson: number; readonly beforeRatio: number; readonly afterRatio: number }>>;
}

const per100k = (run: ProcessRun, transactions: number): number => round((run.cpuSeconds / transactions) * 100_000, 2);

export async function measureBeforeAfter(beforeRoot: string, transactions = 50_000, rounds = 3): Promise<BeforeAfterResult> {
  const builds = { before: join(beforeRoot, 'bin', 'chain-etl.js'), after: CLI } as const;
  const devnet = await DevnetProcess.start(Math.ceil(transactions / 22) + 200);
  const dir = tempDir('before-after');
  try {
    const { url } = await devnet.serve(1_000_000, 0);
    const range = await devnet.range(1, transactions);
    const pagesDir = join(dir, 'pages');
    await savePages(url, BigInt(range.fromLt), BigInt(range.toLt) - 1n, pagesDir);
    const runs: BeforeAfterRun[] = [];
    let count = 0;
    const record = (run: Omit<BeforeAfterRun, 'load'>): void => {
      runs.push({ ...run, load: load() });
      log(`before/after: ${JSON.stringify(runs.at(-1))}`);
    };
    for (let n = 0; n < rounds; n++) {
      for (const sink of ['duckdb', 'parquet'] as const) {
        for (const [what, cli] of Object.entries(builds) as ['before' | 'after', string][]) {
          const name = `${what}-${sink}-${++count}`;
          const path = join(dir, sink === 'duckdb' ? `${name}.duckdb` : name);
          const pipeline = writePipeline(dir, name, { baseUrl: url, rps: 1000, concurrency: 8, streams: ['transactions'], sink: { kind: sink, path } });
          const run = await runMeasured(cli, ['backfill', pipeline, '--from', `lt:${range.fromLt}`, '--to', `lt:${range.toLt}`, '--log-level', 'warn']);
          const written = sink === 'duckdb' ? (await readDuckDBWarehouse(path)).tables['transactions'] : readParquetWarehouse(path)['transactions'];
          record({ round: n, sink, what, transactions: written ?? 0, per100k: per100k(run, written ?? 0) });
        }
        const out = join(dir, `loader-${sink}-${++count}`);
        const args = sink === 'duckdb' ? ['--pages', pagesDir, '--db', `${out}.duckdb`] : (mkdirSync(out), ['--pages', pagesDir, '--parquet', out]);
        const run = await runBenchScript('duckdb-loader.js', args);
        const loaded = (JSON.parse(run.stdout) as { transactions: number }).transactions;
        record({ round: n, sink, what: 'read_json', transactions: loaded, per100k: per100k(run, loaded) });
      }
    }
    const lowestOf = (sink: SinkKind, what: BeforeAfterRun['what']): number => Math.min(...runs.filter((r) => r.sink === sink && r.what === what).map((r) => r.per100k));
    const lowestFor = (sink: SinkKind): BeforeAfterResult['lowest'][SinkKind] => {
      const [before, after, readJson] = [lowestOf(sink, 'before'), lowestOf(sink, 'after'), lowestOf(sink, 'read_json')];
      return { before, after, readJson, beforeRatio: round(before / readJson, 2), afterRatio: round(after / readJson, 2) };
    };
    return { runs, lowest: { duckdb: lowestFor('duckdb'), parquet: lowestFor('parquet') } };
  } finally {
    await devnet.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { before: { type: 'string' }, transactions: { type: 'string' }, rounds: { type: 'string' } } });
  if (values.before === undefined) throw new Error('before-after: --before DIR (a built checkout) is required');
  const result = await measureBeforeAfter(values.before, Number(values.transactions ?? 50_000), Number(values.rounds ?? 3));
  console.log(JSON.stringify(result, null, 2));
}
