import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/devnet/http/rate-limiter.js';
import { FakeClock } from './helpers.js';

function run(limiter: RateLimiter, clock: FakeClock, rps: number, seconds: number, key = 'k'): number {
  let refused = 0;
  const start = clock.ms;
  for (let i = 0; i < rps * seconds; i++) {
    clock.ms = start + (i * 1000) / rps;
    if (!limiter.tryAcquire(key)) refused++;
  }
  return refused;
}

describe('RateLimiter', () => {
  it.each([1, 3, 7, 10, 25, 100])('never refuses a client sending exactly at %d rps', (rps) => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ rps, now: clock.now });
    expect(run(limiter, clock, rps, 30)).toBe(0);
  });

  it('allows a burst of rps requests, then one more per 1/rps seconds', () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ rps: 10, now: clock.now });
    const burst = Array.from({ length: 11 }, () => limiter.tryAcquire('k'));
    expect(burst).toEqual([...Array<boolean>(10).fill(true), false]);
    clock.advance(99);
    expect(limiter.tryAcquire('k')).toBe(false);
    clock.advance(1);
    expect(limiter.tryAcquire('k')).toBe(true);
    expect(limiter.tryAcquire('k')).toBe(false);
  });

  it('refuses the second keyless request within a second at 1 rps', () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ rps: 1, now: clock.now });
    expect(limiter.tryAcquire('127.0.0.1')).toBe(true);
    clock.advance(999);
    expect(limiter.tryAcquire('127.0.0.1')).toBe(false);
    clock.advance(1);
    expect(limiter.tryAcquire('127.0.0.1')).toBe(true);
  });

  it('refuses the excess of a client sending above the rate', () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ rps: 10, now: clock.now });
    // 11 rps for 60 s: 660 sent; the last at 659/11 s, so 10 (burst) + floor(6590/11) = 609 let through.
    expect(run(limiter, clock, 11, 60)).toBe(660 - 609);
  });

  it('keeps one bucket per key and does not charge refused requests', () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ rps: 1, now: clock.now });
    expect(limiter.tryAcquire('a')).toBe(true);
    expect(limiter.tryAcquire('a')).toBe(false);
    expect(limiter.tryAcquire('a')).toBe(false);
    expect(limiter.tryAcquire('b')).toBe(true);
    clock.advance(1000);
    expect(limiter.tryAcquire('a')).toBe(true);
  });

  it('honours an explicit burst and an unlimited rate', () => {
    const clock = new FakeClock();
    const strict = new RateLimiter({ rps: 10, burst: 1, now: clock.now });
    expect([strict.tryAcquire('k'), strict.tryAcquire('k')]).toEqual([true, false]);
    const unlimited = new RateLimiter({ rps: Infinity, now: clock.now });
    expect(Array.from({ length: 1000 }, () => unlimited.tryAcquire('k')).every(Boolean)).toBe(true);
  });

  it('rejects a rate that is not above 0', () => {
    expect(() => new RateLimiter({ rps: 0 })).toThrow('Expected rps to be a number above 0, got 0');
    expect(() => new RateLimiter({ rps: 5, burst: 0 })).toThrow('Expected burst to be a number from 1 and up, got 0');
  });
});
