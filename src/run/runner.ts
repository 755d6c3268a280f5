/**
 * The one orchestrator (docs/design.md §1): fetches each job's windows concurrently, turns pages
 * into rows and commits rows + checkpoint together, the pages that are ready at once in one commit
 * (group-commit.ts). Retries live in the HTTP client only; backpressure is natural: a window
 * requests its next page while its last one is committed, and no further.
 */
import PQueue from 'p-queue';
import type { V3Api } from '../api/v3.js';
import { type SnapshotDefinition, type StreamDefinition } from '../core/stream.js';
import type { StreamProgress } from '../core/checkpoint/stream-progress.js';
import { pageWindow } from '../extract/position-pager.js';
import type { Sink, StreamCommit } from '../load/sink.js';
import { CheckpointTracker } from './checkpoint-tracker.js';
import { GroupCommitter } from './group-commit.js';
import { HeapBound } from './heap-bound.js';
import { PageBudget } from './page-budget.js';
import { asPageRows, type PageRows } from './page-rows.js';
import type { Plan } from './plan.js';
import { readAhead } from './read-ahead.js';
import { RejectedItemError } from './rejected-item-error.js';
import { readByKey } from './snapshot-by-key.js';
import { runSnapshotJob, type SnapshotRunContext } from './snapshot-job.js';
import { MIN_WINDOW, estimatePagesLeft, splitWindows, windowsFor, type Window } from './windows.js';
import { PagePool } from './workers/page-pool.js';
import { inThisThread, pageReader, type PagePreparer } from '../extract/page-reader.js';
import { mark } from '../core/timeline.js';

export interface StreamJob {
  readonly stream: StreamDefinition;
  readonly filters: unknown;
  /** The stream's checkpoint record this job extends (shared by the jobs of one stream). */
  readonly progress: StreamProgress;
  /** Inclusive range of positions to fetch. */
  readonly from: bigint;
  readonly to: bigint;
}

/** Items a run asks for per request (the service's maximum). */
export const DEFAULT_PAGE_LIMIT = 1000;

export interface JobProgress {
  readonly stream: string;
  readonly from: bigint;
  readonly to: bigint;
  readonly checkpoint: bigint;
  /** Positions of from..to committed so far, in all windows (the checkpoint waits for the first). */
  readonly committed: bigint;
  /** Rows and requests committed so far: what a run interrupted now has stored. */
  readonly rows: number;
  /** Of `rows`, those that took the place of a row of the same key (the overlap re-read, a replayed page). */
  readonly replaced: number;
  readonly pages: number;
}

export interface RunnerOptions {
  readonly api: V3Api;
  readonly sink: Sink;
  /** Windows fetched at once across all jobs. */
  readonly concurrency: number;
  /** Items per request. @default DEFAULT_PAGE_LIMIT */
  readonly pageLimit?: number;
  /** Fail the run on the first item that fails validation instead of storing it in `_etl_rejects`. @default false */
  readonly strict?: boolean;
  /** Stops starting pages; a page being committed still commits. */
  readonly signal?: AbortSignal;
  /** Worker threads that prepare pages (parse, validate, rows) once a job needs more than its first page; 0: all in the main thread. @default 0 */
  readonly workers?: number;
  /** The page workers' script. @default the compiled page-worker.js (PagePool) */
  readonly workerScript?: URL;
  /** Megabytes a response body may take: the page workers' heaps have room for one such page. @default DEFAULT_MAX_RESPONSE_MB */
  readonly maxResponseMb?: number;
  readonly onProgress?: (progress: JobProgress) => void;
}

export interface JobResult {
  /** Rows committed of the stream's own tables. */
  readonly rows: number;
  /** Of `rows`, those that took the place of a stored row of the same key (see `ReplacedRows`); the rest are new. */
  readonly replaced: number;
  readonly pages: number;
  readonly rejects: number;
  readonly checkpoint: bigint;
}

/**
 * Pages fetched and not yet committed, at most, whatever the concurrency: commits run one at a time,
 * so more pages only wait longer and hold memory (docs/design.md §3).
 */
const MAX_PAGES_UNCOMMITTED = 8;

/**
 * The rests of a run's scouts are prepared in the main thread while their pages, estimated and added
 * up over the run, are this many or fewer: starting a page worker costs about 0.3 CPU-s (it loads the
 * stream registry), preparing a page of 1000 items about 0.05 in the main thread (docs/design.md §2).
 * A cron sync's actions overlap leaves one or two.
 */
const PAGES_LEFT_FOR_A_WORKER = 5;

/** What every window of one run shares. */
interface Run {
  readonly options: RunnerOptions;
  readonly pageLimit: number;
  /** Windows the rest of a job's range is split into at most, after its scout page. */
  readonly windowCount: number;
  readonly queue: PQueue;
  readonly budget: PageBudget;
  readonly committer: GroupCommitter;
  /** Aborts on the caller's signal or with the run's first failure. */
  readonly signal: AbortSignal;
  /** Aborted with the run's first failure: the other windows stop, their committed pages stay. */
  readonly failed: AbortController;
  /** Every window started so far; windows start windows while they run. */
  readonly tasks: Promise<void>[];
  /** Rows per table that took the place of a row of the same key, over the run's commits. */
  readonly replaced: Map<string, number>;
  /** Prepares the pages of windows after a scout (undefined: in the main thread). */
  readonly pool: PagePool | undefined;
  /** Pages the rests split off the run's scouts were estimated at so far (see PAGES_LEFT_FOR_A_WORKER). */
  restPages: number;
}

/** One job while it runs. */
interface JobRun {
  readonly job: StreamJob;
  /** The contiguous committed prefix of the job's windows. */
  readonly tracker: CheckpointTracker;
  /** The stream's result, shared by its jobs. */
  readonly result: { -readonly [K in keyof JobResult]: JobResult[K] };
}

/**
 * One window of a job. The scout is a job's first window, its whole range: when its first page is
 * the last (a cron run near the tip), one request did it; otherwise the rest is split into windows.
 */
interface WindowRun {
  readonly jobRun: JobRun;
  readonly window: Window;
  /** The window's index in the job's tracker. */
  readonly index: number;
  readonly scout: boolean;
  /** Its pages are prepared in the main thread: a scout's, and those of a rest too short to start a worker for. */
  readonly inMainThread: boolean;
}

export async function runJobs(options: RunnerOptions, plan: Plan): Promise<Map<string, JobResult>> {
  const run = startRun(options);
  try {
    return await runAll(run, plan);
  } catch (error) {
    // What the run committed before it failed holds no key twice either; a sweep that cannot commit
    // now (the disk the run failed on) leaves its range to the next run's.
    await options.sink.sweepMovedKeys().catch(() => undefined);
    throw error;
  } finally {
    await run.pool?.close();
  }
}

async function runAll(run: Run, plan: Plan): Promise<Map<string, JobResult>> {
  const results = new Map<string, JobRun['result']>();
  for (const progress of plan.progress) results.set(progress.stream, { rows: 0, replaced: 0, pages: 0, rejects: 0, checkpoint: progress.position });
  for (const job of plan.jobs) {
    const jobRun: JobRun = { job, tracker: new CheckpointTracker(job.from - 1n), result: results.get(job.stream.name)! };
    reportProgress(run, jobRun);
    startWindow(run, jobRun, { from: job.from, to: job.to }, true);
  }
  for (const job of plan.snapshots ?? []) {
    const result = { rows: 0, replaced: 0, pages: 0, rejects: 0, checkpoint: BigInt(job.time) };
    results.set(job.stream.name, result);
    startTask(run, () => runSnapshotJob(snapshotContext(run, job.stream), job, result));
  }
  await settle(run);
  for (const read of plan.keyed ?? []) {
    const result = results.get(read.stream.name) ?? { rows: 0, replaced: 0, pages: 0, rejects: 0, checkpoint: BigInt(read.time) };
    await readByKey(snapshotContext(run, read.stream), run.options.sink, read, result);
    if (result.pages > 0) results.set(read.stream.name, result);
  }
  for (const progress of plan.progress) progress.endRun();
  await commitUnsavedRecords(run, plan);
  for (const [table, rows] of await run.options.sink.sweepMovedKeys()) run.replaced.set(table, (run.replaced.get(table) ?? 0) + rows);
  for (const progress of plan.progress) results.get(progress.stream)!.checkpoint = progress.position;
  for (const { stream } of [...plan.jobs, ...(plan.snapshots ?? []), ...(plan.keyed ?? [])]) {
    const result = results.get(stream.name);
    if (result !== undefined) result.replaced = replacedOf(run, stream);
  }
  return results;
}

function snapshotContext(run: Run, stream: SnapshotDefinition): SnapshotRunContext {
  return {
    api: run.options.api,
    pageLimit: pageLimitOf(run, stream),
    strict: run.options.strict ?? false,
    signal: run.signal,
    budget: run.budget,
    submit: (prepare) => run.committer.submit(prepare),
  };
}

function startRun(options: RunnerOptions): Run {
  const failed = new AbortController();
  // Two at least: a window's page being committed and the next one read ahead.
  const pagesUncommitted = Math.min(Math.max(2, options.concurrency), MAX_PAGES_UNCOMMITTED);
  const replaced = new Map<string, number>();
  const heap = new HeapBound();
  const commitAll = async (commits: readonly StreamCommit[]): Promise<void> => {
    for (const [table, rows] of await options.sink.commitAll(commits)) replaced.set(table, (replaced.get(table) ?? 0) + rows);
    mark(`committed ${commits.map((commit) => commit.stream).join(', ')}`);
    // On the next turn, once the windows have let go of the committed pages.
    setImmediate(() => heap.afterCommit());
  };
  return {
    options,
    pageLimit: options.pageLimit ?? DEFAULT_PAGE_LIMIT,
    windowCount: windowsFor(options.concurrency),
    queue: new PQueue({ concurrency: options.concurrency }),
    budget: new PageBudget(pagesUncommitted),
    committer: new GroupCommitter(commitAll, pagesUncommitted),
    signal: options.signal === undefined ? failed.signal : AbortSignal.any([options.signal, failed.signal]),
    failed,
    tasks: [],
    replaced,
    pool: (options.workers ?? 0) > 0 ? new PagePool({ size: options.workers!, script: options.workerScript, maxResponseMb: options.maxResponseMb }) : undefined,
    restPages: 0,
  };
}

/** Queues a window of a job; its failure aborts the run. */
function startWindow(run: Run, jobRun: JobRun, window: Window, scout: boolean, inMainThread = scout): void {
  const windowRun: WindowRun = { jobRun, window, index: jobRun.tracker.add(window), scout, inMainThread };
  startTask(run, () => readWindow(run, windowRun));
}

/** Queues a task of the run (a window, a snapshot); its failure aborts the run. */
function startTask(run: Run, task: () => Promise<void>): void {
  const queued = run.queue.add(task).catch((error: unknown) => {
    if (!run.failed.signal.aborted) run.failed.abort(error);
    throw error;
  });
  // Settled by `settle`, possibly after it fails: not an unhandled rejection meanwhile.
  queued.catch(() => undefined);
  run.tasks.push(queued);
}

/** Fetches one window page by page, committing each page while the next is fetched. */
async function readWindow(run: Run, windowRun: WindowRun): Promise<void> {
  run.signal.throwIfAborted();
  const { job } = windowRun.jobRun;
  const request = { ...windowRun.window, limit: pageLimitOf(run, job.stream), signal: run.signal, firstPageOnly: windowRun.scout };
  const read = pageReader(job.stream, run.options.api, job.filters, preparerOf(run, windowRun));
  const pages = run.budget.pace(asPageRows(job.stream, job.filters, pageWindow(job.stream, read, request)), run.signal);
  // The scout stops after its first page when there is more: nothing to read ahead for.
  const source = windowRun.scout ? pages : readAhead(pages);
  try {
    while (await commitNextPage(run, windowRun, source));
  } finally {
    await source.return(undefined);
  }
}

/**
 * Where a window's pages are prepared: a scout's in the main thread, so that a run of one page (a
 * cron run near the tip) never starts a worker, and so are those of a short rest; the windows of a
 * longer rest, in the pool.
 */
function preparerOf(run: Run, windowRun: WindowRun): PagePreparer {
  return windowRun.inMainThread || run.pool === undefined ? inThisThread : run.pool.prepare;
}

/**
 * Commits the window's next page; false once the window is done or the scout has split it.
 * A function, not a loop body: nothing keeps a committed page while the next is awaited.
 */
async function commitNextPage(run: Run, windowRun: WindowRun, source: AsyncGenerator<PageRows>): Promise<boolean> {
  const next = await source.next();
  if (next.done === true) return false;
  const page = next.value;
  // The scout hands the rest of its range on before its page commits: the first pages of the rest
  // are fetched while it commits (a cron run's actions overlap: its second page).
  const split = windowRun.scout && !page.last;
  if (split) splitRest(run, windowRun, page);
  try {
    await commitPage(run, windowRun, page);
  } finally {
    run.budget.release();
  }
  return !split;
}

/** Commits a page's rows with the stream's record, which covers the job's contiguous committed prefix. */
async function commitPage(run: Run, windowRun: WindowRun, page: PageRows): Promise<void> {
  run.signal.throwIfAborted();
  const { job, tracker, result } = windowRun.jobRun;
  if (run.options.strict && page.rejects.length > 0) throw new RejectedItemError(job.stream.endpoint, page.rejects);
  await run.committer.submit(() => {
    job.progress.cover(job.from, tracker.advance(windowRun.index, page.through));
    job.progress.noteOpen(page.open);
    return { stream: job.stream.name, rows: page.rows, checkpoint: job.progress.encode(), rejects: page.rejects };
  });
  result.rows += page.count;
  result.pages += 1;
  result.rejects += page.rejects.length;
  result.checkpoint = job.progress.position;
  reportProgress(run, windowRun.jobRun);
}

/**
 * Ends the scout at its first page and splits the rest of its range into as many windows as that
 * page's density says; they are prepared in the main thread while the run's rests are short.
 */
function splitRest(run: Run, scout: WindowRun, page: PageRows): void {
  const { jobRun, window } = scout;
  jobRun.tracker.endAt(scout.index, page.through);
  const pagesLeft = estimatePagesLeft(window, page.received, page.through, pageLimitOf(run, jobRun.job.stream));
  const count = Math.min(run.windowCount, pagesLeft);
  run.restPages += pagesLeft;
  const inMainThread = run.restPages <= PAGES_LEFT_FOR_A_WORKER;
  for (const rest of splitWindows(page.through + 1n, window.to, count, MIN_WINDOW[jobRun.job.stream.axis])) startWindow(run, jobRun, rest, false, inMainThread);
}

/** The page size of a stream's requests: the run's, or the smaller one its service serves. */
function pageLimitOf(run: Run, stream: StreamDefinition | SnapshotDefinition): number {
  return Math.min(run.pageLimit, stream.maxPageLimit ?? run.pageLimit);
}

/** Waits for every window and commit; throws the caller's abort reason, else the run's first failure. */
async function settle(run: Run): Promise<void> {
  let settled: PromiseSettledResult<void>[];
  do settled = await Promise.allSettled(run.tasks);
  while (settled.length < run.tasks.length);
  await run.committer.idle();
  if (run.options.signal?.aborted) throw run.options.signal.reason;
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure !== undefined) throw run.failed.signal.reason ?? failure.reason;
}

/** Commits the records that changed without a page: a first sync at the tip, a scope recorded for the first time. */
async function commitUnsavedRecords(run: Run, plan: Plan): Promise<void> {
  const unsaved = plan.progress.filter((progress) => progress.changed);
  await Promise.all(unsaved.map((progress) => run.committer.submit(() => ({ stream: progress.stream, rows: new Map(), checkpoint: progress.encode() }))));
}

function reportProgress(run: Run, { job, tracker, result }: JobRun): void {
  run.options.onProgress?.({
    stream: job.stream.name,
    from: job.from,
    to: job.to,
    checkpoint: tracker.position(),
    committed: tracker.committedSpan(),
    rows: result.rows,
    replaced: replacedOf(run, job.stream),
    pages: result.pages,
  });
}

/** The rows of a stream's own tables that took the place of a row of the same key so far (not the shared `addresses`). */
function replacedOf(run: Run, stream: StreamDefinition | SnapshotDefinition): number {
  return stream.tables.reduce((sum, table) => sum + (run.replaced.get(table.name) ?? 0), 0);
}
