/**
 * `sync --follow`: one sync after another until SIGINT/SIGTERM. A failed run is logged (and recorded
 * in `_etl_runs`) and the next starts after a backoff that doubles per failure in a row, from
 * `--interval` up to 5 minutes; a refusal (exit 2: the pipeline or the warehouse needs a person) ends
 * it. A DuckDB warehouse is open only during a run, so that readers can open it between runs.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { EtlError } from '../core/errors.js';
import type { Session } from '../run/session.js';

/** Longest wait after failed runs. */
export const MAX_FOLLOW_BACKOFF_SECONDS = 300;

/** Exit code of the errors that say the pipeline, a flag or the warehouse must be changed first. */
const REFUSED = 2;

export interface FollowOptions {
  /** Seconds between runs that succeed, and the first wait after a failure. */
  readonly intervalSeconds: number;
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

/** Runs `sync` forever; returns only by throwing (the interrupt, or a refusal). */
export async function follow(session: Session, sync: () => Promise<void>, options: FollowOptions): Promise<never> {
  const { signal, logger } = options;
  // Readers of a Parquet folder take no lock: its sink stays open between runs that succeed.
  const closeBetweenRuns = session.pipeline.sink.kind === 'duckdb';
  let open = false;
  let failures = 0;
  for (;;) {
    let waitSeconds = options.intervalSeconds;
    try {
      if (!open) await session.openWarehouse(signal);
      open = true;
      await sync();
      failures = 0;
    } catch (error) {
      open = false;
      await session.releaseWarehouse();
      if (signal.aborted || (error instanceof EtlError && error.exitCode === REFUSED)) throw error;
      failures += 1;
      waitSeconds = backoffSeconds(options.intervalSeconds, failures);
      const message = error instanceof Error ? error.message : String(error);
      logger.error({ failures, retryInSeconds: waitSeconds }, `sync failed (${failures} in a row), --follow goes on in ${waitSeconds} s: ${message}`);
    }
    if (open && closeBetweenRuns) {
      open = false;
      await session.releaseWarehouse();
    }
    await sleep(waitSeconds * 1000, undefined, { signal }).catch(() => undefined);
    signal.throwIfAborted();
  }
}

/** The wait after `failures` failed runs in a row: the interval doubled per failure, at most 5 minutes. */
export function backoffSeconds(intervalSeconds: number, failures: number): number {
  return Math.min(MAX_FOLLOW_BACKOFF_SECONDS, Math.max(intervalSeconds, 1) * 2 ** (failures - 1));
}
