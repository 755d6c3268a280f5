// p-queue, one start every 1000/rps ms (bench/limiter-choice.ts, R=10/25/100 rps): achieved 10.0/25.0/97.8 rps,
// at most R starts in any 1 s window, 0 starts during a pause. bottleneck minTime: R+1 per 1 s and 1-8 starts
// leaked into a pause; window modes (p-queue intervalCap=R, bottleneck reservoir) burst to 1.2-2×R per 1 s.
import PQueue from 'p-queue';
import { ConfigError } from '../core/errors.js';

export interface RateLimiterOptions {
  /** Requests started per second, spaced evenly 1000/rps ms apart (fractions allowed, e.g. 0.5). */
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
  #pausedUntil = 0;
  #resumeTimer: NodeJS.Timeout | undefined;

  constructor(options: RateLimiterOptions) {
    const { rps, concurrency } = options;
    if (!(Number.isFinite(rps) && rps > 0)) {
      throw new ConfigError(`Expected rps to be a positive number, got ${String(rps)}`);
    }
    if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
      throw new ConfigError(`Expected concurrency to be an integer from 1 and up, got ${String(concurrency)}`);
    }
    this.#queue = new PQueue({ concurrency, intervalCap: 1, interval: 1000 / rps });
  }

  schedule<T>(task: () => Promise<T>, options: ScheduleOptions = {}): Promise<T> {
    return this.#queue.add(task, { signal: options.signal, priority: options.priority ?? 0 });
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
