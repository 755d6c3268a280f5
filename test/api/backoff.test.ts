import { expect, test } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF } from '../../src/api/backoff.js';

test('full jitter: random × min(maxMs, baseMs × 2^retry)', () => {
  const half = (): number => 0.5;
  expect([0, 1, 2, 3].map((retry) => backoffDelay(retry, DEFAULT_BACKOFF, half))).toEqual([125, 250, 500, 1000]);
  expect(backoffDelay(20, DEFAULT_BACKOFF, half)).toBe(15_000);
  expect(backoffDelay(5, DEFAULT_BACKOFF, () => 0)).toBe(0);
  expect(backoffDelay(30, DEFAULT_BACKOFF, () => 0.999_999)).toBe(29_999);
});
