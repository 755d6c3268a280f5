/**
 * What every benchmark shares: a bench devnet child process (bench/devnet-server.ts), pipeline files
 * in a temp dir, the real CLI (`node bin/chain-etl.js …`) spawned with the resource probe
 * (bench/probe.ts) preloaded, and reading the warehouse afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import type { DevnetCommand, RangeReply, ReadyLine, ServeReply, ServerStats, UsageReply } from './devnet-server.js';
import { BENCH_KEY } from './devnet-server.js';
import type { ProbeReport } from './probe.js';

/** .bench-build/bench → the project root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUILD = dirname(fileURLToPath(import.meta.url));
export const CLI = join(ROOT, 'bin', 'chain-etl.js');
export const CORES = availableParallelism();
/** Environment variable the bench pipelines name in `api_key_env`. */
export const KEY_ENV = 'CHAIN_ETL_BENCH_KEY';
export { BENCH_KEY };

/** A scratch dir removed by `cleanupTemp()` (run.ts calls it at the end). */
const temps: string[] = [];
export function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `chain-etl-bench-${label}-`));
  temps.push(dir);
  return dir;
}
export function cleanupTemp(): void {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function log(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

/** The 1-minute load average over the cores, as a share (1.0 = every core busy on average). */
export function load(): number {
  return round(loadavg()[0]! / CORES, 2);
}

export function round(value: number, digits = 0): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

// ---------------------------------------------------------------------------------------------
// The bench devnet child process

/** A running bench/devnet-server.js: one chain, any number of listeners over it. */
export class DevnetProcess {
  private readonly pending: ((line: string) => void)[] = [];

  private constructor(
    private readonly child: ChildProcess,
    private readonly lines: Interface,
    readonly info: ReadyLine & { readonly startupSeconds: number },
  ) {
    lines.on('line', (line) => this.pending.shift()?.(line));
  }

  static async start(blocks: number, seed = 7): Promise<DevnetProcess> {
    const started = performance.now();
    const child = spawn(process.execPath, [join(BUILD, 'devnet-server.js'), '--blocks', String(blocks), '--seed', String(seed)], {
      stdio: ['pipe', 'pipe', 'inherit'],
      cwd: ROOT,
    });
    const lines = createInterface({ input: child.stdout! });
    const first = await new Promise<string>((resolveLine, reject) => {
      lines.once('line', resolveLine);
      child.once('exit', (code) => reject(new Error(`bench devnet exited with ${code} before serving`)));
    });
    const ready = JSON.parse(first) as ReadyLine;
    return new DevnetProcess(child, lines, { ...ready, startupSeconds: (performance.now() - started) / 1000 });
  }

  get pid(): number {
    return this.child.pid!;
  }

  private async call<T>(command: DevnetCommand): Promise<T> {
    const line = new Promise<string>((resolveLine) => this.pending.push(resolveLine));
    this.child.stdin!.write(`${JSON.stringify(command)}\n`);
    const reply = JSON.parse(await line) as { ok?: T; error?: string };
    if (reply.error !== undefined) throw new Error(`bench devnet: ${reply.error}`);
    return reply.ok as T;
  }

  serve(keyRps: number, latencyMs: number): Promise<ServeReply> {
    return this.call({ op: 'serve', keyRps, latencyMs });
  }

  /** A listener recording what devnet listener `upstreamId` answers. */
  record(upstreamId: number): Promise<ServeReply> {
    return this.call({ op: 'record', upstreamId });
  }

  /** A listener answering from the recordings, limited to `keyRps` per key with a fixed latency (devnet listener `upstreamId` for what was not recorded). */
  replay(upstreamId: number, keyRps: number, latencyMs: number): Promise<ServeReply> {
    return this.call({ op: 'replay', upstreamId, keyRps, latencyMs });
  }

  stats(id: number): Promise<ServerStats> {
    return this.call({ op: 'stats', id });
  }

  closeListener(id: number): Promise<unknown> {
    return this.call({ op: 'close', id });
  }

  usage(): Promise<UsageReply> {
    return this.call({ op: 'usage' });
  }

  /** The masterchain blocks from `fromStep` holding at least `transactions` transactions. */
  range(fromStep: number, transactions: number): Promise<RangeReply> {
    return this.call({ op: 'range', fromStep, transactions });
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolveExit) => this.child.once('exit', resolveExit));
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    this.lines.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Pipelines and the CLI

export interface PipelineSpec {
  readonly baseUrl: string;
  readonly rps: number;
  /** @default the CLI's default for the rps */
  readonly concurrency?: number;
  readonly streams: readonly string[];
  readonly sink: { readonly kind: 'duckdb' | 'parquet'; readonly path: string };
  /** `start:` of the file; absent = the first sync starts at the tip. */
  readonly start?: string;
  /** @default 0 */
  readonly lagBlocks?: number;
  /** Page worker threads (`workers:`). @default the CLI's default for the cores */
  readonly workers?: number;
}

export function writePipeline(dir: string, name: string, spec: PipelineSpec): string {
  const rate = spec.concurrency === undefined ? `{ rps: ${spec.rps} }` : `{ rps: ${spec.rps}, concurrency: ${spec.concurrency} }`;
  const lines = [
    'network: mainnet',
    `base_url: ${spec.baseUrl}`,
    `api_key_env: ${KEY_ENV}`,
    `rate: ${rate}`,
    ...(spec.start === undefined ? [] : [`start: ${spec.start}`]),
    `lag: { mc_blocks: ${spec.lagBlocks ?? 0} }`,
    `streams: [${spec.streams.join(', ')}]`,
    `sink: { kind: ${spec.sink.kind}, path: ${spec.sink.path} }`,
    ...(spec.workers === undefined ? [] : [`workers: ${spec.workers}`]),
  ];
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

export interface ProcessRun {
  readonly exitCode: number;
  /** Epoch ms of spawn and exit, as seen by the bench. */
  readonly spawnedAt: number;
  readonly exitedAt: number;
  readonly wallSeconds: number;
  /** What the process itself reported (CPU, peak RSS); undefined if it died without exiting. */
  readonly probe: ProbeReport | undefined;
  readonly cpuSeconds: number;
  readonly peakRssMiB: number;
  /** [seconds since spawn, RSS MiB] every `sampleRssMs`. */
  readonly rssSamples: readonly (readonly [number, number])[];
  readonly stderrTail: string;
  /** What the process printed on stdout. */
  readonly stdout: string;
}

export interface RunOptions {
  /** Node flags before the script, e.g. ['--cpu-prof', '--cpu-prof-dir=…']. */
  readonly nodeFlags?: readonly string[];
  readonly sampleRssMs?: number;
  /** Have the probe sample process.memoryUsage() in the child at this interval. */
  readonly sampleHeapMs?: number;
  /** Fail on a non-zero exit. @default true */
  readonly check?: boolean;
  /** Variables added to the child's environment. @default none */
  readonly env?: Readonly<Record<string, string>>;
}

/** Runs `node [flags] --import probe <script> args…` in the project root and measures it. */
export async function runMeasured(script: string, args: readonly string[], options: RunOptions = {}): Promise<ProcessRun> {
  const probeOut = join(tempDir('probe'), 'probe.json');
  const spawnedAt = Date.now();
  const started = performance.now();
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), '--import', pathToFileURL(join(BUILD, 'probe.js')).href, script, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      [KEY_ENV]: BENCH_KEY,
      BENCH_PROBE_OUT: probeOut,
      ...(options.sampleHeapMs === undefined ? {} : { BENCH_PROBE_MEMORY_MS: String(options.sampleHeapMs) }),
      ...options.env,
    },
  });
  let stderr = '';
  let stdout = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    stdout = (stdout + chunk).slice(-100_000);
  });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-8000);
  });
  const rssSamples: [number, number][] = [];
  const sampler =
    options.sampleRssMs === undefined
      ? undefined
      : setInterval(() => {
          const kib = rssKiB(child.pid!);
          if (kib !== undefined) rssSamples.push([round((performance.now() - started) / 1000, 1), round(kib / 1024)]);
        }, options.sampleRssMs);
  let exitedAt = 0;
  let wallSeconds = 0;
  const closed = new Promise<void>((resolveClose) => child.once('close', () => resolveClose()));
  const exitCode = await new Promise<number>((resolveExit) =>
    child.once('exit', (code, signal) => {
      exitedAt = Date.now();
      wallSeconds = (performance.now() - started) / 1000;
      resolveExit(code ?? (signal === null ? 1 : 128));
    }),
  );
  await closed;
  if (sampler !== undefined) clearInterval(sampler);
  const probe = existsSync(probeOut) ? (JSON.parse(readFileSync(probeOut, 'utf8')) as ProbeReport) : undefined;
  if ((options.check ?? true) && exitCode !== 0) {
    throw new Error(`${script} ${args.join(' ')} exited with ${exitCode}:\n${stderr}`);
  }
  return {
    exitCode,
    spawnedAt,
    exitedAt,
    wallSeconds,
    probe,
    cpuSeconds: probe === undefined ? Number.NaN : probe.userSeconds + probe.systemSeconds,
    peakRssMiB: probe === undefined ? Number.NaN : round(probe.maxRssKiB / 1024),
    rssSamples,
    stderrTail: stderr,
    stdout,
  };
}

/** `chain-etl <command> <pipeline> args…`, measured. */
export function runCli(command: 'sync' | 'backfill', pipeline: string, args: readonly string[] = [], options: RunOptions = {}): Promise<ProcessRun> {
  return runMeasured(CLI, [command, pipeline, ...args, '--log-level', 'warn'], options);
}

/** A bench script of this folder (compiled), measured. */
export function runBenchScript(name: string, args: readonly string[], options: RunOptions = {}): Promise<ProcessRun> {
  return runMeasured(join(BUILD, name), args, options);
}

function rssKiB(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match === null ? undefined : Number(match[1]);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Reading what a run wrote

export interface RunRow {
  readonly command: string;
  readonly status: string;
  readonly rows: Record<string, number>;
  readonly requests: Record<string, number>;
  readonly retries: number;
}

export interface WarehouseSummary {
  /** Rows per table now in the warehouse (bookkeeping tables excluded). */
  readonly tables: Record<string, number>;
  /** `_etl_runs`, oldest first. */
  readonly runs: readonly RunRow[];
}

/** Row counts and runs of a DuckDB warehouse file (opened read-only after the writer exited). */
export async function readDuckDBWarehouse(path: string): Promise<WarehouseSummary> {
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    const names = (await connection.runAndReadAll(`SELECT table_name FROM duckdb_tables() WHERE NOT starts_with(table_name, '_etl_') ORDER BY 1`))
      .getRows()
      .map(([name]) => String(name));
    const tables: Record<string, number> = {};
    for (const name of names) tables[name] = Number((await connection.runAndReadAll(`SELECT count(*) FROM "${name}"`)).getRows()[0]![0]);
    const runs = (await connection.runAndReadAll(`SELECT command, status, rows, requests, retries FROM _etl_runs ORDER BY started_at, run_id`))
      .getRows()
      .map(([command, status, rows, requests, retries]) => ({
        command: String(command),
        status: String(status),
        rows: JSON.parse(String(rows)) as Record<string, number>,
        requests: JSON.parse(String(requests)) as Record<string, number>,
        retries: Number(retries),
      }));
    return { tables, runs };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Row counts per table of a Parquet warehouse, from its manifest. */
export function readParquetWarehouse(folder: string): Record<string, number> {
  const manifest = JSON.parse(readFileSync(join(folder, '_manifest.json'), 'utf8')) as {
    tables: Record<string, { files: { rows: number }[] }>;
  };
  const tables: Record<string, number> = {};
  for (const [name, entry] of Object.entries(manifest.tables)) {
    if (!name.startsWith('_etl_')) tables[name] = entry.files.reduce((sum, file) => sum + file.rows, 0);
  }
  return tables;
}

/** Parquet files the manifest lists, over all tables. */
export function parquetFileCount(folder: string): number {
  const manifest = JSON.parse(readFileSync(join(folder, '_manifest.json'), 'utf8')) as { tables: Record<string, { files: unknown[] }> };
  return Object.values(manifest.tables).reduce((sum, entry) => sum + entry.files.length, 0);
}

/** `mc:` seqno of a 0-based devnet step, for --from/--to. */
export function mcPoint(step: number): string {
  return `mc:${50_000_000 + step}`;
}
