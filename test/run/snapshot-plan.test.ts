/**
 * The snapshot record and which snapshot streams a sync reads: a snapshot's time is after every
 * earlier one (rows of two snapshots are told apart even within one second), completing one names
 * the others to delete, and `refresh` skips a stream only while its last complete snapshot is young.
 */
import { describe, expect, it } from 'vitest';
import { decodeCheckpoint } from '../../src/core/checkpoint/record.js';
import { SnapshotRecord } from '../../src/core/checkpoint/snapshot-record.js';
import type { StreamScope } from '../../src/core/scope.js';
import type { StoredCheckpoint } from '../../src/run/plan.js';
import { planSnapshots } from '../../src/run/snapshot-plan.js';
import { snapshotStreams } from '../../src/streams/index.js';

const SCOPE: StreamScope = { network: 'testnet', service: 'http://127.0.0.1', filters: {} };
const NOW = 1_800_000_000;

function stored(record: SnapshotRecord): StoredCheckpoint {
  const text = record.encode();
  return { record: decodeCheckpoint(text), text };
}

describe('SnapshotRecord', () => {
  it('begins empty, keeps the begun snapshot pending, and on completion names every other snapshot once', () => {
    const record = new SnapshotRecord('s', SCOPE, { position: -1n });
    expect(record.lastComplete).toBeUndefined();
    record.begin(100);
    expect(JSON.parse(record.encode())).toEqual({ position: '-1', covered: [], pending: ['100'], scope: SCOPE });
    // A killed run leaves 100 pending; the next begins after it, even when the clock says earlier.
    const next = new SnapshotRecord('s', SCOPE, decodeCheckpoint(record.encode()));
    expect(next.incomplete).toBe(true);
    expect(next.nextTime(90)).toBe(101);
    next.begin(101);
    expect(next.complete(101)).toEqual([100]);
    expect(JSON.parse(next.encode())).toEqual({ position: '101', covered: [], scope: SCOPE });
    const third = new SnapshotRecord('s', SCOPE, decodeCheckpoint(next.encode()));
    expect(third.nextTime(101)).toBe(102);
    third.begin(102);
    expect(third.complete(102)).toEqual([101]);
  });
});

describe.runIf(snapshotStreams.length > 0)('planSnapshots', () => {
  const stream = snapshotStreams[0]!;
  const plan = (record: SnapshotRecord | undefined, refresh: number | undefined) =>
    planSnapshots(
      [{ stream, filters: {}, refresh }],
      { stored: new Map(record === undefined ? [] : [[stream.name, stored(record)]]), scopeOf: () => SCOPE },
      NOW,
    );
  const completeAt = (time: number): SnapshotRecord => {
    const record = new SnapshotRecord(stream.name, SCOPE, { position: -1n });
    record.begin(time);
    record.complete(time);
    return record;
  };

  it('takes a first snapshot at once, whatever the refresh', () => {
    expect(plan(undefined, 3600).jobs.map((job) => job.time)).toEqual([NOW]);
  });

  it('skips a stream whose last snapshot is younger than its refresh, and says when it is due', () => {
    const result = plan(completeAt(NOW - 600), 3600);
    expect(result.jobs).toEqual([]);
    expect(result.skipped).toEqual([{ stream: stream.name, last: NOW - 600, due: NOW + 3000 }]);
  });

  it('takes one once the refresh has passed, or always without a refresh', () => {
    expect(plan(completeAt(NOW - 3600), 3600).jobs.map((job) => job.time)).toEqual([NOW]);
    expect(plan(completeAt(NOW - 1), undefined).jobs.map((job) => job.time)).toEqual([NOW]);
  });

  it('completes an incomplete snapshot at once, even before the refresh is due', () => {
    const record = completeAt(NOW - 600);
    record.begin(NOW - 300);
    expect(plan(record, 3600).jobs.map((job) => job.time)).toEqual([NOW]);
  });
});
