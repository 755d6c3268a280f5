/**
 * The page workers' heaps, for the probe (probe.ts): `--import` does not reach worker threads, so
 * the probe has every Worker the process starts load this module first, which reports the thread's
 * V8 heap on a broadcast channel at the probe's interval and then loads the worker's own script.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { pathToFileURL } from 'node:url';
import * as threads from 'node:worker_threads';

export const WORKER_HEAP_CHANNEL = 'chain-etl-bench-probe-worker-heap';

/** One worker's report, bytes. */
export interface WorkerHeap {
  readonly threadId: number;
  readonly heapTotal: number;
  readonly external: number;
}

interface ProbedWorkerData {
  readonly benchProbeScript: string;
  readonly benchProbeEvery: number;
}

/** Makes every `new Worker(script)` of this process (ESM imports included) start through this module. */
export function probedWorkers(every: number): void {
  const Original = threads.Worker;
  class ProbedWorker extends Original {
    constructor(script: string | URL, options: threads.WorkerOptions = {}) {
      if (options.eval === true || options.workerData !== undefined) {
        super(script, options);
        return;
      }
      const href = script instanceof URL ? script.href : pathToFileURL(script).href;
      const workerData: ProbedWorkerData = { benchProbeScript: href, benchProbeEvery: every };
      super(new URL(import.meta.url), { ...options, workerData });
    }
  }
  // The builtin's CommonJS exports are the ones syncBuiltinESMExports copies to its ESM bindings.
  (createRequire(import.meta.url)('node:worker_threads') as { Worker: typeof threads.Worker }).Worker = ProbedWorker;
  syncBuiltinESMExports();
}

if (!threads.isMainThread && typeof (threads.workerData as Partial<ProbedWorkerData> | undefined)?.benchProbeScript === 'string') {
  const { benchProbeScript, benchProbeEvery } = threads.workerData as ProbedWorkerData;
  const channel = new threads.BroadcastChannel(WORKER_HEAP_CHANNEL);
  channel.unref();
  setInterval(() => {
    const usage = process.memoryUsage();
    const heap: WorkerHeap = { threadId: threads.threadId, heapTotal: usage.heapTotal, external: usage.external };
    channel.postMessage(heap);
  }, benchProbeEvery).unref();
  await import(benchProbeScript);
}
