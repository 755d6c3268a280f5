/**
 * The one orchestrator (docs/design.md §1): fetches each job's windows concurrently, turns pages
 * into rows and commits rows + checkpoint together, the pages that are ready at once in one commit
 * (group-commit.ts). Retries live in the HTTP client only; backpressure is natural: a window
 * requests its next page while its last one is committed, and no further.
 */
import PQueue from 'p-queue';
import type { Logger } from 'pino';
import type { V3Api } from '../api/v3.js';
import type { Sink, Row, RejectInput } from '../load/sink.js';
import type { StreamDefinition } from './stream.js';
import type { Plan } from './plan.js';
import type { StreamProgress } from './stream-progress.js';
import { pageWindow, type Page } from '../extract/position-pager.js';
import { MIN_WINDOW, estimatePagesLeft, splitWindows, windowsFor, type Window } from '../extract/windows.js';
import { CheckpointTracker } from '../extract/checkpoint-tracker.js';
import { readAhead } from '../extract/read-ahead.js';
import { PageBudget } from '../extract/page-budget.js';
import { addressesTable, addressRows } from '../streams/addresses.js';
import { FatalError } from './errors.js';
import { GroupCommitter } from './group-commit.js';
import { exactJson } from './exact-json.js';

export interface StreamJob {
  readonly stream: StreamDefinition;
  readonly filters: unknown;
  /** The stream's checkpoint record this job extends (shared by the jobs of one stream). */
  readonly progress: StreamProgress;
  /** Inclusive range of positions to fetch. */
  readonly from: bigint;
  readonly to: bigint;
}

export interface JobProgress {
  readonly stream: string;
  readonly from: bigint;
  readonly to: bigint;
  readonly checkpoint: bigint;
  readonly rows: number;
}

export interface RunnerOptions {
  readonly api: V3Api;
  readonly sink: Sink;
  readonly logger: Logger;
  /** Windows fetched at once across all jobs. */
  readonly concurrency: number;
  /** Items per request. @default 1000 */
  readonly pageLimit?: number;
  /** Fail the run on the first item that fails validation instead of storing it in `_etl_rejects`. @default false */
  readonly strict?: boolean;
  /** Stops starting pages; a page being committed still commits. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: JobProgress) => void;
}

export interface JobResult {
  readonly rows: number;
  readonly pages: number;
  readonly rejects: number;
  readonly checkpoint: bigint;
}

/**
 * Pages fetched and not yet committed, at most, whatever the concurrency: commits run one at a time,
 * so more pages only wait longer and hold memory (docs/design.md §3).
 */
const MAX_PAGES_UNCOMMITTED = 8;

export async function runJobs(options: RunnerOptions, plan: Plan): Promise<Map<string, JobResult>> {
  const queue = new PQueue({ concurrency: options.concurrency });
  const results = new Map<string, { -readonly [K in keyof JobResult]: JobResult[K] }>();
  const tasks: Promise<void>[] = [];
  // The first failure stops the other windows: their committed pages stay, the checkpoint covers them.
  const failed = new AbortController();
  const signal = options.signal === undefined ? failed.signal : AbortSignal.any([options.signal, failed.signal]);

  const pageLimit = options.pageLimit ?? 1000;
  // Two at least: a window's page being committed and the next one read ahead.
  const pagesUncommitted = Math.min(Math.max(2, options.concurrency), MAX_PAGES_UNCOMMITTED);
  const budget = new PageBudget(pagesUncommitted);
  const committer = new GroupCommitter((batches) => options.sink.commitAll(batches), pagesUncommitted);
  const windowCount = windowsFor(options.concurrency);
  for (const progress of plan.progress) results.set(progress.stream, { rows: 0, pages: 0, rejects: 0, checkpoint: progress.position });
  for (const job of plan.jobs) {
    const tracker = new CheckpointTracker(job.from - 1n);
    const result = results.get(job.stream.name)!;
    const report = (): void =>
      options.onProgress?.({ stream: job.stream.name, from: job.from, to: job.to, checkpoint: tracker.position(), rows: result.rows });
    report();
    /**
     * Fetches one window page by page. The first window is the whole range: when its first page is
     * the last (a cron run near the tip), one request did it; otherwise the rest is split into
     * windows fetched concurrently.
     */
    const fetchWindow = (window: Window, scout: boolean): void => {
      const index = tracker.add(window);
      const task = queue
        .add(async () => {
          signal.throwIfAborted();
          const pages = budget.pace(asBatches(job, pageWindow(job.stream, options.api, job.filters, { ...window, limit: pageLimit, signal, firstPageOnly: scout })), signal);
          // The scout stops after its first page when there is more: nothing to read ahead for.
          const source = scout ? pages : readAhead(pages);
          /**
           * Commits the window's next page; false once the window is done or the scout has split it.
           * A function, not a loop body: nothing keeps a committed page while the next is awaited.
           */
          const commitNext = async (): Promise<boolean> => {
            const next = await source.next();
            if (next.done === true) return false;
            const page = next.value;
            try {
              signal.throwIfAborted();
              const { batch } = page;
              if (options.strict && batch.rejects.length > 0) throw new RejectedItemError(job.stream.endpoint, batch.rejects);
              await committer.submit(() => {
                job.progress.cover(job.from, tracker.advance(index, page.through));
                return { stream: job.stream.name, rows: batch.rows, checkpoint: job.progress.encode(), rejects: batch.rejects };
              });
              result.rows += batch.count;
              result.pages += 1;
              result.rejects += batch.rejects.length;
              result.checkpoint = job.progress.position;
              report();
            } finally {
              budget.release();
            }
            if (scout && !page.last) {
              tracker.endAt(index, page.through);
              const count = Math.min(windowCount, estimatePagesLeft(window, page.received, page.through, pageLimit));
              for (const rest of splitWindows(page.through + 1n, window.to, count, MIN_WINDOW[job.stream.axis])) fetchWindow(rest, false);
              return false;
            }
            return true;
          };
          try {
            while (await commitNext());
          } finally {
            await source.return(undefined);
          }
        })
        .catch((error: unknown) => {
          if (!failed.signal.aborted) failed.abort(error);
          throw error;
        });
      // Settled below, possibly after it fails: not an unhandled rejection meanwhile.
      task.catch(() => undefined);
      tasks.push(task);
    };
    fetchWindow({ from: job.from, to: job.to }, true);
  }
  // Windows add windows while they run: wait until no task is left unsettled.
  let settled: PromiseSettledResult<void>[];
  do settled = await Promise.allSettled(tasks);
  while (settled.length < tasks.length);
  await committer.idle();
  if (options.signal?.aborted) throw options.signal.reason;
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure !== undefined) throw failed.signal.reason ?? failure.reason;
  // Records that changed without a page: a first sync at the tip, a scope recorded for the first time.
  const unsaved = plan.progress.filter((progress) => progress.changed);
  await Promise.all(unsaved.map((progress) => committer.submit(() => ({ stream: progress.stream, rows: new Map(), checkpoint: progress.encode() }))));
  for (const progress of plan.progress) results.get(progress.stream)!.checkpoint = progress.position;
  return results;
}

/** With --strict, an item that fails validation ends the run. */
export class RejectedItemError extends FatalError {
  constructor(endpoint: string, rejects: readonly RejectInput[]) {
    super(`${rejects.length} item(s) from ${endpoint} failed validation (first: ${rejects[0]!.reason}); run without --strict to keep them in _etl_rejects and load the rest`);
  }
}

interface Batch {
  readonly rows: Map<string, Row[]>;
  readonly rejects: RejectInput[];
  readonly count: number;
}

/** A page as rows: what it holds while it waits for its commit. */
interface PageBatch {
  readonly batch: Batch;
  readonly through: bigint;
  readonly last: boolean;
  /** Items the response carried, valid or not. */
  readonly received: number;
}

/**
 * Turns each page into rows as soon as it arrives, so that a page read ahead or waiting for the
 * commit before it holds its rows only, not the API's objects as well.
 */
async function* asBatches(job: StreamJob, pages: AsyncGenerator<Page<unknown>>): AsyncGenerator<PageBatch> {
  try {
    for (;;) {
      let next = await nextBatch(job, pages);
      if (next === undefined) return;
      yield next;
      // A suspended generator keeps its variables: not this page while the next is fetched.
      next = undefined;
    }
  } finally {
    await pages.return(undefined);
  }
}

async function nextBatch(job: StreamJob, pages: AsyncGenerator<Page<unknown>>): Promise<PageBatch | undefined> {
  const next = await pages.next();
  if (next.done === true) return undefined;
  const page = next.value;
  return { batch: toBatch(job, page), through: page.through, last: page.last, received: page.items.length + page.rejects.length };
}

function toBatch(job: StreamJob, page: Page<unknown>): Batch {
  const rows = new Map<string, Row[]>();
  let count = 0;
  const add = (table: string, tableRows: readonly Row[]): void => {
    let list = rows.get(table);
    if (list === undefined) rows.set(table, (list = []));
    for (const row of tableRows) list.push(row);
  };
  for (const item of page.items) {
    for (const [table, tableRows] of job.stream.toRows(item)) {
      add(table, tableRows);
      count += tableRows.length;
    }
  }
  const book = addressRows(page.addressBook);
  add(addressesTable.name, book.ok);
  const params = JSON.stringify({ ...page.request, filters: job.filters ?? null });
  const rejects = [...page.rejects, ...book.rejects].map((r) => ({ endpoint: job.stream.endpoint, params, raw: exactJson(r.raw), reason: r.reason }));
  return { rows, rejects, count };
}
