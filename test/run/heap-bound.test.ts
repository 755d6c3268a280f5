import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { HeapBound } from '../../src/run/heap-bound.js';

/** About `mb` MiB of small objects on the heap. */
function allocate(mb: number): { readonly n: number; readonly s: string }[] {
  return Array.from({ length: mb * 10_000 }, (_, n) => ({ n, s: `item ${n}` }));
}

describe('HeapBound', () => {
  it('collects after a commit once the heap grew by the headroom, and not again until it grows again', () => {
    const bound = new HeapBound(8);
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
    const bound = new HeapBound(8);
    let garbage: unknown = allocate(40);
    const before = getHeapStatistics().used_heap_size;
    garbage = undefined;
    bound.afterCommit();
    expect(garbage).toBeUndefined();
    expect(bound.collections).toBe(1);
    expect(before - getHeapStatistics().used_heap_size).toBeGreaterThan(20 * 2 ** 20);
  });
});
