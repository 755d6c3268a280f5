/**
 * Which snapshot streams a sync reads (docs/design.md §2): every one whose last complete snapshot is
 * at least its `refresh` old, or that has none, or whose last snapshot did not complete. The others
 * are skipped, and the run says when each is due. A stream that reads by key what other streams of
 * the run name (jetton_masters: the masters of transfers and burns) does so in every sync, due or not.
 */
import { Coverage } from '../core/checkpoint/coverage.js';
import { SnapshotRecord } from '../core/checkpoint/snapshot-record.js';
import { isSnapshot, type NamingColumn, type SnapshotDefinition } from '../core/stream.js';
import type { PlanContext, PlannedStream } from './plan.js';
import type { KeyedRead } from './snapshot-by-key.js';
import type { SnapshotJob } from './snapshot-job.js';

/** A snapshot stream a sync did not read: its last complete snapshot is younger than its `refresh`. */
export interface SkippedSnapshot {
  readonly stream: string;
  /** Unix seconds of its last complete snapshot. */
  readonly last: number;
  /** Unix seconds from which a sync takes the next one. */
  readonly due: number;
}

export interface SnapshotPlan {
  readonly jobs: readonly SnapshotJob[];
  readonly skipped: readonly SkippedSnapshot[];
  /** The reads by key after the run's other streams have committed. */
  readonly keyed: readonly KeyedRead[];
}

/** `now`: unix seconds; each job's snapshot time is after every earlier snapshot of its stream. */
export function planSnapshots(streams: readonly PlannedStream[], ctx: Pick<PlanContext, 'stored' | 'scopeOf'>, now: number): SnapshotPlan {
  const jobs: SnapshotJob[] = [];
  const skipped: SkippedSnapshot[] = [];
  const keyed: KeyedRead[] = [];
  const tables = new Set(streams.flatMap((planned) => planned.stream.tables.map((table) => table.name)));
  for (const planned of streams) {
    const { stream } = planned;
    if (!isSnapshot(stream)) continue;
    const stored = ctx.stored.get(stream.name)?.record ?? { position: -1n, covered: new Coverage() };
    const record = new SnapshotRecord(stream.name, ctx.scopeOf(planned), stored);
    const namedBy = namingColumns(stream, tables);
    const last = record.lastComplete;
    if (last !== undefined && !record.incomplete && planned.refresh !== undefined && now < last + planned.refresh) {
      skipped.push({ stream: stream.name, last, due: last + planned.refresh });
      if (namedBy.length > 0) keyed.push({ stream, namedBy, record, time: last });
      continue;
    }
    const listed = namedBy.length > 0 ? { listed: new Set<string>() } : {};
    const job: SnapshotJob = { stream, filters: planned.filters, record, time: record.nextTime(now), ...listed };
    jobs.push(job);
    if (namedBy.length > 0) keyed.push({ stream, namedBy, record, time: job.time, job });
  }
  return { jobs, skipped, keyed };
}

/** The columns naming the stream's keys in tables this run writes. */
function namingColumns(stream: SnapshotDefinition, tables: ReadonlySet<string>): NamingColumn[] {
  return (stream.byKey?.namedBy ?? []).filter((naming) => tables.has(naming.table));
}
