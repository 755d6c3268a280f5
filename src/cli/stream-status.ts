/**
 * One stream as `status` reports it, from its checkpoint row alone: where a sync continues, what the
 * warehouse covers, every hole (between covered ranges, and between the pipeline's start and the
 * first covered range) and the distance to the settled tip, when the tip is known; each range with
 * its times where they are known (see `ReportedRange`).
 */
import { decodeCheckpoint } from '../core/checkpoint/record.js';
import type { Range } from '../core/checkpoint/coverage.js';
import { tipPosition } from '../run/plan.js';
import type { PositionAxis, StreamDefinition } from '../core/stream.js';
import type { Landmark } from '../extract/landmarks.js';
import { formatSeconds } from './duration.js';
import type { RowTimes } from './range-times.js';
import { isoSeconds, utcTimeOfIso } from '../core/utc-time.js';

/** A range as status prints it (decimal strings: lts exceed JSON's safe integers). */
export interface ReportedRange {
  readonly from: string;
  readonly to: string;
  /**
   * The times at `from` and `to` (ISO, UTC). On the utime axis, the positions themselves. On the lt
   * axis, of a covered range, the earliest and latest time of the rows the warehouse holds in it
   * (the stream's own table); null for a hole (it holds none: the ranges beside it bound it), for a
   * range that holds no row, and where the rows cannot be read.
   */
  readonly from_time: string | null;
  readonly to_time: string | null;
}

export interface ReportedHole extends ReportedRange {
  /** The next sync loads it (it lies after the pipeline's start); otherwise only a backfill does. */
  readonly next_sync_fills: boolean;
}

export interface StreamStatus {
  readonly stream: string;
  readonly axis: PositionAxis;
  /** A sync continues after it; null before the stream's first run. */
  readonly checkpoint: string | null;
  /** Positions between the checkpoint and the settled tip; null when either is unknown. */
  readonly behind: string | null;
  /** Masterchain blocks and seconds between the checkpoint's block and the settled tip; null when unknown. */
  readonly behind_blocks: number | null;
  readonly behind_seconds: number | null;
  /** Null for a checkpoint of an earlier release, which did not record what it covers. */
  readonly covered: readonly ReportedRange[] | null;
  readonly holes: readonly ReportedHole[];
  /** What is wrong with the stream (its checkpoint lies past the newest block the service indexes); null when nothing is. */
  readonly error: string | null;
}

/** How far a checkpoint is from the settled tip in masterchain blocks and seconds. */
export interface Distance {
  readonly blocks: number;
  readonly seconds: number;
}

/** What status knows beside the checkpoint row; each may be unknown. */
export interface StreamFacts {
  readonly tip?: Landmark;
  /** The newest block the service indexes: no checkpoint may lie past it. */
  readonly head?: Landmark;
  /** The pipeline's start on the stream's axis: a hole below the first covered range begins there, and holes after it are the next sync's to fill. */
  readonly start?: bigint;
  /** The checkpoint's distance to the tip. */
  readonly distance?: Distance;
  /** The times of the rows of each covered range, in their order (lt streams: see `rowTimes`). */
  readonly rowTimes?: readonly (RowTimes | undefined)[];
}

export function streamStatus(stream: StreamDefinition, stored: string | undefined, facts: StreamFacts = {}): StreamStatus {
  const { tip, head, start, distance } = facts;
  const base = { stream: stream.name, axis: stream.axis };
  if (stored === undefined) return { ...base, checkpoint: null, behind: null, behind_blocks: null, behind_seconds: null, covered: [], holes: [], error: null };
  const record = decodeCheckpoint(stored);
  const past = head === undefined ? 0n : record.position - tipPosition(head, stream.axis);
  const error =
    past > 0n
      ? `its checkpoint lies ${past} ${stream.axis === 'lt' ? 'lt' : 's'} past the newest block the service indexes (masterchain block ${head!.seqno}): sync refuses to continue from it`
      : null;
  const behind = {
    error,
    behind: tip === undefined ? null : (tipPosition(tip, stream.axis) - record.position).toString(),
    behind_blocks: tip === undefined ? null : (distance?.blocks ?? null),
    behind_seconds: tip === undefined ? null : (distance?.seconds ?? null),
  };
  // Rows of this release always record their scope; one without it is an earlier release's.
  if (record.scope === undefined) return { ...base, checkpoint: record.position.toString(), ...behind, covered: null, holes: [] };
  const ranges = record.covered.ranges;
  const holes: Range[] = record.covered.holes();
  const first = ranges[0];
  if (start !== undefined && first !== undefined && start < first.from) holes.unshift({ from: start, to: first.from - 1n });
  const timed = (range: Range, times: RowTimes | undefined): ReportedRange =>
    stream.axis === 'utime'
      ? { ...decimal(range), from_time: isoSeconds(Number(range.from)), to_time: isoSeconds(Number(range.to)) }
      : { ...decimal(range), from_time: times === undefined ? null : isoSeconds(times.first), to_time: times === undefined ? null : isoSeconds(times.last) };
  return {
    ...base,
    checkpoint: record.position.toString(),
    ...behind,
    covered: ranges.map((range, index) => timed(range, facts.rowTimes?.[index])),
    holes: holes.map((hole) => ({ ...timed(hole, undefined), next_sync_fills: start !== undefined && hole.from >= start })),
  };
}

/** The width of status's name columns, wider where a name is longer. */
export const NAME_WIDTH = 18;

/** The text lines of a stream: its checkpoint and distance, then what it covers and each hole with how to fill it. */
export function streamStatusLines(status: StreamStatus, pipelineFile: string, nameWidth = NAME_WIDTH): string[] {
  const unit = status.axis === 'lt' ? 'lt' : 's';
  const holes = status.holes.length === 0 ? '' : `, ${status.holes.length} ${status.holes.length === 1 ? 'hole' : 'holes'} (below)`;
  const distance = status.behind_blocks === null || status.behind_seconds === null ? '' : ` (${status.behind_blocks} blocks, ${formatSeconds(status.behind_seconds)})`;
  const behind =
    status.checkpoint === null ? 'not loaded yet' : status.error !== null ? `error: ${status.error}` : `${status.behind === null ? '?' : `${status.behind} ${unit}${distance}`}${holes}`;
  const lines = [`${status.stream.padEnd(nameWidth)} ${(status.checkpoint ?? 'none').padEnd(21)} ${behind}`];
  if (status.checkpoint === null) return lines;
  lines.push(`  covered ${describeCovered(status.covered)}`);
  for (const hole of status.holes) {
    const fill = hole.next_sync_fills
      ? 'the next sync fills it'
      : `fill it: chain-etl backfill ${pipelineFile} --from ${chainPoint(status.axis, BigInt(hole.from))} --to ${chainPoint(status.axis, BigInt(hole.to) + 1n)}`;
    lines.push(`  hole ${hole.from}..${hole.to}${holeTimes(hole, status.covered ?? [])} not loaded; ${fill}`);
  }
  return lines;
}

function describeCovered(covered: StreamStatus['covered']): string {
  if (covered === null) return 'unknown: the checkpoint of an earlier release, which did not record it';
  return covered.length === 0 ? 'nothing yet' : covered.map((range) => `${range.from}..${range.to}${rangeTimes(range)}`).join(', ');
}

/** ` (2026-01-01 00:00:00 UTC..2026-01-01 00:39:52 UTC)`; nothing where the times are unknown. */
function rangeTimes(range: ReportedRange): string {
  return range.from_time === null || range.to_time === null ? '' : ` (${utcTimeOfIso(range.from_time)}..${utcTimeOfIso(range.to_time)})`;
}

/**
 * A hole's times: its own on the utime axis; on the lt axis, where it lies among the rows the warehouse
 * holds: after the last row of the covered range before it, before the first row of the one after.
 */
function holeTimes(hole: ReportedHole, covered: readonly ReportedRange[]): string {
  if (hole.from_time !== null) return rangeTimes(hole);
  const after = covered.find((range) => BigInt(range.to) + 1n === BigInt(hole.from))?.to_time ?? null;
  const before = covered.find((range) => BigInt(range.from) === BigInt(hole.to) + 1n)?.from_time ?? null;
  const bounds = [...(after === null ? [] : [`after ${utcTimeOfIso(after)}`]), ...(before === null ? [] : [`before ${utcTimeOfIso(before)}`])];
  return bounds.length === 0 ? '' : ` (${bounds.join(', ')})`;
}

/** A position as `--from`/`--to` take it: `lt:N`, or an ISO date-time for utime. */
function chainPoint(axis: PositionAxis, position: bigint): string {
  return axis === 'lt' ? `lt:${position}` : isoSeconds(Number(position));
}

function decimal(range: Range): { from: string; to: string } {
  return { from: range.from.toString(), to: range.to.toString() };
}
