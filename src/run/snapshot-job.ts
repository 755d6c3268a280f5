/**
 * One snapshot stream's run (docs/design.md §2): reads the whole scope page by page, commits each
 * page's rows stamped with the snapshot's time together with the record naming the snapshot begun,
 * then, in one last commit, deletes the rows of every other snapshot (the rows this one did not see)
 * and records it complete. A run killed before that commit leaves its pages and its time pending;
 * the next complete snapshot deletes them too.
 */
import type { V3Api } from '../api/v3.js';
import { exactJson } from '../core/exact-json.js';
import type { SnapshotRecord } from '../core/snapshot-record.js';
import type { SnapshotDefinition } from '../core/stream.js';
import type { Row } from '../core/table.js';
import { snapshotPages, type SnapshotPage } from '../extract/snapshot-pager.js';
import type { RejectInput, StreamCommit } from '../load/sink.js';
import { addressesTable, addressRows } from '../streams/addresses.js';
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
  const pages = ctx.budget.pace(snapshotPages(stream, ctx.api, job.filters, { limit: ctx.pageLimit, signal: ctx.signal }), ctx.signal);
  for await (const page of pages) {
    try {
      ctx.signal.throwIfAborted();
      const { rows, count, rejects } = pageRows(job, page);
      if (ctx.strict && rejects.length > 0) throw new RejectedItemError(stream.endpoint, rejects);
      await ctx.submit(() => ({ stream: stream.name, rows, checkpoint: record.encode(), rejects }));
      counts.rows += count;
      counts.pages += 1;
      counts.rejects += rejects.length;
    } finally {
      ctx.budget.release();
    }
  }
  ctx.signal.throwIfAborted();
  await ctx.submit(() => {
    const others = record.complete(time);
    const replace = others.length === 0 ? [] : stream.tables.map((table) => ({ table: table.name, column: SNAPSHOT_TIME_COLUMN, values: others }));
    return { stream: stream.name, rows: new Map(), replace, checkpoint: record.encode() };
  });
}

function pageRows(job: SnapshotJob, page: SnapshotPage<unknown>): { rows: Map<string, Row[]>; count: number; rejects: RejectInput[] } {
  const rows = new Map<string, Row[]>();
  let count = 0;
  const add = (table: string, tableRows: readonly Row[]): void => {
    let list = rows.get(table);
    if (list === undefined) rows.set(table, (list = []));
    list.push(...tableRows);
  };
  for (const item of page.items) {
    for (const [table, tableRows] of job.stream.toRows(item, job.time)) {
      add(table, tableRows);
      count += tableRows.length;
    }
  }
  const book = addressRows(page.addressBook);
  add(addressesTable.name, book.ok);
  const params = JSON.stringify({ ...page.request, filters: job.filters ?? null });
  const rejects = [...page.rejects, ...book.rejects].map((r) => ({ endpoint: job.stream.endpoint, params, raw: exactJson(r.raw), reason: r.reason }));
  return { rows, count, rejects };
}
