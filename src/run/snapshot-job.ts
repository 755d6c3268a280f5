/**
 * One snapshot stream's run (docs/design.md §2): reads the whole scope page by page, commits each
 * page's rows stamped with the snapshot's time together with the record naming the snapshot begun,
 * then, in one last commit, deletes the rows of every other snapshot (the rows this one did not see)
 * and records it complete. A run killed before that commit leaves its pages and its time pending;
 * the next complete snapshot deletes them too. A stream that also reads keys by key
 * (snapshot-by-key.ts) is completed after that read.
 */
import type { V3Api } from '../api/v3.js';
import type { SnapshotRecord } from '../core/checkpoint/snapshot-record.js';
import type { SnapshotDefinition } from '../core/stream.js';
import type { Row } from '../core/table.js';
import { snapshotPages, type SnapshotPage } from '../extract/snapshot-pager.js';
import type { RejectInput, StreamCommit } from '../load/sink.js';
import { itemRows } from './page-rows.js';
import type { PageBudget } from './page-budget.js';
import { RejectedItemError } from './rejected-item-error.js';

/** The column every snapshot table stamps its rows with. */
export const SNAPSHOT_TIME_COLUMN = 'snapshot_time';

export interface SnapshotJob {
  readonly stream: SnapshotDefinition;
  readonly filters: unknown;
  readonly record: SnapshotRecord;
  /** The snapshot's time, unix seconds: after every earlier snapshot of the stream. */
  readonly time: number;
  /** Where the keys it reads go, when a read by key follows it and completes it (snapshot-by-key.ts). */
  readonly listed?: Set<string>;
}

/** What a snapshot job shares with the run's windows. */
export interface SnapshotRunContext {
  readonly api: V3Api;
  readonly pageLimit: number;
  readonly strict: boolean;
  readonly signal: AbortSignal;
  readonly budget: PageBudget;
  submit(prepare: () => StreamCommit): Promise<void>;
}

export interface SnapshotCounts {
  rows: number;
  pages: number;
  rejects: number;
}

export async function runSnapshotJob(ctx: SnapshotRunContext, job: SnapshotJob, counts: SnapshotCounts): Promise<void> {
  const { stream, record, time } = job;
  record.begin(time);
  const pages = ctx.budget.pace(snapshotPages(stream, ctx.api, job.filters, { limit: ctx.pageLimit, time, signal: ctx.signal }), ctx.signal);
  for await (const page of pages) {
    try {
      ctx.signal.throwIfAborted();
      for (const item of page.items) job.listed?.add(item.key);
      await commitSnapshotPage(ctx, job, page, counts);
    } finally {
      ctx.budget.release();
    }
  }
  if (job.listed === undefined) await completeSnapshot(ctx, job);
}

/** Commits a page's rows stamped with the job's time, with the stream's record. */
export async function commitSnapshotPage(ctx: SnapshotRunContext, job: Omit<SnapshotJob, 'listed'>, page: SnapshotPage, counts: SnapshotCounts): Promise<void> {
  const { rows, count, rejects } = pageRows(job, page);
  if (ctx.strict && rejects.length > 0) throw new RejectedItemError(job.stream.endpoint, rejects);
  await ctx.submit(() => ({ stream: job.stream.name, rows, checkpoint: job.record.encode(), rejects }));
  counts.rows += count;
  counts.pages += 1;
  counts.rejects += rejects.length;
}

/** The snapshot's last commit: deletes the rows of every other snapshot of the stream and records this one complete. */
export async function completeSnapshot(ctx: SnapshotRunContext, job: SnapshotJob): Promise<void> {
  const { stream, record, time } = job;
  ctx.signal.throwIfAborted();
  await ctx.submit(() => {
    const others = record.complete(time);
    const replace = others.length === 0 ? [] : stream.tables.map((table) => ({ table: table.name, column: SNAPSHOT_TIME_COLUMN, values: others }));
    return { stream: stream.name, rows: new Map(), replace, checkpoint: record.encode() };
  });
}

function pageRows(job: Omit<SnapshotJob, 'listed'>, page: SnapshotPage): { rows: Map<string, Row[]>; count: number; rejects: RejectInput[] } {
  return itemRows(job.stream.endpoint, page.items, page.rejects, page.addressBook, JSON.stringify({ ...page.request, filters: job.filters ?? null }));
}
