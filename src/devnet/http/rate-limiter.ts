export interface RateLimiterOptions {
  /** Sustained requests per second per key; `Infinity` disables the limit. */
  readonly rps: number;
  /** Requests a key may send at once after being idle. @default rps (at least 1) */
  readonly burst?: number;
  /** Milliseconds clock, injected so tests can drive time. @default Date.now */
  readonly now?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Idle buckets are dropped once this many keys are tracked, so the map cannot grow without bound. */
const PRUNE_ABOVE = 10_000;
/** Absorbs float error so a client sending exactly at `rps` always finds a whole token. */
const EPSILON = 1e-9;

/**
 * Token bucket per key: holds up to `burst` tokens, refills `rps` tokens per second, a request takes
 * one. A client sending exactly at the rate is never refused; rejected requests take nothing.
 */
export class RateLimiter {
  readonly #rps: number;
  readonly #burst: number;
  readonly #now: () => number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(opts: RateLimiterOptions) {
    if (!(opts.rps > 0)) throw new RangeError(`Expected rps to be a number above 0, got ${opts.rps}`);
    this.#rps = opts.rps;
    this.#burst = opts.burst ?? Math.max(1, Number.isFinite(opts.rps) ? opts.rps : 1);
    if (!(this.#burst >= 1)) throw new RangeError(`Expected burst to be a number from 1 and up, got ${opts.burst}`);
    this.#now = opts.now ?? Date.now;
  }

  /** Takes a token for `key` if one is available. */
  tryAcquire(key: string): boolean {
    if (this.#rps === Infinity) return true;
    const now = this.#now();
    const bucket = this.#buckets.get(key) ?? this.#add(key, now);
    bucket.tokens = this.#refilled(bucket, now);
    bucket.at = now;
    if (bucket.tokens + EPSILON < 1) return false;
    bucket.tokens = Math.max(0, bucket.tokens - 1);
    return true;
  }

  #refilled(bucket: Bucket, now: number): number {
    const elapsed = Math.max(0, now - bucket.at);
    return Math.min(this.#burst, bucket.tokens + (elapsed * this.#rps) / 1000);
  }

  #add(key: string, now: number): Bucket {
    if (this.#buckets.size >= PRUNE_ABOVE) {
      for (const [k, b] of this.#buckets) if (this.#refilled(b, now) >= this.#burst) this.#buckets.delete(k);
    }
    const bucket = { tokens: this.#burst, at: now };
    this.#buckets.set(key, bucket);
    return bucket;
  }
}
