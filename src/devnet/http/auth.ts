import { ApiError } from './api-error.js';
import type { RateLimiter } from './rate-limiter.js';
import type { Network } from './types.js';

export interface AccessPolicy {
  readonly network: Network;
  /** Key → network it was issued for. */
  readonly keys: ReadonlyMap<string, Network>;
  /** Limits keyless requests, by client address. */
  readonly free: RateLimiter;
  /** Limits requests with a key, by key. */
  readonly keyed: RateLimiter;
}

/** The service's authentication and rate-limit rules; returns the refusal, or undefined to let the request in. */
export function checkAccess(policy: AccessPolicy, key: string | undefined, client: string): ApiError | undefined {
  if (key === undefined) {
    return policy.free.tryAcquire(client) ? undefined : new ApiError(429, 'Ratelimit exceeded');
  }
  const issuedFor = policy.keys.get(key);
  if (issuedFor === undefined) return new ApiError(401, 'API key does not exist');
  if (issuedFor !== policy.network) return new ApiError(403, 'Network not allowed');
  return policy.keyed.tryAcquire(key) ? undefined : new ApiError(429, 'Ratelimit exceeded');
}
