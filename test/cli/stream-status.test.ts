import { describe, expect, it } from 'vitest';
import { streamStatus, streamStatusLines, type ReportedRange } from '../../src/cli/stream-status.js';
import { encodeCheckpoint } from '../../src/core/checkpoint/record.js';
import { Coverage, type Range } from '../../src/core/checkpoint/coverage.js';
import type { Landmark } from '../../src/extract/landmarks.js';
import { streamByName } from '../../src/streams/index.js';

const lt = streamByName('jetton_transfers');
const utime = streamByName('validator_events');
const TIP: Landmark = { seqno: 9, startLt: 95n, endLt: 100n, utime: 1_767_225_700 };
const SCOPE = { network: 'mainnet', service: 'http://127.0.0.1:1', filters: {} };

/** A range of the lt axis whose rows' times are not known. */
function untimed(from: string, to: string): ReportedRange {
  return { from, to, from_time: null, to_time: null };
}

function stored(position: bigint, ranges: Range[]): string {
  return encodeCheckpoint({ position, covered: new Coverage(ranges), scope: SCOPE });
}

describe('streamStatus', () => {
  it('a stream never loaded: no checkpoint, nothing covered, no distance', () => {
    const status = streamStatus(lt, undefined, { tip: TIP, start: 10n });
    expect(status).toEqual({ stream: 'jetton_transfers', axis: 'lt', checkpoint: null, behind: null, behind_blocks: null, behind_seconds: null, covered: [], holes: [], error: null });
    expect(streamStatusLines(status, 'p.yaml')).toEqual([`jetton_transfers   ${'none'.padEnd(21)} not loaded yet`]);
  });

  it("holes between covered ranges and after the start are the next sync's; the distance stands beside them", () => {
    const status = streamStatus(lt, stored(90n, [{ from: 20n, to: 40n }, { from: 61n, to: 90n }]), { tip: TIP, start: 10n, distance: { blocks: 2, seconds: 95 } });
    expect(status).toEqual({
      stream: 'jetton_transfers',
      axis: 'lt',
      checkpoint: '90',
      behind: '10',
      behind_blocks: 2,
      behind_seconds: 95,
      covered: [untimed('20', '40'), untimed('61', '90')],
      holes: [{ ...untimed('10', '19'), next_sync_fills: true }, { ...untimed('41', '60'), next_sync_fills: true }],
      error: null,
    });
    expect(streamStatusLines(status, 'p.yaml')).toEqual([
      `jetton_transfers   ${'90'.padEnd(21)} 10 lt (2 blocks, 1m35s), 2 holes (below)`,
      '  covered 20..40, 61..90',
      '  hole 10..19 not loaded; the next sync fills it',
      '  hole 41..60 not loaded; the next sync fills it',
    ]);
  });

  it('a hole before the start (or with no start) needs a backfill, and the line gives it; "0 behind" names the hole', () => {
    const status = streamStatus(lt, stored(100n, [{ from: 20n, to: 40n }, { from: 61n, to: 100n }]), { tip: TIP, start: 50n });
    expect(status.behind).toBe('0');
    expect(status.holes).toEqual([{ ...untimed('41', '60'), next_sync_fills: false }]);
    expect(streamStatusLines(status, 'p.yaml')).toEqual([
      `jetton_transfers   ${'100'.padEnd(21)} 0 lt, 1 hole (below)`,
      '  covered 20..40, 61..100',
      '  hole 41..60 not loaded; fill it: chain-etl backfill p.yaml --from lt:41 --to lt:61',
    ]);
    expect(streamStatus(lt, stored(100n, [{ from: 20n, to: 40n }, { from: 61n, to: 100n }])).holes).toEqual([{ ...untimed('41', '60'), next_sync_fills: false }]);
  });

  it('on the utime axis the backfill takes dates; without the tip the distance is unknown', () => {
    const status = streamStatus(utime, stored(1_767_225_699n, [{ from: 1_767_225_600n, to: 1_767_225_609n }, { from: 1_767_225_660n, to: 1_767_225_699n }]), { distance: { blocks: 1, seconds: 1 } });
    expect([status.behind, status.behind_blocks, status.behind_seconds]).toEqual([null, null, null]);
    expect(status.covered).toEqual([
      { from: '1767225600', to: '1767225609', from_time: '2026-01-01T00:00:00Z', to_time: '2026-01-01T00:00:09Z' },
      { from: '1767225660', to: '1767225699', from_time: '2026-01-01T00:01:00Z', to_time: '2026-01-01T00:01:39Z' },
    ]);
    expect(streamStatusLines(status, 'p.yaml')).toEqual([
      `validator_events   ${'1767225699'.padEnd(21)} ?, 1 hole (below)`,
      '  covered 1767225600..1767225609 (2026-01-01 00:00:00 UTC..2026-01-01 00:00:09 UTC), 1767225660..1767225699 (2026-01-01 00:01:00 UTC..2026-01-01 00:01:39 UTC)',
      '  hole 1767225610..1767225659 (2026-01-01 00:00:10 UTC..2026-01-01 00:00:59 UTC) not loaded; fill it: chain-etl backfill p.yaml --from 2026-01-01T00:00:10Z --to 2026-01-01T00:01:00Z',
    ]);
  });

  it("on the lt axis the times of each covered range's rows, and a hole between the ranges beside it", () => {
    const rowTimes = [{ first: 1_767_225_600, last: 1_767_225_640 }, undefined, { first: 1_767_225_700, last: 1_767_225_760 }];
    const status = streamStatus(lt, stored(100n, [{ from: 20n, to: 40n }, { from: 51n, to: 55n }, { from: 61n, to: 100n }]), { start: 10n, rowTimes });
    expect(status.covered).toEqual([
      { from: '20', to: '40', from_time: '2026-01-01T00:00:00Z', to_time: '2026-01-01T00:00:40Z' },
      untimed('51', '55'),
      { from: '61', to: '100', from_time: '2026-01-01T00:01:40Z', to_time: '2026-01-01T00:02:40Z' },
    ]);
    expect(status.holes).toEqual([
      { ...untimed('10', '19'), next_sync_fills: true },
      { ...untimed('41', '50'), next_sync_fills: true },
      { ...untimed('56', '60'), next_sync_fills: true },
    ]);
    expect(streamStatusLines(status, 'p.yaml').slice(1)).toEqual([
      '  covered 20..40 (2026-01-01 00:00:00 UTC..2026-01-01 00:00:40 UTC), 51..55, 61..100 (2026-01-01 00:01:40 UTC..2026-01-01 00:02:40 UTC)',
      '  hole 10..19 (before 2026-01-01 00:00:00 UTC) not loaded; the next sync fills it',
      '  hole 41..50 (after 2026-01-01 00:00:40 UTC) not loaded; the next sync fills it',
      '  hole 56..60 (before 2026-01-01 00:01:40 UTC) not loaded; the next sync fills it',
    ]);
  });

  it('a checkpoint of an earlier release: its coverage is unknown, not "nothing"', () => {
    const status = streamStatus(lt, '{"position":"80"}', { tip: TIP, start: 10n });
    expect(status).toMatchObject({ checkpoint: '80', behind: '20', covered: null, holes: [] });
    expect(streamStatusLines(status, 'p.yaml')[1]).toBe('  covered unknown: the checkpoint of an earlier release, which did not record it');
  });
});
