/**
 * One run of sync or backfill: freeze the settled tip, plan the jobs, run them, and record the run
 * in `_etl_runs` (started, then ok / failed / interrupted with new and replaced rows and requests per stream; runs
 * a dead process left `running` become `abandoned`).
 */
import { randomUUID } from 'node:crypto';
import { activeRedactor } from '../core/secret-scope.js';
import { runJobs, type JobProgress } from './runner.js';
import type { Plan, PlanContext } from './plan.js';
import { settledTip, type Session } from './session.js';
import type { Landmark } from '../extract/landmarks.js';
import { closeAbandonedRuns } from './abandoned-runs.js';
import { checkChain, checkScopes, scopeRecorder, storedCheckpoints } from './warehouse-scope.js';
import { wellFormedText } from '../core/storable.js';
import type { SkippedSnapshot } from './snapshot-plan.js';
import { mark } from '../core/timeline.js';
import { isoSeconds } from '../core/utc-time.js';
import { storageErrorOf } from '../load/storage-error.js';

export interface RunSummary {
  /** New rows committed (of a key the warehouse did not hold), by stream. */
  readonly rows: Record<string, number>;
  /** Rows committed that took the place of a stored row of the same key, by stream. */
  readonly replaced: Record<string, number>;
  /** Pages committed, by stream. */
  readonly pages: Record<string, number>;
  /** Every request of the run, landmarks and retries included. */
  readonly requests: number;
  readonly rejects: number;
  readonly tipSeqno: number;
  readonly seconds: number;
  /** Snapshot streams skipped because their refresh is not due. */
  readonly skipped?: readonly SkippedSnapshot[];
}

export interface RunFlags {
  /** Fail on the first item that fails validation (`--strict`). @default false */
  readonly strict?: boolean;
}

/** Whose committed rows the stored checks read: this run's, or an earlier run's (before a sync fetches). */
export type CommittedBy = 'this run' | 'an earlier run';

/**
 * What the command around a run supplies: how its progress is shown, and the stored checks of
 * committed rows (they live in verify/, a layer above this one).
 */
export interface RunHooks {
  readonly progress: { update(progress: JobProgress): void; finish(): void };
  /** Marks the rows checked, or throws when they contradict the chain and the command must stop. */
  checkCommitted(committedBy: CommittedBy): Promise<void>;
}

export async function executeRun(session: Session, command: string, plan: (ctx: PlanContext) => Promise<Plan>, signal: AbortSignal, hooks: RunHooks, flags: RunFlags = {}): Promise<RunSummary> {
  const { strict = false } = flags;
  const { progress } = hooks;
  const runId = randomUUID();
  const startedAt = Math.floor(Date.now() / 1000);
  const rows: Record<string, number> = {};
  const replaced: Record<string, number> = {};
  const snapshotTimes: Record<string, string> = {};
  const requests: Record<string, number> = {};
  let tip: Landmark | undefined;
  const record = (status: string, error: string | null): Promise<void> =>
    session.sink.recordRun({
      run_id: runId,
      command,
      started_at: startedAt,
      ended_at: status === 'running' ? null : Math.floor(Date.now() / 1000),
      status,
      // The time of each snapshot taken, beside the row counts: {"snapshot_time": {"stream": "…Z"}}.
      rows: JSON.stringify(Object.keys(snapshotTimes).length === 0 ? rows : { ...rows, snapshot_time: snapshotTimes }),
      rows_replaced: JSON.stringify(replaced),
      requests: JSON.stringify({ ...requests, total: session.runHttpStats().requests }),
      retries: session.runHttpStats().retries,
      error,
      tip_seqno: tip?.seqno ?? null,
      tip_time: tip?.utime ?? null,
    });
  // A run of another scope is refused before it writes anything, even its own record.
  const stored = await storedCheckpoints(session.sink);
  checkScopes(session, stored);
  if (command === 'sync') await hooks.checkCommitted('an earlier run');
  await closeAbandonedRuns(session.sink);
  await record('running', null);
  mark('run recorded running');
  // An interrupted or failed run records what it committed up to then.
  const count = (stream: string, committed: { rows: number; replaced: number; pages: number }): void => {
    rows[stream] = committed.rows - committed.replaced;
    replaced[stream] = committed.replaced;
    requests[stream] = committed.pages;
  };
  const onProgress = (update: JobProgress): void => {
    count(update.stream, update);
    progress.update(update);
  };
  const started = performance.now();
  try {
    tip = await runTip(session, signal);
    mark('settled tip');
    await checkChain(session, stored, signal);
    const planned = await plan({ landmarks: session.landmarks, tip, stored, scopeOf: scopeRecorder(session, stored, tip), signal });
    mark('planned');
    for (const skip of planned.skipped ?? []) {
      session.logger.info({ stream: skip.stream, lastSnapshot: isoSeconds(skip.last), due: isoSeconds(skip.due) }, `${skip.stream}: its last snapshot is younger than its refresh interval: skipped until it is due`);
    }
    for (const job of planned.snapshots ?? []) snapshotTimes[job.stream.name] = isoSeconds(job.time);
    const results = await runJobs(
      { api: session.v3, sink: session.sink, concurrency: session.pipeline.rate.concurrency, workers: session.pipeline.workers, maxResponseMb: session.pipeline.http.maxResponseMb, signal, strict, onProgress },
      planned,
    );
    let rejects = 0;
    for (const [stream, result] of results) {
      count(stream, result);
      rejects += result.rejects;
    }
    progress.finish();
    await hooks.checkCommitted('this run');
    await record('ok', null);
    mark('run recorded ok');
    return { rows, replaced, pages: { ...requests }, requests: session.runHttpStats().requests, rejects, tipSeqno: tip.seqno, seconds: (performance.now() - started) / 1000, skipped: planned.skipped };
  } catch (thrown) {
    const error = (await storageErrorOf(thrown)) ?? thrown;
    const message = wellFormedText(activeRedactor().redact(error instanceof Error ? error.message : String(error)));
    await record(signal.aborted ? 'interrupted' : 'failed', message).catch(() => undefined);
    throw error;
  } finally {
    session.endRunHttpStats();
  }
}

/** The run's frozen upper bound: the one the session asked for as it opened, or asked for now. */
export function runTip(session: Session, signal: AbortSignal): Promise<Landmark> {
  return session.takeEarlyTip() ?? settledTip(session, signal);
}
