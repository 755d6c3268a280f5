import { expect, test } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF, retryAfterMs } from '../../src/api/backoff.js';

test('full jitter: random × min(maxMs, baseMs × 2^retry)', () => {
  const half = (): number => 0.5;
  expect([0, 1, 2, 3].map((retry) => backoffDelay(retry, DEFAULT_BACKOFF, half))).toEqual([125, 250, 500, 1000]);
  expect(backoffDelay(20, DEFAULT_BACKOFF, half)).toBe(15_000);
  expect(backoffDelay(5, DEFAULT_BACKOFF, () => 0)).toBe(0);
  expect(backoffDelay(30, DEFAULT_BACKOFF, () => 0.999_999)).toBe(29_999);
});

test('Retry-After: delay-seconds or an HTTP date, in ms from now', () => {
  const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
  expect(retryAfterMs('2', now)).toBe(2000);
  expect(retryAfterMs(' 0.5 ', now)).toBe(500);
  expect(retryAfterMs('Wed, 21 Oct 2026 07:28:03 GMT', now)).toBe(3000);
  expect(retryAfterMs('Wed, 21 Oct 2026 07:27:00 GMT', now)).toBe(0);
  expect(retryAfterMs(null, now)).toBeUndefined();
  expect(retryAfterMs('soon', now)).toBeUndefined();
  expect(retryAfterMs('', now)).toBeUndefined();
});
