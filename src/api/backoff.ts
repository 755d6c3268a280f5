export interface BackoffOptions {
  /** Ceiling of the first retry's delay in ms; it doubles per retry. @default 250 */
  readonly baseMs: number;
  /** Largest delay ceiling in ms. @default 30000 */
  readonly maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 250, maxMs: 30_000 };

/**
 * Exponential backoff with full jitter: uniform in [0, min(maxMs, baseMs·2^retry)).
 * `retry` counts from 0 for the first retry; `random` returns [0, 1) like Math.random.
 */
export function backoffDelay(retry: number, options: BackoffOptions, random: () => number): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/**
 * The wait a `Retry-After` header asks for, in ms from `now`: delay-seconds (fractions accepted) or an
 * HTTP date (a date in the past is 0). Undefined when the header is absent or unreadable.
 */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
