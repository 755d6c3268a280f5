import { describe, expect, it } from 'vitest';
import { CheckpointTracker } from '../../src/run/checkpoint-tracker.js';
import { estimatePagesLeft, splitWindows, windowsFor, type Window } from '../../src/run/windows.js';

describe('splitWindows', () => {
  it('covers [from, to] exactly with consecutive windows', () => {
    const windows = splitWindows(100n, 1099n, 4, 10n);
    expect(windows).toEqual([
      { from: 100n, to: 349n },
      { from: 350n, to: 599n },
      { from: 600n, to: 849n },
      { from: 850n, to: 1099n },
    ]);
  });

  it('keeps windows at least minWidth wide and is empty for an empty range', () => {
    expect(splitWindows(0n, 99n, 10, 60n)).toEqual([
      { from: 0n, to: 59n },
      { from: 60n, to: 99n },
    ]);
    expect(splitWindows(5n, 4n, 3, 1n)).toEqual([]);
  });
});

function trackerOf(windows: readonly Window[], floor: bigint): CheckpointTracker {
  const tracker = new CheckpointTracker(floor);
  for (const window of windows) tracker.add(window);
  return tracker;
}

describe('estimatePagesLeft and windowsFor', () => {
  it('spreads the density of the first page over the positions left', () => {
    // 1000 items over positions 0..99, 900 positions left: about 9,000 items, 10 pages.
    expect(estimatePagesLeft({ from: 0n, to: 999n }, 1000, 99n, 1000)).toBe(10);
    // A sparse stream: 1000 items over 0..899, 100 positions left: one page.
    expect(estimatePagesLeft({ from: 0n, to: 999n }, 1000, 899n, 1000)).toBe(1);
    expect(estimatePagesLeft({ from: 0n, to: 999n }, 1000, 999n, 1000)).toBe(1);
  });

  it('splits only when requests run side by side', () => {
    expect(windowsFor(1)).toBe(1);
    expect(windowsFor(4)).toBe(16);
  });
});

describe('CheckpointTracker', () => {
  const windows = [
    { from: 1n, to: 10n },
    { from: 11n, to: 20n },
    { from: 21n, to: 30n },
  ];

  it('never passes a window still in flight', () => {
    const tracker = trackerOf(windows, 0n);
    expect(tracker.advance(1, 20n)).toBe(0n);
    expect(tracker.advance(2, 25n)).toBe(0n);
    expect(tracker.advance(0, 7n)).toBe(7n);
    expect(tracker.advance(0, 10n)).toBe(25n);
    expect(tracker.advance(2, 30n)).toBe(30n);
  });

  it('counts what every window committed, ahead of the checkpoint too (the progress a run shows)', () => {
    const tracker = trackerOf(windows, 0n);
    expect(tracker.committedSpan()).toBe(0n);
    tracker.advance(1, 20n);
    tracker.advance(2, 25n);
    expect([tracker.position(), tracker.committedSpan()]).toEqual([0n, 15n]);
    tracker.advance(0, 4n);
    expect([tracker.position(), tracker.committedSpan()]).toEqual([4n, 19n]);
  });

  it('never goes below the checkpoint it started from (re-scanned overlaps)', () => {
    const tracker = trackerOf(windows, 15n);
    expect(tracker.position()).toBe(15n);
    expect(tracker.advance(0, 10n)).toBe(15n);
    expect(tracker.advance(1, 20n)).toBe(20n);
  });
});

describe('CheckpointTracker with a window ended early', () => {
  it('hands the rest of a window to the windows added after it', () => {
    const tracker = trackerOf([{ from: 1n, to: 30n }], 0n);
    expect(tracker.advance(0, 8n)).toBe(8n);
    tracker.endAt(0, 8n);
    expect(tracker.position()).toBe(8n);
    const second = tracker.add({ from: 9n, to: 19n });
    const third = tracker.add({ from: 20n, to: 30n });
    expect(tracker.advance(third, 30n)).toBe(8n);
    expect(tracker.advance(second, 15n)).toBe(15n);
    expect(tracker.advance(second, 19n)).toBe(30n);
  });
});
