/**
 * Preloaded into a measured process with `node --import <this file>`: when the process exits (normally
 * or through process.exit), writes its own resource usage to $BENCH_PROBE_OUT as JSON. getrusage
 * covers every thread of the process (DuckDB's worker threads included); maxRSS is the peak resident
 * set (the kernel's ru_maxrss, the same figure as VmHWM). Nothing is written without the variable.
 */
import { writeFileSync } from 'node:fs';

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
   * With $BENCH_PROBE_MEMORY_MS: the largest values of process.memoryUsage() seen, sampled at that
   * interval, MiB: the JS heap, memory outside it held by JS objects (external: Buffers and the
   * like), and the RSS (which also holds native memory, e.g. DuckDB's).
   */
  readonly memory?: { readonly heapUsedMiB: number; readonly heapTotalMiB: number; readonly externalMiB: number; readonly rssMiB: number; readonly liveHeapMiB?: number };
}

const out = process.env['BENCH_PROBE_OUT'];
if (out !== undefined && out !== '') {
  const every = Number(process.env['BENCH_PROBE_MEMORY_MS'] ?? 0);
  const peak = { heapUsedMiB: 0, heapTotalMiB: 0, externalMiB: 0, rssMiB: 0 };
  const sample = (): void => {
    const usage = process.memoryUsage();
    const mib = (bytes: number): number => Math.round(bytes / 2 ** 20);
    peak.heapUsedMiB = Math.max(peak.heapUsedMiB, mib(usage.heapUsed));
    peak.heapTotalMiB = Math.max(peak.heapTotalMiB, mib(usage.heapTotal));
    peak.externalMiB = Math.max(peak.externalMiB, mib(usage.external));
    peak.rssMiB = Math.max(peak.rssMiB, mib(usage.rss));
  };
  if (every > 0) setInterval(sample, every).unref();
  // Diagnostics only (run the child with --expose-gc): the JS heap still in use right after a full GC.
  const gc = (globalThis as { gc?: () => void }).gc;
  const gcEvery = Number(process.env['BENCH_PROBE_GC_MS'] ?? 0);
  let liveHeapMiB = 0;
  if (gc !== undefined && gcEvery > 0) {
    setInterval(() => {
      gc();
      liveHeapMiB = Math.max(liveHeapMiB, Math.round(process.memoryUsage().heapUsed / 2 ** 20));
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
      ...(every > 0 ? { memory: liveHeapMiB > 0 ? { ...peak, liveHeapMiB } : peak } : {}),
    };
    writeFileSync(out, JSON.stringify(report));
  });
}
