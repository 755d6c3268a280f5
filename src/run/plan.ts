/**
 * Turns a pipeline and the chain's landmarks into jobs: for each stream, the ranges of positions
 * this run fetches and the record they extend (docs/design.md §2). A sync continues after the
 * stream's checkpoint up to the settled tip, and fills what its record lacks between the pipeline's
 * `start` and the checkpoint; a backfill fills the parts of its range the stream does not cover
 * yet, so it resumes, and a sync after it continues from its end.
 */
import type { Pipeline, StartPoint } from '../config/index.js';
import { isSnapshot, type AnyStream, type PositionAxis, type StreamDefinition } from '../core/stream.js';
import { describeBlock, type Landmark, type Landmarks } from '../extract/landmarks.js';
import { checkTipFollows } from '../extract/tip-check.js';
import type { StreamJob } from './runner.js';
import type { StreamCheckpoint } from '../core/checkpoint/record.js';
import { Coverage, minBig } from '../core/checkpoint/coverage.js';
import type { StreamScope } from '../core/scope.js';
import { StreamProgress } from '../core/checkpoint/stream-progress.js';
import { AheadOfChainError, ConfigError } from '../core/errors.js';
import { utcTime } from '../core/utc-time.js';
import { planSnapshots, type SkippedSnapshot } from './snapshot-plan.js';
import type { KeyedRead } from './snapshot-by-key.js';
import type { SnapshotJob } from './snapshot-job.js';

export interface PlannedStream<Stream extends AnyStream = AnyStream> {
  readonly stream: Stream;
  readonly filters: unknown;
  /** A snapshot stream's `refresh.every`, seconds: a sync skips it while its last snapshot is younger. */
  readonly refresh?: number;
}

/** A point on the chain as the CLI takes it: `2024-01-01`, `lt:N`, `mc:N`, or a pipeline start. */
export type ChainPoint = Exclude<StartPoint, { kind: 'tip' }>;

/** A stream's checkpoint row, decoded, with its text as stored. */
export interface StoredCheckpoint {
  readonly record: StreamCheckpoint;
  readonly text: string;
}

export interface PlanContext {
  readonly landmarks: Landmarks;
  readonly tip: Landmark;
  /** Checkpoint rows by stream name. */
  readonly stored: ReadonlyMap<string, StoredCheckpoint>;
  /** The scope this run loads each stream with (already checked against the stored one). */
  readonly scopeOf: (planned: PlannedStream) => StreamScope;
  readonly signal?: AbortSignal;
  /** Unix seconds now: the time of the snapshots this run takes. @default the clock */
  readonly now?: number;
}

export interface Plan {
  readonly jobs: readonly StreamJob[];
  /** Every planned position stream's record, also those with nothing to fetch. */
  readonly progress: readonly StreamProgress[];
  /** The snapshot streams this run reads. */
  readonly snapshots?: readonly SnapshotJob[];
  /** The snapshot streams this run skips: not due yet. */
  readonly skipped?: readonly SkippedSnapshot[];
  /** The snapshot streams' reads by key, after the others have committed. */
  readonly keyed?: readonly KeyedRead[];
}

/** The last position of the settled tip on an axis. One second is held back on the utime axis: a later block may share it. */
export function tipPosition(tip: Landmark, axis: PositionAxis): bigint {
  return axis === 'lt' ? tip.endLt : BigInt(tip.utime - 1);
}

/** The first position at or after a chain point, on an axis; the tip's next position when the point lies beyond it. */
export async function positionOf(point: ChainPoint, axis: PositionAxis, ctx: Pick<PlanContext, 'landmarks' | 'tip' | 'signal'>): Promise<bigint> {
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

export async function planSync(pipeline: Pipeline, planned: readonly PlannedStream[], ctx: PlanContext): Promise<Plan> {
  const streams = positionStreams(planned);
  await refuseImplausibleTip(streams, ctx);
  if (pipeline.start.kind !== 'tip' && streams.some(({ stream }) => !ctx.stored.has(stream.name))) {
    refuseBeyondTip(pipeline.start, ctx.tip, `start ${describeStart(pipeline.start)}`, 'pick an earlier start, or leave start out to begin at the settled tip');
  }
  const jobs: StreamJob[] = [];
  const progress: StreamProgress[] = [];
  for (const planned of streams) {
    const { stream } = planned;
    const to = tipPosition(ctx.tip, stream.axis);
    const stored = ctx.stored.get(stream.name);
    let record: StreamProgress;
    let from: bigint;
    if (stored !== undefined) {
      record = new StreamProgress(stream.name, ctx.scopeOf(planned), stored.record, stored.text);
      const { position } = stored.record;
      from = position + 1n;
      if (stream.rescansOverlap) from = minBig(from, await overlapStart(pipeline, stream.axis, minBig(position, to), ctx));
      const open = record.beginRun(ctx.tip.utime, { rereads: true, tracksOpen: stream.openUntil !== undefined });
      if (open !== undefined) from = minBig(from, open);
      if (pipeline.start.kind !== 'tip') {
        // The warehouse begins at `start`: what is missing below the checkpoint (an earlier start, a
        // range removed by repair) is fetched too. A row of an earlier release began there.
        const begin = await positionOf(pipeline.start, stream.axis, ctx);
        if (record.coversNothing) record.cover(begin, position);
        for (const gap of record.gapsIn({ from: begin, to: minBig(position, from - 1n) })) {
          jobs.push({ stream, filters: planned.filters, progress: record, from: gap.from, to: gap.to });
        }
      }
    } else {
      from = pipeline.start.kind === 'tip' ? to + 1n : await positionOf(pipeline.start, stream.axis, ctx);
      record = new StreamProgress(stream.name, ctx.scopeOf(planned), { position: from - 1n, covered: new Coverage() }, undefined);
      record.beginRun(ctx.tip.utime, { rereads: true, tracksOpen: stream.openUntil !== undefined });
    }
    progress.push(record);
    if (from <= to) jobs.push({ stream, filters: planned.filters, progress: record, from, to });
  }
  const snapshots = planSnapshots(planned, ctx, ctx.now ?? Math.floor(Date.now() / 1000));
  return { jobs, progress, snapshots: snapshots.jobs, skipped: snapshots.skipped, keyed: snapshots.keyed };
}

/** The planned streams paged by a position; snapshot streams are planned apart (snapshot-plan.ts). */
export function positionStreams(planned: readonly PlannedStream[]): PlannedStream<StreamDefinition>[] {
  return planned.filter((p): p is PlannedStream<StreamDefinition> => !isSnapshot(p.stream));
}

export interface BackfillRange {
  readonly from: ChainPoint;
  /** Exclusive end; the settled tip when absent. */
  readonly to?: ChainPoint;
  /** Read the covered parts of the range again too (replacing their rows), not only its gaps. @default false */
  readonly refetch?: boolean;
}

/** A backfill fills position ranges: snapshot streams have none, and are left to sync. */
export async function planBackfill(planned: readonly PlannedStream[], range: BackfillRange, ctx: PlanContext): Promise<Plan> {
  const streams = positionStreams(planned);
  await refuseImplausibleTip(streams, ctx);
  refuseBeyondTip(range.from, ctx.tip, `--from ${describePoint(range.from)}`, 'pick an earlier --from');
  if (range.to !== undefined) {
    refuseBeyondTip(range.to, ctx.tip, `--to ${describePoint(range.to)}`, 'leave --to out to backfill up to the settled tip', 1);
    await refuseBeforeFirstBlock(range.to, ctx);
  }
  const jobs: StreamJob[] = [];
  const progress: StreamProgress[] = [];
  let empty = 0;
  for (const planned of streams) {
    const { stream } = planned;
    const start = await positionOf(range.from, stream.axis, ctx);
    const tip = tipPosition(ctx.tip, stream.axis);
    const stop = range.to === undefined ? undefined : await positionOf(range.to, stream.axis, ctx);
    // A range shorter than a block holds lt positions but no utime position: only its lt streams have work.
    if (stop !== undefined && stop <= start) empty += 1;
    const end = stop === undefined ? tip : minBig(tip, stop - 1n);
    const stored = ctx.stored.get(stream.name);
    const record = stored === undefined
      ? new StreamProgress(stream.name, ctx.scopeOf(planned), { position: start - 1n, covered: new Coverage() }, undefined)
      : new StreamProgress(stream.name, ctx.scopeOf(planned), stored.record, stored.text);
    record.beginRun(ctx.tip.utime, { rereads: false, tracksOpen: stream.openUntil !== undefined });
    progress.push(record);
    const parts = range.refetch === true ? (start <= end ? [{ from: start, to: end }] : []) : record.gapsIn({ from: start, to: end });
    for (const part of parts) {
      jobs.push({ stream, filters: planned.filters, progress: record, from: part.from, to: part.to });
    }
  }
  if (streams.length > 0 && empty === streams.length) {
    throw new ConfigError(`--from ${describePoint(range.from)} is not before --to ${describePoint(range.to!)}: swap them or widen the range`);
  }
  return { jobs, progress };
}

/**
 * Where the re-scan of a stream whose rows arrive late starts: `actions_overlap` masterchain blocks
 * below the block holding `position` (the previous checkpoint, or the tip when that is lower), so
 * the overlap is the same whatever the time between runs.
 */
async function overlapStart(pipeline: Pipeline, axis: PositionAxis, position: bigint, ctx: PlanContext): Promise<bigint> {
  const holding = axis === 'lt' ? await ctx.landmarks.holdingLt(position, ctx.signal) : await ctx.landmarks.atOrAfterUtime(Number(position), ctx.signal);
  const base = Math.min(holding?.seqno ?? ctx.tip.seqno, ctx.tip.seqno);
  const block = await ctx.landmarks.atOrAfterSeqno(Math.max(1, base - pipeline.actionsOverlap.mcBlocks), ctx.signal);
  if (block === undefined) return tipPosition(ctx.tip, axis) + 1n;
  return axis === 'lt' ? block.startLt : BigInt(block.utime);
}

/**
 * Refuses a chain point after the settled tip: nothing is settled there yet, and starting there would
 * silently begin at the tip. `slack` admits an exclusive end just after the tip.
 */
/** Refuses a range that ends at or before the first block the service indexes: it holds nothing, whichever way its points are written. */
async function refuseBeforeFirstBlock(to: ChainPoint, ctx: Pick<PlanContext, 'landmarks' | 'signal'>): Promise<void> {
  const first = await ctx.landmarks.firstIndexed(ctx.signal);
  if (first === undefined) return;
  const before = to.kind === 'lt' ? to.lt <= first.startLt : to.kind === 'utime' ? to.utime <= first.utime : to.mcSeqno <= first.seqno;
  if (!before) return;
  throw new ConfigError(`--to ${describePoint(to)} is not after the first block the service indexes, ${describeBlock(first)}: the range holds nothing; pick a --to after it, or leave --to out`);
}

/**
 * The tip must follow from the stored checkpoints (`checkTipFollows`), and a checkpoint never lies
 * past the newest block the index serves: one that does was built on
 * answers this service no longer gives (a replica behind the one that served the last run, or a wrong
 * tip an earlier release took), and continuing from it would leave a hole for good. A checkpoint
 * past the settled tip but not the head is sound (a raised `lag.mc_blocks`): that run waits.
 */
async function refuseImplausibleTip(streams: readonly PlannedStream<StreamDefinition>[], ctx: PlanContext): Promise<void> {
  const head = ctx.landmarks.head ?? ctx.tip;
  let furthestLt: bigint | undefined;
  for (const { stream } of streams) {
    const position = ctx.stored.get(stream.name)?.record.position;
    if (position === undefined) continue;
    if (stream.axis === 'lt' && (furthestLt === undefined || position > furthestLt)) furthestLt = position;
    if (position <= tipPosition(head, stream.axis)) continue;
    const where = stream.axis === 'lt' ? `lt ${position}` : utcTime(Number(position));
    throw new AheadOfChainError(
      `${stream.name}'s checkpoint (${where}) lies past the newest block the service indexes, ${describeBlock(head)}, ending at lt ${head.endLt}: ` +
        'the warehouse was loaded from answers this service no longer gives (a replica behind, or a wrong tip an earlier release took); ' +
        'run again later, and if it persists, load this service into a new warehouse (--out)',
    );
  }
  if (furthestLt !== undefined) await checkTipFollows(ctx.tip, furthestLt, (lt) => ctx.landmarks.holdingLt(lt, ctx.signal));
}

function refuseBeyondTip(point: ChainPoint, tip: Landmark, what: string, fix: string, slack = 0): void {
  const beyond =
    point.kind === 'lt' ? point.lt > tip.endLt + BigInt(slack) : point.kind === 'utime' ? point.utime > tip.utime + slack : point.mcSeqno > tip.seqno + slack;
  if (!beyond) return;
  const at = new Date(tip.utime * 1000).toISOString();
  throw new ConfigError(`${what} is after the settled tip (masterchain block ${tip.seqno}, lt ${tip.endLt}, ${at}): the chain has no settled data there yet; ${fix}`);
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

function describeStart(point: ChainPoint): string {
  switch (point.kind) {
    case 'lt':
      return `{ lt: ${point.lt} }`;
    case 'mc_seqno':
      return `{ mc_seqno: ${point.mcSeqno} }`;
    case 'utime':
      return `{ utime: ${new Date(point.utime * 1000).toISOString()} }`;
  }
}

