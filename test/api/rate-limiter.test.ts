import { setImmediate as tick } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { RateLimiter } from '../../src/api/rate-limiter.js';

test('a paused limiter starts nothing until resumed', async () => {
  const limiter = new RateLimiter({ rps: 1000, concurrency: 2 });
  expect(limiter.pauseFor(60_000)).toBe(true);
  let ran = false;
  const task = limiter.schedule(async () => {
    ran = true;
    return 'done';
  });
  await tick();
  await tick();
  expect(ran).toBe(false);
  expect(limiter.waiting).toBe(1);
  limiter.resume();
  await expect(task).resolves.toBe('done');
  expect(limiter.isPaused).toBe(false);
});

test('a pause resumes by itself; a second pause extends, never shortens, and reports no new pause', async () => {
  const limiter = new RateLimiter({ rps: 1000, concurrency: 1 });
  expect(limiter.pauseFor(30)).toBe(true);
  expect(limiter.pauseFor(5)).toBe(false);
  expect(limiter.isPaused).toBe(true);
  await expect(limiter.schedule(async () => limiter.isPaused)).resolves.toBe(false);
});

test('a waiting task is dropped when its signal aborts', async () => {
  const limiter = new RateLimiter({ rps: 1000, concurrency: 1 });
  limiter.pauseFor(60_000);
  const controller = new AbortController();
  const task = limiter.schedule(async () => 'ran', { signal: controller.signal });
  controller.abort(new Error('cancelled'));
  await expect(task).rejects.toThrow('cancelled');
  limiter.resume();
});

test('retries (higher priority) start before the backlog', async () => {
  const limiter = new RateLimiter({ rps: 1000, concurrency: 1 });
  limiter.pauseFor(60_000);
  const order: string[] = [];
  const backlog = limiter.schedule(async () => void order.push('backlog'));
  const retry = limiter.schedule(async () => void order.push('retry'), { priority: 1 });
  limiter.resume();
  await Promise.all([backlog, retry]);
  expect(order).toEqual(['retry', 'backlog']);
});

test('no more than `concurrency` tasks run at once', async () => {
  const limiter = new RateLimiter({ rps: 1000, concurrency: 3 });
  let running = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: 10 }, () =>
      limiter.schedule(async () => {
        most = Math.max(most, ++running);
        await tick();
        running--;
      }),
    ),
  );
  expect(most).toBeLessThanOrEqual(3);
});

test.each([
  [{ rps: 0, concurrency: 1 }, 'Expected rps to be a positive number, got 0'],
  [{ rps: Number.NaN, concurrency: 1 }, 'Expected rps to be a positive number, got NaN'],
  [{ rps: 1, concurrency: 0 }, 'Expected concurrency to be an integer from 1 and up, got 0'],
  [{ rps: 1, concurrency: 1.5 }, 'Expected concurrency to be an integer from 1 and up, got 1.5'],
])('invalid options %j are a ConfigError', (options, message) => {
  expect(() => new RateLimiter(options)).toThrow(ConfigError);
  expect(() => new RateLimiter(options)).toThrow(message);
});
