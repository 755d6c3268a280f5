/**
 * `npm run bench`: every benchmark runs the real CLI in its own process against a bench devnet in
 * another (see bench/harness.ts); the figures of this one run are printed as ONE table and written
 * to bench/results/<date>.json and .md. Not part of `npm test`.
 *
 *   npm run bench                       # everything, sized to finish in about 15 minutes on 2 cores
 *   npm run bench -- --only ceiling,naive --scale 0.5
 *   npm run bench -- --memory 60000               # a quick memory run instead of the issue's 250k and 1M
 *
 * Benchmarks: ceiling (1), naive (2), local-cost (3), rows-per-request (4), memory (5), cron (6),
 * replay (the replay server of issue 13), devnet (start-up of the 40,000-block devnet, the memory suite's chain when both run).
 * Each row shows its goal beside the figure; issue 13's goals are marked "#13".
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { measureDevnetStartup, type DevnetStartupResult } from './devnet-startup.js';
import { CEILING_CASES, measureCeiling, type CeilingResult } from './ceiling.js';
import { measureNaive, type NaiveResult } from './naive-client.js';
import { measureLocalCost, type LocalCostResult } from './local-cost.js';
import { measureRowsPerRequest, type RowsPerRequestResult } from './rows-per-request.js';
import { MEMORY_SIZES, measureMemory, sharesText, type MemorySuite } from './memory.js';
import { measureCronNoop, type CronNoopResult } from './cron-noop.js';
import { measureReplay, type ReplayProfile, type ReplayResult } from './replay.js';
import { profileLine } from './cpu-profile.js';
import { CORES, cleanupTemp, load, log, round } from './harness.js';

const ALL = ['cron', 'rows', 'local', 'ceiling', 'naive', 'replay', 'memory', 'devnet'] as const;
type Bench = (typeof ALL)[number];

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    scale: { type: 'string', default: '1' },
    memory: { type: 'string', default: MEMORY_SIZES.join(',') },
    'local-transactions': { type: 'string', default: '50000' },
    'naive-seconds': { type: 'string', default: '12' },
    'replay-transactions': { type: 'string', default: '60000' },
    'devnet-blocks': { type: 'string', default: '40000' },
  },
});
const only = new Set((values.only?.split(',') ?? ALL) as Bench[]);
const scale = Number(values.scale);
const sized = (n: number): number => Math.max(1000, Math.round(n * scale));

interface Results {
  machine: { cores: number; cpu: string; memoryGiB: number; node: string; loadAtStart: number };
  startedAt: string;
  totalSeconds?: number;
  cronNoop?: CronNoopResult[];
  rowsPerRequest?: RowsPerRequestResult;
  localCost?: LocalCostResult;
  ceiling?: CeilingResult[];
  naive?: (NaiveResult & { readonly oursRowsPerSecond: number | undefined; readonly naiveVsOurs: number | undefined })[];
  replay?: ReplayResult[];
  replayProfile?: ReplayProfile;
  memory?: MemorySuite;
  devnetStartup?: DevnetStartupResult;
}

// Ctrl-C: the children get the signal from the terminal too; remove the temp dirs on the way out.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    cleanupTemp();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

const started = performance.now();
const results: Results = {
  machine: { cores: CORES, cpu: cpus()[0]?.model ?? 'unknown', memoryGiB: round(totalmem() / 2 ** 30, 1), node: process.version, loadAtStart: load() },
  startedAt: new Date().toISOString(),
};
log(`chain-etl bench on ${CORES} cores (${results.machine.cpu}), load ${results.machine.loadAtStart} per core at start`);

try {
  if (only.has('cron')) results.cronNoop = await measureCronNoop();
  if (only.has('rows')) results.rowsPerRequest = await measureRowsPerRequest(1000);
  if (only.has('local')) results.localCost = await measureLocalCost(sized(Number(values['local-transactions'])), sized(20_000));
  if (only.has('ceiling')) results.ceiling = await measureCeiling(CEILING_CASES.map((c) => ({ ...c, transactions: sized(c.transactions) })));
  if (only.has('naive')) {
    const naive = await measureNaive(CEILING_CASES, Number(values['naive-seconds']) * Math.min(1, scale));
    results.naive = naive.map((n) => {
      const ours = results.ceiling?.find((c) => c.rps === n.rps && c.latencyMs === n.latencyMs)?.rowsPerSecond;
      return { ...n, oursRowsPerSecond: ours, naiveVsOurs: ours === undefined ? undefined : round(n.rowsPerSecond / ours, 2) };
    });
  }
  if (only.has('replay')) {
    const replay = await measureReplay(sized(Number(values['replay-transactions'])));
    results.replay = replay.results;
    results.replayProfile = replay.profile;
  }
  const devnetBlocks = Number(values['devnet-blocks']);
  if (only.has('memory')) {
    // The memory suite's devnet is the devnet benchmark's chain: its start-up is measured there, not twice.
    results.memory = await measureMemory(values.memory.split(',').map((n) => sized(Number(n))), only.has('devnet') ? { devnetBlocks } : {});
    if (only.has('devnet')) results.devnetStartup = results.memory.devnet;
  } else if (only.has('devnet')) results.devnetStartup = await measureDevnetStartup(devnetBlocks);
} finally {
  cleanupTemp();
}
results.totalSeconds = round((performance.now() - started) / 1000);

// ---------------------------------------------------------------------------------------------
// One table

type Row = [bench: string, scenario: string, measured: string, goal: string, met: string];
const rows: Row[] = [];
const yes = (ok: boolean): string => (ok ? 'yes' : 'NO');
const n0 = (v: number): string => Math.round(v).toLocaleString('en-US');

for (const c of results.ceiling ?? []) {
  const limitedOk = c.rateLimitedAfterFirstSecond === 0;
  const goal = c.rps <= 25 ? '≥ 0.95, no 429 after 1 s' : `≥ 0.95 × CPU ceiling`;
  const ok = c.rps <= 25 ? c.ratio >= 0.95 && limitedOk : c.ratio >= 0.95 * Math.min(1, c.cpuCeilingRatio) && limitedOk;
  rows.push([
    '1 ceiling',
    `rps ${c.rps}, ${c.latencyMs} ms`,
    `${c.ratio.toFixed(2)} (${n0(c.rowsPerSecond)} tx/s); 429: ${c.rateLimited} (${c.rateLimitedAfterFirstSecond} after 1 s); ` +
      `${c.requestsPer1000Rows.toFixed(2)} req/1000 tx; CPU ceiling ${n0(c.cpuCeilingRowsPerSecond)} tx/s = ${c.cpuCeilingRatio.toFixed(2)} ` +
      `(achieved ${(c.rowsPerSecond / c.cpuCeilingRowsPerSecond).toFixed(2)} of it)`,
    goal,
    yes(ok),
  ]);
}
for (const n of results.naive ?? []) {
  rows.push([
    '2 naive client',
    `rps ${n.rps}, ${n.latencyMs} ms`,
    `naive ${n0(n.rowsPerSecond)} tx/s vs ours ${n.oursRowsPerSecond === undefined ? '?' : n0(n.oursRowsPerSecond)}: ` +
      `naive ÷ ours = ${n.naiveVsOurs?.toFixed(2) ?? '?'} (ours ÷ naive ${n.naiveVsOurs === undefined ? '?' : (1 / n.naiveVsOurs).toFixed(2)})`,
    'ours faster',
    n.naiveVsOurs === undefined ? '?' : yes(n.naiveVsOurs < 1),
  ]);
}
const lc = results.localCost;
if (lc !== undefined) {
  rows.push([
    '3 local cost',
    `ETL → DuckDB, ${n0(lc.etlDuckdb.transactions)} tx`,
    `${lc.etlDuckdb.per100k.toFixed(1)} CPU-s/100k tx = ${lc.duckdbVsLoader.toFixed(2)} × read_json (${lc.loaderDuckdb.per100k.toFixed(1)}); ` +
      `JSON.parse floor ${lc.jsonParse.per100k.toFixed(1)}; devnet ${lc.devnetPer100k.toFixed(1)}`,
    '#13: ≤ 0.5 × read_json',
    yes(lc.duckdbVsLoader <= 0.5),
  ]);
  const st = lc.stages;
  rows.push([
    '3 local cost',
    'ETL stages, saved pages',
    `parse ${st.parse.toFixed(1)}, validate ${st.validate.toFixed(1)}, toRows ${st.toRows.toFixed(1)}, check ${st.check.toFixed(1)}, ` +
      `DuckDB commit ${st.commit.toFixed(1)}, close ${st.close.toFixed(1)} CPU-s/100k tx`,
    '—',
    '—',
  ]);
  const paths = lc.commitPaths;
  rows.push([
    '3 local cost',
    'DuckDB write path, saved pages',
    `per value ${paths.perValue.map((v) => v.toFixed(1)).join(' / ')}, data chunks ${paths.chunks.map((v) => v.toFixed(1)).join(' / ')} CPU-s/100k tx ` +
      `(appends + COMMIT, alternated in one process)`,
    '—',
    '—',
  ]);
  const floor = lc.floor;
  rows.push([
    '3 local cost',
    'DuckDB floor, saved pages',
    `${Object.entries(floor.variants).map(([name, v]) => `${name} ${v.toFixed(1)}`).join('; ')}; read_json's parse ${floor.readJson.parse.toFixed(1)} + insert ` +
      `${floor.readJson.insert.toFixed(1)} CPU-s/100k tx (inserts + COMMIT + CHECKPOINT, lowest of 2, alternated in one process)`,
    '—',
    '—',
  ]);
  if (lc.profile !== undefined) {
    rows.push(['3 local cost', `ETL → DuckDB profile, ${n0(lc.profile.transactions)} tx, main thread`, profileLine(lc.profile), '—', '—']);
  }
  rows.push([
    '3 local cost',
    `ETL → Parquet, ${n0(lc.etlParquet.transactions)} tx`,
    `${lc.etlParquet.per100k.toFixed(1)} CPU-s/100k tx = ${lc.parquetVsLoader.toFixed(2)} × read_json → Parquet (${lc.loaderParquet.per100k.toFixed(1)}); ` +
      `${lc.etlParquet.files} files`,
    '#13: ≤ 0.5 × read_json',
    yes(lc.parquetVsLoader <= 0.5),
  ]);
}
const rpr = results.rowsPerRequest;
if (rpr !== undefined) {
  const perStream = Object.entries(rpr.streams)
    .map(([name, s]) => `${name} ${n0(s.rowsPerPage)}`)
    .join(', ');
  rows.push([
    '4 rows/request',
    `4 streams, ${n0(rpr.blocks)} blocks`,
    `${n0(rpr.rowsPerRequest)} (${n0(rpr.rows)} rows / ${rpr.requests} requests); rows per page: ${perStream}`,
    '—',
    '—',
  ]);
}
for (const r of (results.replay ?? []).filter((replay) => replay.defaultWorkers)) {
  const goal = r.rps === 10 ? 0.9 : 0.9 * Math.min(1, r.cpuCeilingRowsPerSecond / r.ceilingRowsPerSecond);
  rows.push([
    '#13 replay',
    `rps ${r.rps}, ${r.latencyMs} ms, ${n0(r.transactions)} tx`,
    `${r.ratio.toFixed(3)} of ${n0(r.ceilingRowsPerSecond)} tx/s (${n0(r.rowsPerSecond)} tx/s); ETL ${r.etlPer100k.toFixed(1)} CPU-s/100k tx; ` +
      `CPU ceiling ${n0(r.cpuCeilingRowsPerSecond)} tx/s; ${r.requests} requests, ${r.notReplayed} not replayed, ${r.rateLimited} × 429; load ${r.loadBefore} per core`,
    r.rps === 10 ? '#13: ≥ 0.9 (≥ 9,000 tx/s)' : `#13: ≥ 0.9 × CPU ceiling (${goal.toFixed(3)})`,
    yes(r.ratio >= goal),
  ]);
}
/** "0 / 1 / 2 workers: a / b / c tx/s, x / y / z CPU-s/100k tx; 2 ÷ 1 workers r" for figures of one case. */
const byWorkers = (figures: readonly { workers: number; rowsPerSecond: number; per100k: number }[]): string => {
  const one = figures.find((f) => f.workers === 1);
  const two = figures.find((f) => f.workers === 2);
  const growth = one === undefined || two === undefined ? '' : `; tx/s 2 ÷ 1 workers ${(two.rowsPerSecond / one.rowsPerSecond).toFixed(2)}`;
  return (
    `${figures.map((f) => f.workers).join(' / ')} workers: ${figures.map((f) => n0(f.rowsPerSecond)).join(' / ')} tx/s, ` +
    `${figures.map((f) => f.per100k.toFixed(1)).join(' / ')} CPU-s/100k tx${growth}`
  );
};
const workersGoal = '#13: tx/s and CPU-s per 100k at 1 and 2 workers; grows with cores';
if (lc !== undefined) rows.push(['#13 workers', `local cost, ETL → DuckDB, ${n0(lc.etlDuckdb.transactions)} tx`, byWorkers(lc.byWorkers), workersGoal, 'reported']);
for (const rps of [...new Set((results.replay ?? []).map((r) => r.rps))]) {
  const runs = (results.replay ?? []).filter((r) => r.rps === rps).map((r) => ({ workers: r.workers, rowsPerSecond: r.rowsPerSecond, per100k: r.etlPer100k }));
  rows.push(['#13 workers', `replay rps ${rps}, ${results.replay?.[0]?.latencyMs ?? '?'} ms`, byWorkers(runs), workersGoal, 'reported']);
}
const rp = results.replayProfile;
for (const thread of rp?.threads ?? []) {
  rows.push(['#13 replay', `rps ${rp!.rps}, ${rp!.latencyMs} ms, ${rp!.workers} workers, profile: ${thread.thread}`, profileLine(thread), '—', '—']);
}
const mem = results.memory;
if (mem !== undefined) {
  const first = mem.runs[0];
  for (const r of mem.runs) {
    const growth = first === undefined || r === first ? '' : `; × ${(r.peakRssMiB / first.peakRssMiB).toFixed(2)} of ${n0(first.transactions)}`;
    rows.push([
      '5 memory',
      `backfill ${n0(r.transactions)} tx`,
      `peak RSS ${r.peakRssMiB} MiB (at ¼ ½ ¾ end: ${r.rssAtQuarters.join(' ')})${growth}; at the peak: ${sharesText(r.atPeakRss)}; ` +
        `${n0(r.rowsPerSecond)} tx/s, ${r.cpuSeconds} CPU-s; load ${r.loadBefore} per core`,
      r === first ? '#13: < 400 MiB' : `#13: < 400 MiB, within 10 % of ${n0(first!.transactions)}`,
      yes(r.peakRssMiB < 400 && (first === undefined || r === first || r.peakRssMiB <= first.peakRssMiB * 1.1)),
    ]);
  }
}
for (const c of results.cronNoop ?? []) {
  const byPath = Object.entries(c.requestsByPath)
    .map(([path, k]) => `${path.replace('/api/v3/', '')} ${k}`)
    .join(', ');
  rows.push([
    '6 cron no-op',
    `4 streams, rps 10, ${c.latencyMs} ms`,
    `${c.wallSeconds.toFixed(2)} s, median of ${c.wallSecondsAll.join(' ')} (start-up ${c.startupSeconds.toFixed(2)} s), ${c.cpuSeconds.toFixed(2)} CPU-s; ` +
      `${c.requests} requests: ${byPath}; load ${c.loadBefore} per core`,
    c.latencyMs <= 50 ? '#13: < 1.0 s, start-up < 0.4 s; ≤ 5 requests' : '< 1.5 s, ≤ 5 requests',
    yes(c.latencyMs <= 50 ? c.wallSeconds < 1.0 && c.startupSeconds < 0.4 && c.requests <= 5 : c.wallSeconds < 1.5 && c.requests <= 5),
  ]);
  rows.push(['6 cron no-op', `where the median run's time goes, ${c.latencyMs} ms`, c.timeline, '—', '—']);
  if (c.profile !== undefined) rows.push(['6 cron no-op', `profile, ${c.latencyMs} ms, main thread`, profileLine(c.profile), '—', '—']);
}
const dv = results.devnetStartup;
if (dv !== undefined) {
  rows.push(['devnet', `${n0(dv.blocks)} blocks`, `${n0(dv.transactions)} tx, serving after ${dv.startupSeconds.toFixed(1)} s, peak RSS ${n0(dv.peakRssMiB)} MiB, page ${dv.pageMs} ms`, '—', '—']);
}

const header: Row = ['benchmark', 'case', 'measured', 'goal', 'met'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (r: Row): string => r.map((cell, i) => cell.padEnd(widths[i]!)).join(' │ ');
console.log('');
console.log(line(header));
console.log(widths.map((w) => '─'.repeat(w)).join('─┼─'));
for (const r of rows) console.log(line(r));
console.log('');
console.log(`${CORES} cores (${results.machine.cpu}), node ${process.version}; load per core at start ${results.machine.loadAtStart}; total ${results.totalSeconds} s`);
console.log('On a machine shared with other work, compare figures of one run (ratios, CPU-s side by side), not runs with each other.');

const markdown = [
  `| ${header.join(' | ')} |`,
  `| ${header.map(() => '---').join(' | ')} |`,
  ...rows.map((r) => `| ${r.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`),
].join('\n');
mkdirSync('bench/results', { recursive: true });
const stamp = results.startedAt.replace(/[:.]/g, '-');
writeFileSync(`bench/results/${stamp}.json`, JSON.stringify(results, null, 2) + '\n');
writeFileSync(`bench/results/${stamp}.md`, markdown + '\n');
console.log(`written to bench/results/${stamp}.json and .md`);
