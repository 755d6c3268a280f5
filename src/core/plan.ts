/**
 * Turns a pipeline and the chain's landmarks into jobs: for each stream, the range of positions this
 * run fetches and the checkpoint it advances (D4). Sync continues from the stream's checkpoint up to
 * the settled tip; backfill fills a fixed range under a checkpoint of its own, so it resumes.
 */
import type { Pipeline, StartPoint } from '../config/index.js';
import type { StreamDefinition, PositionAxis } from './stream.js';
import type { Landmark, Landmarks } from '../extract/landmarks.js';
import type { StreamJob } from './runner.js';
import { decodeCheckpoint } from './checkpoint.js';
import { ConfigError } from './errors.js';

export interface PlannedStream {
  readonly stream: StreamDefinition;
  readonly filters: unknown;
}

/** A point on the chain as the CLI takes it: `2024-01-01`, `lt:N`, `mc:N`, or a pipeline start. */
export type ChainPoint = Exclude<StartPoint, { kind: 'tip' }>;

export interface PlanContext {
  readonly landmarks: Landmarks;
  readonly tip: Landmark;
  readonly readCheckpoint: (key: string) => Promise<string | undefined>;
  readonly signal?: AbortSignal;
}

/** The last position of the settled tip on an axis. One second is held back on the utime axis: a later block may share it. */
export function tipPosition(tip: Landmark, axis: PositionAxis): bigint {
  return axis === 'lt' ? tip.endLt : BigInt(tip.utime - 1);
}

/** The first position at or after a chain point, on an axis; the tip's next position when the point lies beyond it. */
export async function positionOf(point: ChainPoint, axis: PositionAxis, ctx: PlanContext): Promise<bigint> {
  const beyond = tipPosition(ctx.tip, axis) + 1n;
  switch (point.kind) {
    case 'lt':
      if (axis === 'lt') return point.lt;
      return BigInt((await ctx.landmarks.atOrAfterLt(point.lt, ctx.signal))?.utime ?? Number(beyond));
    case 'utime':
      if (axis === 'utime') return BigInt(point.utime);
      return (await ctx.landmarks.atOrAfterUtime(point.utime, ctx.signal))?.startLt ?? beyond;
    case 'mc_seqno': {
      const block = await ctx.landmarks.bySeqno(point.mcSeqno, ctx.signal);
      return axis === 'lt' ? block.startLt : BigInt(block.utime);
    }
  }
}

export async function planSync(pipeline: Pipeline, streams: readonly PlannedStream[], ctx: PlanContext): Promise<StreamJob[]> {
  const jobs: StreamJob[] = [];
  for (const { stream, filters } of streams) {
    const to = tipPosition(ctx.tip, stream.axis);
    const stored = await ctx.readCheckpoint(stream.name);
    let from: bigint;
    let committed: bigint;
    if (stored !== undefined) {
      committed = decodeCheckpoint(stored);
      from = committed + 1n;
      if (stream.rescansOverlap) from = minBig(from, await overlapStart(pipeline, stream.axis, ctx));
    } else if (pipeline.start.kind === 'tip') {
      from = to + 1n;
      committed = to;
    } else {
      from = await positionOf(pipeline.start, stream.axis, ctx);
      committed = from - 1n;
    }
    jobs.push({ stream, filters, checkpointKey: stream.name, from, to, committed, stored: stored === undefined ? undefined : decodeCheckpoint(stored) });
  }
  return jobs;
}

export interface BackfillRange {
  readonly from: ChainPoint;
  /** Exclusive end; the settled tip when absent. */
  readonly to?: ChainPoint;
  /** The range as the user wrote it, naming the backfill's checkpoint. */
  readonly label: string;
}

export async function planBackfill(streams: readonly PlannedStream[], range: BackfillRange, ctx: PlanContext): Promise<StreamJob[]> {
  const jobs: StreamJob[] = [];
  for (const { stream, filters } of streams) {
    const start = await positionOf(range.from, stream.axis, ctx);
    const tip = tipPosition(ctx.tip, stream.axis);
    const stop = range.to === undefined ? undefined : await positionOf(range.to, stream.axis, ctx);
    if (stop !== undefined && stop <= start) {
      throw new ConfigError(`--from ${describePoint(range.from)} is not before --to ${describePoint(range.to!)}: swap them or widen the range`);
    }
    const end = stop === undefined ? tip : minBig(tip, stop - 1n);
    const key = `backfill:${stream.name}:${range.label}`;
    const stored = await ctx.readCheckpoint(key);
    const committed = stored === undefined ? start - 1n : decodeCheckpoint(stored);
    jobs.push({ stream, filters, checkpointKey: key, from: committed + 1n, to: end, committed, stored: stored === undefined ? undefined : committed });
  }
  return jobs;
}

/** Where the trailing overlap of a re-scanned stream starts: `actions_overlap` masterchain blocks below the tip. */
async function overlapStart(pipeline: Pipeline, axis: PositionAxis, ctx: PlanContext): Promise<bigint> {
  const seqno = Math.max(1, ctx.tip.seqno - pipeline.actionsOverlap.mcBlocks);
  const block = await ctx.landmarks.atOrAfterSeqno(seqno, ctx.signal);
  if (block === undefined) return tipPosition(ctx.tip, axis) + 1n;
  return axis === 'lt' ? block.startLt : BigInt(block.utime);
}

export function describePoint(point: ChainPoint): string {
  switch (point.kind) {
    case 'lt':
      return `lt:${point.lt}`;
    case 'mc_seqno':
      return `mc:${point.mcSeqno}`;
    case 'utime':
      return new Date(point.utime * 1000).toISOString();
  }
}

function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
