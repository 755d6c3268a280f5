// p-queue in strict (sliding window) mode, one start per spacing: the choice over bottleneck and over
// p-queue's fixed windows, and its measurements, are in docs/design.md §3. p-queue counts whole
// Date.now() ms, so two starts can come up to 1 ms closer than the spacing in real time.
import PQueue from 'p-queue';
import { ConfigError } from '../core/errors.js';
import { listenedByEveryTask } from '../core/shared-signal.js';

/**
 * Starts are spaced 1% more than 1000/rps. A server holding a single token (rps ≤ 1) refuses a request
 * that arrives even 1 ms early, and arrivals jitter by milliseconds (docs/design.md §3).
 */
const SPACING_MARGIN = 1.01;

export interface RateLimiterOptions {
  /** Requests started per second, spaced evenly (fractions allowed, e.g. 0.5). */
  readonly rps: number;
  /** Requests in flight at once. */
  readonly concurrency: number;
}

export interface ScheduleOptions {
  /** Removes the task from the queue if it has not started yet. @default undefined */
  readonly signal?: AbortSignal;
  /** Higher starts first among waiting tasks (retries jump the backlog). @default 0 */
  readonly priority?: number;
}

/** The request rate of one network: every request of a run to that network goes through one instance. */
export class RateLimiter {
  readonly #queue: PQueue;
  /** Least time between two request starts, ms. */
  readonly spacingMs: number;
  #pausedUntil = 0;
  #resumeTimer: NodeJS.Timeout | undefined;
  #started = false;
  readonly #concurrency: number;

  constructor(options: RateLimiterOptions) {
    const { rps, concurrency } = options;
    if (!(Number.isFinite(rps) && rps > 0)) {
      throw new ConfigError(`Expected rps to be a positive number, got ${String(rps)}`);
    }
    if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
      throw new ConfigError(`Expected concurrency to be an integer from 1 and up, got ${String(concurrency)}`);
    }
    this.spacingMs = (1000 / rps) * SPACING_MARGIN;
    this.#concurrency = concurrency;
    this.#queue = new PQueue({ concurrency: 1, intervalCap: 1, interval: this.spacingMs, strict: true });
  }

  schedule<T>(task: () => Promise<T>, options: ScheduleOptions = {}): Promise<T> {
    const first = !this.#started;
    this.#started = true;
    return this.#queue.add(first ? () => this.#aloneThenSpaced(task) : task, { signal: listenedByEveryTask(options.signal), priority: options.priority ?? 0 });
  }

  /**
   * The first request opens the connection (TCP, TLS) and reaches the server later than the
   * requests after it: spaced from its start, the second arrived too early at rps 1 and got a 429
   * (docs/design.md §3). It runs alone (the queue starts at concurrency 1), and the next start
   * comes one spacing after it settles, when it has surely arrived. This costs one round trip once
   * per run, while the ETL waits for its first answer (the chain's head) anyway.
   */
  async #aloneThenSpaced<T>(task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } finally {
      if (!this.isPaused) {
        this.#queue.pause();
        setTimeout(() => {
          if (this.#pausedUntil === 0) this.#queue.start();
        }, Math.ceil(this.spacingMs));
      }
      this.#queue.concurrency = this.#concurrency;
    }
  }

  /**
   * Stops starting requests for `ms` (requests in flight finish). A pause already running longer is
   * kept; a shorter one is extended. Returns true when this call started a new pause.
   */
  pauseFor(ms: number): boolean {
    const wasPaused = this.isPaused;
    const until = Date.now() + ms;
    if (until > this.#pausedUntil) {
      this.#pausedUntil = until;
      this.#queue.pause();
      clearTimeout(this.#resumeTimer);
      this.#resumeTimer = setTimeout(() => this.resume(), ms);
    }
    return !wasPaused;
  }

  resume(): void {
    clearTimeout(this.#resumeTimer);
    this.#resumeTimer = undefined;
    this.#pausedUntil = 0;
    this.#queue.start();
  }

  get isPaused(): boolean {
    return this.#queue.isPaused;
  }

  /** Requests running now. */
  get running(): number {
    return this.#queue.pending;
  }

  /** Requests waiting to start. */
  get waiting(): number {
    return this.#queue.size;
  }
}
