/**
 * The checkpoints against the chain: no position stream's checkpoint may lie past the newest block
 * the service indexes (a warehouse loaded from answers the service no longer gives: a replica
 * behind, a wrong tip an earlier release took). One past the settled tip but not the head is sound
 * (a raised `lag.mc_blocks`: the next sync waits), as the planner has it. And what the checks cannot
 * look at: the holes between a stream's covered ranges (not an inconsistency: the warehouse does not
 * claim them, and two backfills of separate months leave one on purpose).
 */
import { decodeCheckpoint } from '../core/checkpoint/record.js';
import type { Range } from '../core/checkpoint/coverage.js';
import type { PositionAxis } from '../core/stream.js';
import { utcTime } from '../core/utc-time.js';
import { describeBlock, type Landmark } from '../extract/landmarks.js';
import { positionStreams, tipPosition, type PlannedStream } from '../run/plan.js';
import type { CheckResult } from './stored-checks.js';

export function checkCheckpoints(checkpoints: ReadonlyMap<string, string>, planned: readonly PlannedStream[], head: Landmark): CheckResult {
  const streams = positionStreams(planned).flatMap(({ stream }) => (checkpoints.has(stream.name) ? [stream] : []));
  const found = streams.flatMap((stream) => {
    const position = decodeCheckpoint(checkpoints.get(stream.name)!).position;
    if (position <= tipPosition(head, stream.axis)) return [];
    const where = stream.axis === 'lt' ? `lt ${position}` : utcTime(Number(position));
    return [{
      check: 'checkpoints' as const,
      table: '_etl_checkpoints',
      detail:
        `${stream.name}'s checkpoint (${where}) lies past the newest block the service indexes, ${describeBlock(head)}: ` +
        'the warehouse was loaded from answers this service no longer gives, and sync refuses to continue from it; load this service into a new warehouse (--out)',
      refetch: undefined,
    }];
  });
  return { check: 'checkpoints', table: '_etl_checkpoints', checked: streams.length, found };
}

/** A range between two covered ranges of a stream. */
export interface CoverageHole extends Range {
  readonly stream: string;
  readonly axis: PositionAxis;
}

export function coverageHoles(checkpoints: ReadonlyMap<string, string>, planned: readonly PlannedStream[]): CoverageHole[] {
  return positionStreams(planned).flatMap(({ stream }) => {
    const stored = checkpoints.get(stream.name);
    if (stored === undefined) return [];
    return decodeCheckpoint(stored).covered.holes().map((hole) => ({ stream: stream.name, axis: stream.axis, ...hole }));
  });
}
