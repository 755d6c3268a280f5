import { setImmediate as tick } from 'node:timers/promises';
import { afterEach, describe, expect, test, vi } from 'vitest';
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
  // The first request holds the next start one spacing (1 ms here) after it settles.
  await new Promise((resolve) => setTimeout(resolve, 5));
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

describe('with a fake clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const useFakeClock = (): void => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  };
  const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  const gaps = (starts: readonly number[]): number[] => starts.slice(1).map((at, i) => at - starts[i]!);

  test('no two starts are closer than 1000/rps ms, also when concurrency holds tasks back', async () => {
    useFakeClock();
    const limiter = new RateLimiter({ rps: 10, concurrency: 8 });
    const starts: number[] = [];
    // Tasks outlast 8 spacings: from the 9th on, a free slot, not the rate, decides when a task may start.
    const tasks = Array.from({ length: 20 }, (_, i) =>
      limiter.schedule(async () => {
        starts.push(Date.now());
        await wait(700 + ((i * 53) % 250));
      }),
    );
    await vi.advanceTimersByTimeAsync(30_000);
    await Promise.all(tasks);
    expect(starts).toHaveLength(20);
    expect(limiter.spacingMs).toBeGreaterThanOrEqual(100);
    expect(Math.min(...gaps(starts))).toBeGreaterThanOrEqual(limiter.spacingMs);
  });

  test('a backlog starts one task per spacing (rounded up to the ms), not slower', async () => {
    useFakeClock();
    const limiter = new RateLimiter({ rps: 25, concurrency: 8 });
    const starts: number[] = [];
    const tasks = Array.from({ length: 20 }, () =>
      limiter.schedule(async () => {
        starts.push(Date.now());
        await wait(100);
      }),
    );
    await vi.advanceTimersByTimeAsync(10_000);
    await Promise.all(tasks);
    expect(limiter.spacingMs).toBeGreaterThanOrEqual(40);
    // The first task runs alone: the next start comes one spacing after it settles (100 ms).
    expect(gaps(starts)).toEqual([100 + Math.ceil(limiter.spacingMs), ...Array.from({ length: 18 }, () => Math.ceil(limiter.spacingMs))]);
  });

  test('nothing starts during a pause; starts go on, spaced, after it', async () => {
    useFakeClock();
    const limiter = new RateLimiter({ rps: 10, concurrency: 4 });
    const starts: number[] = [];
    let pausedAt = Number.NaN;
    const tasks = Array.from({ length: 12 }, (_, i) =>
      limiter.schedule(async () => {
        starts.push(Date.now());
        if (i === 3) {
          pausedAt = Date.now();
          limiter.pauseFor(1000);
        }
        await wait(250);
      }),
    );
    await vi.advanceTimersByTimeAsync(10_000);
    await Promise.all(tasks);
    expect(starts).toHaveLength(12);
    expect(starts.filter((at) => at > pausedAt && at < pausedAt + 1000)).toEqual([]);
    expect(starts[4]).toBe(pausedAt + 1000);
    expect(Math.min(...gaps(starts))).toBeGreaterThanOrEqual(limiter.spacingMs);
  });

  test('a task waiting for its turn is dropped when its signal aborts; the next takes its turn', async () => {
    useFakeClock();
    const limiter = new RateLimiter({ rps: 1, concurrency: 4 });
    const ran: string[] = [];
    const controller = new AbortController();
    const t0 = Date.now();
    const first = limiter.schedule(async () => void ran.push('first'));
    const second = limiter.schedule(async () => void ran.push('second'), { signal: controller.signal });
    const third = limiter.schedule(async () => {
      ran.push('third');
      return Date.now();
    });
    expect(limiter.waiting).toBe(2);
    controller.abort(new Error('cancelled'));
    await expect(second).rejects.toThrow('cancelled');
    expect(limiter.waiting).toBe(1);
    await vi.advanceTimersByTimeAsync(5_000);
    await first;
    await expect(third).resolves.toBe(t0 + Math.ceil(limiter.spacingMs));
    expect(ran).toEqual(['first', 'third']);
  });
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
