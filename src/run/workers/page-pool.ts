/**
 * Worker threads that prepare pages (prepared-page.ts) beside the main thread, which keeps the
 * HTTP client, paging and the one writer (docs/design.md §4). A body moves in as a transferred
 * buffer, its rows come back by structured clone. Workers start on the first page that needs one,
 * up to `size`, and a task goes to the least busy. A worker that dies fails the pages it held with a
 * PageWorkerError, and every later one: the run stops and nothing of those pages is stored.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DEFAULT_MAX_RESPONSE_MB } from '../../api/body.js';
import { FatalError } from '../../core/errors.js';
import type { StreamDefinition } from '../../core/stream.js';
import type { PreparedBody } from '../../transform/prepared-page.js';

/** One page for a worker: the registered stream's name and the body's bytes. */
export interface PageTask {
  readonly id: number;
  readonly stream: string;
  readonly body: Uint8Array;
}

/** What a worker posts back: the prepared body, or the words of what it threw. */
export type PageTaskResult = { readonly id: number; readonly body: PreparedBody } | { readonly id: number; readonly failure: string };

/** A page worker died or failed on a page: the run stops (exit 1), its committed pages stay. */
export class PageWorkerError extends FatalError {}

export interface PagePoolOptions {
  /** Worker threads at most. */
  readonly size: number;
  /** The worker's script. @default page-worker.js beside this module (dist/bundle/'s when this runs from src/) */
  readonly script?: URL;
  /** Megabytes a response body may take (`http.max_response_mb`): each worker's heap has room for one such page. @default DEFAULT_MAX_RESPONSE_MB */
  readonly maxResponseMb?: number;
}

/**
 * A worker's old generation, MB: room for the largest body a page may have, decoded, parsed and
 * turned into rows (8 × its size: a page of small objects measured 6.5 ×), and no more. V8 lets a
 * heap grow to up to 4 × what survived its last collection under the default limit of gigabytes,
 * and to less under a smaller one, so the garbage a worker holds between its collections stays
 * near its work (docs/design.md §4, memory).
 */
export function workerHeapMb(maxResponseMb: number): number {
  return Math.max(256, Math.ceil(8 * maxResponseMb));
}

interface Pending {
  readonly endpoint: string;
  readonly resolve: (body: PreparedBody) => void;
  readonly reject: (error: Error) => void;
}

interface PoolWorker {
  readonly thread: Worker;
  readonly pending: Map<number, Pending>;
}

export class PagePool {
  readonly #size: number;
  readonly #script: URL;
  readonly #heapMb: number;
  readonly #workers: PoolWorker[] = [];
  #nextId = 0;
  /** Set when a worker died: every later page fails with it. */
  #broken: PageWorkerError | undefined;

  constructor(options: PagePoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) throw new Error(`Expected a pool size ≥ 1, got ${options.size}`);
    this.#size = options.size;
    this.#script = options.script ?? compiledWorkerScript();
    this.#heapMb = workerHeapMb(options.maxResponseMb ?? DEFAULT_MAX_RESPONSE_MB);
  }

  /** Prepares the body in a worker; the body's buffer moves to it (the caller must not read it again). */
  readonly prepare = (stream: StreamDefinition, body: Uint8Array): Promise<PreparedBody> => {
    if (this.#broken !== undefined) return Promise.reject(this.#broken);
    const worker = this.#leastBusy();
    const id = this.#nextId++;
    const owned = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : body.slice();
    return new Promise<PreparedBody>((resolve, reject) => {
      worker.pending.set(id, { endpoint: stream.endpoint, resolve, reject });
      worker.thread.ref();
      const task: PageTask = { id, stream: stream.name, body: owned };
      worker.thread.postMessage(task, [owned.buffer as ArrayBuffer]);
    });
  };

  /** Stops every worker; pages still in one fail. */
  async close(): Promise<void> {
    const workers = this.#workers.splice(0);
    for (const worker of workers) this.#fail(worker, new PageWorkerError('the page pool was closed while a page was being prepared'));
    await Promise.all(workers.map((worker) => worker.thread.terminate()));
  }

  #leastBusy(): PoolWorker {
    const idle = this.#workers.find((worker) => worker.pending.size === 0);
    if (idle !== undefined) return idle;
    if (this.#workers.length < this.#size) return this.#start();
    return this.#workers.reduce((best, worker) => (worker.pending.size < best.pending.size ? worker : best));
  }

  #start(): PoolWorker {
    const worker: PoolWorker = { thread: new Worker(this.#script, { resourceLimits: { maxOldGenerationSizeMb: this.#heapMb } }), pending: new Map() };
    worker.thread.on('message', (result: PageTaskResult) => this.#settle(worker, result));
    worker.thread.on('error', (err) => this.#die(worker, `it threw ${err.name}: ${err.message}`));
    worker.thread.on('exit', (code) => this.#die(worker, `it exited with code ${code}`));
    this.#workers.push(worker);
    return worker;
  }

  #settle(worker: PoolWorker, result: PageTaskResult): void {
    const pending = worker.pending.get(result.id);
    if (pending === undefined) return;
    worker.pending.delete(result.id);
    if (worker.pending.size === 0) worker.thread.unref();
    if ('failure' in result) pending.reject(new PageWorkerError(`${pending.endpoint}: preparing a page in a worker thread failed: ${result.failure}`));
    else pending.resolve(result.body);
  }

  #die(worker: PoolWorker, why: string): void {
    const index = this.#workers.indexOf(worker);
    if (index < 0) return;
    this.#workers.splice(index, 1);
    const endpoint = worker.pending.values().next().value?.endpoint ?? 'a page';
    this.#broken ??= new PageWorkerError(
      `a page worker thread stopped (${why}) while preparing ${endpoint}: the pages it held were not stored and the checkpoint stays before them; ` +
        'run again, or set workers: 0 in the pipeline file to prepare pages in the main thread',
    );
    this.#fail(worker, this.#broken);
  }

  #fail(worker: PoolWorker, error: PageWorkerError): void {
    for (const pending of worker.pending.values()) pending.reject(error);
    worker.pending.clear();
  }
}

/**
 * page-worker.js beside this module; run from TypeScript sources (the tests), the bundled one under
 * dist/bundle/, since a worker thread of Node 20 cannot load TypeScript.
 */
function compiledWorkerScript(): URL {
  const beside = new URL('./page-worker.js', import.meta.url);
  if (!import.meta.url.endsWith('.ts')) return beside;
  const compiled = new URL(beside.href.replace(/\/src\/run\/workers\/page-worker\.js$/, '/dist/bundle/page-worker.js'));
  if (!existsSync(fileURLToPath(compiled))) throw new Error(`page workers need the bundled ${fileURLToPath(compiled)}: run npm run build first`);
  return compiled;
}
