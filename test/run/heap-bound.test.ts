import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { HeapBound } from '../../src/run/heap-bound.js';

/** About `mb` MiB of small objects on the heap. */
function allocate(mb: number): { readonly n: number; readonly s: string }[] {
  return Array.from({ length: mb * 10_000 }, (_, n) => ({ n, s: `item ${n}` }));
}

/**
 * A bound made on a collected heap. Test files share a worker (vitest.config.ts): garbage an earlier
 * file left would otherwise be part of the bound's start, and V8 collecting it while a test allocates
 * would hide the growth the test makes.
 */
function boundOnCollectedHeap(headroomMb: number): HeapBound {
  new HeapBound(0).afterCommit();
  return new HeapBound(headroomMb);
}

describe('HeapBound', () => {
  it('collects after a commit once the heap grew by the headroom, and not again until it grows again', () => {
    const bound = boundOnCollectedHeap(8);
    let held: unknown = allocate(4);
    bound.afterCommit();
    expect(bound.collections).toBe(0);
    held = [held, allocate(16)];
    bound.afterCommit();
    expect(bound.collections).toBe(1);
    bound.afterCommit();
    expect(bound.collections).toBe(1);
    expect(held).toBeDefined();
  });

  it('frees the garbage it collects', () => {
    const bound = boundOnCollectedHeap(8);
    let garbage: unknown = allocate(40);
    const before = getHeapStatistics().used_heap_size;
    garbage = undefined;
    bound.afterCommit();
    expect(garbage).toBeUndefined();
    expect(bound.collections).toBe(1);
    expect(before - getHeapStatistics().used_heap_size).toBeGreaterThan(20 * 2 ** 20);
  });
});
