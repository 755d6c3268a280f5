/**
 * Preloaded into a measured process with `node --import <this file>`: when the process exits (normally
 * or through process.exit), writes its own resource usage to $BENCH_PROBE_OUT as JSON. getrusage
 * covers every thread of the process (DuckDB's worker threads included); maxRSS is the peak resident
 * set (the kernel's ru_maxrss, the same figure as VmHWM). Nothing is written without the variable.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BroadcastChannel } from 'node:worker_threads';
import { probedWorkers, WORKER_HEAP_CHANNEL, type WorkerHeap } from './probe-worker-heap.js';

/** What held the memory at one moment, MiB. */
export interface MemoryShares {
  readonly rssMiB: number;
  /** The main thread's V8 heap: in use, and committed (what the RSS holds of it). */
  readonly heapUsedMiB: number;
  readonly heapTotalMiB: number;
  /** Memory outside the main heap that its JS objects hold (Buffers, ArrayBuffers among it). */
  readonly externalMiB: number;
  readonly arrayBuffersMiB: number;
  /** The page workers' V8 heaps together, committed, and their external memory. */
  readonly workersHeapMiB: number;
  readonly workersExternalMiB: number;
  /** DuckDB's own accounting of its memory (`duckdb_memory()`), every open writable database. */
  readonly duckdbMiB: number;
  /** The RSS less all of the above: native memory nothing above counts (allocator caches, code, stacks, DuckDB beyond its accounting). */
  readonly restMiB: number;
}

export interface ProbeReport {
  readonly exitCode: number;
  /** CPU seconds in user and kernel mode, all threads. */
  readonly userSeconds: number;
  readonly systemSeconds: number;
  /** Peak resident set size, KiB. */
  readonly maxRssKiB: number;
  /** Epoch ms when the process started (performance.timeOrigin) and when it exited. */
  readonly startedAt: number;
  readonly exitedAt: number;
  /**
   * With $BENCH_PROBE_MEMORY_MS: what held the memory, sampled at that interval: the largest value of
   * each share seen, and all shares at the sample of the largest RSS.
   */
  readonly memory?: MemoryShares & { readonly atPeakRss: MemoryShares; readonly liveHeapMiB?: number };
}

const mib = (bytes: number): number => Math.round(bytes / 2 ** 20);

/** The latest heap report of each page worker; a report older than three intervals is of a worker gone. */
function workerHeaps(every: number): () => { heapMiB: number; externalMiB: number } {
  const latest = new Map<number, WorkerHeap & { at: number }>();
  const channel = new BroadcastChannel(WORKER_HEAP_CHANNEL);
  channel.unref();
  channel.onmessage = (event) => {
    const heap = (event as { data: WorkerHeap }).data;
    latest.set(heap.threadId, { ...heap, at: Date.now() });
  };
  return () => {
    let heap = 0;
    let external = 0;
    for (const [threadId, report] of latest) {
      if (Date.now() - report.at > 3 * every) latest.delete(threadId);
      else {
        heap += report.heapTotal;
        external += report.external;
      }
    }
    return { heapMiB: mib(heap), externalMiB: mib(external) };
  };
}

interface ProbedInstance {
  connect(): Promise<{ runAndReadAll(sql: string): Promise<{ getRows(): unknown[][] }>; closeSync(): void }>;
  closeSync(): void;
}

/**
 * DuckDB's accounting of its own memory in every writable database the process opens: a second
 * connection per database, queried every `every` ms, closed before the database is.
 */
function duckdbMemory(every: number): () => number {
  const api = createRequire(import.meta.url)('@duckdb/node-api') as {
    DuckDBInstance: { create(path: string, config?: Record<string, string>): Promise<ProbedInstance> };
  };
  const bytes = new Map<ProbedInstance, number>();
  const create = api.DuckDBInstance.create.bind(api.DuckDBInstance);
  api.DuckDBInstance.create = async (path, config) => {
    const instance = await create(path, config);
    if (config?.['access_mode'] === 'READ_ONLY') return instance;
    const connection = await instance.connect();
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      connection
        .runAndReadAll('SELECT coalesce(sum(memory_usage_bytes), 0)::DOUBLE FROM duckdb_memory()')
        .then((reader) => bytes.set(instance, Number(reader.getRows()[0]?.[0] ?? 0)))
        .catch(() => undefined)
        .finally(() => (busy = false));
    }, every);
    timer.unref();
    const closeSync = instance.closeSync.bind(instance);
    instance.closeSync = () => {
      clearInterval(timer);
      bytes.delete(instance);
      connection.closeSync();
      closeSync();
    };
    return instance;
  };
  return () => mib([...bytes.values()].reduce((sum, b) => sum + b, 0));
}

const out = process.env['BENCH_PROBE_OUT'];
if (out !== undefined && out !== '') {
  const every = Number(process.env['BENCH_PROBE_MEMORY_MS'] ?? 0);
  const workers = every > 0 ? workerHeaps(every) : undefined;
  if (every > 0) probedWorkers(every);
  const duckdb = every > 0 ? duckdbMemory(every) : undefined;
  let peak: Record<keyof MemoryShares, number> | undefined;
  let atPeakRss: MemoryShares | undefined;
  const sample = (): void => {
    const usage = process.memoryUsage();
    const inWorkers = workers?.() ?? { heapMiB: 0, externalMiB: 0 };
    const duckdbMiB = duckdb?.() ?? 0;
    const counted = mib(usage.heapTotal) + mib(usage.external) + inWorkers.heapMiB + inWorkers.externalMiB + duckdbMiB;
    const now: MemoryShares = {
      rssMiB: mib(usage.rss),
      heapUsedMiB: mib(usage.heapUsed),
      heapTotalMiB: mib(usage.heapTotal),
      externalMiB: mib(usage.external),
      arrayBuffersMiB: mib(usage.arrayBuffers),
      workersHeapMiB: inWorkers.heapMiB,
      workersExternalMiB: inWorkers.externalMiB,
      duckdbMiB,
      restMiB: mib(usage.rss) - counted,
    };
    if (atPeakRss === undefined || now.rssMiB > atPeakRss.rssMiB) atPeakRss = now;
    peak ??= { ...now };
    for (const key of Object.keys(now) as (keyof MemoryShares)[]) peak[key] = Math.max(peak[key], now[key]);
  };
  if (every > 0) setInterval(sample, every).unref();
  // Diagnostics only (run the child with --expose-gc): the JS heap still in use right after a full GC.
  const gc = (globalThis as { gc?: () => void }).gc;
  const gcEvery = Number(process.env['BENCH_PROBE_GC_MS'] ?? 0);
  let liveHeapMiB = 0;
  if (gc !== undefined && gcEvery > 0) {
    setInterval(() => {
      gc();
      liveHeapMiB = Math.max(liveHeapMiB, mib(process.memoryUsage().heapUsed));
    }, gcEvery).unref();
  }
  process.on('exit', (code) => {
    if (every > 0) sample();
    const usage = process.resourceUsage();
    const report: ProbeReport = {
      exitCode: code,
      userSeconds: usage.userCPUTime / 1e6,
      systemSeconds: usage.systemCPUTime / 1e6,
      maxRssKiB: usage.maxRSS,
      startedAt: performance.timeOrigin,
      exitedAt: Date.now(),
      ...(peak === undefined || atPeakRss === undefined ? {} : { memory: { ...peak, atPeakRss, ...(liveHeapMiB > 0 ? { liveHeapMiB } : {}) } }),
    };
    writeFileSync(out, JSON.stringify(report));
  });
}
