import { availableParallelism } from 'node:os';
import { DEFAULT_BASE_URLS, NETWORKS } from '../api/network.js';

export { DEFAULT_MAX_RESPONSE_MB } from '../api/body.js';
export { DEFAULT_RETRIES, DEFAULT_TIMEOUT_SECONDS } from '../api/http-client.js';

/** Requests per second when the file gives none and no API key is used (the service's free limit). */
export const DEFAULT_RPS_WITHOUT_KEY = 1;
/** Requests per second when the file gives none and an API key is used. */
export const DEFAULT_RPS_WITH_KEY = 10;
/** Upper bound of the default concurrency. */
export const MAX_DEFAULT_CONCURRENCY = 16;
/** Masterchain blocks kept back from the indexer's high-water mark. */
export const DEFAULT_LAG_MC_BLOCKS = 2;
/** Masterchain blocks the actions stream re-scans on every run: about ten minutes of chain time. */
export const DEFAULT_ACTIONS_OVERLAP_MC_BLOCKS = 150;
/** Minutes a superseded Parquet file stays on disk for readers still using an older manifest's file list. */
export const DEFAULT_RETAIN_SUPERSEDED_MINUTES = 10;
/** Files of one table and settled day above which a sync or backfill merges them into one (Parquet); 0: never. */
export const DEFAULT_COMPACT_AFTER_FILES = 8;
/** Seconds a run waits for the processes reading a DuckDB warehouse to close it before giving up (exit 3). */
export const DEFAULT_WAIT_FOR_READERS_SECONDS = 30;

export function defaultRps(hasKey: boolean): number {
  return hasKey ? DEFAULT_RPS_WITH_KEY : DEFAULT_RPS_WITHOUT_KEY;
}

/** Enough requests in flight to keep `rps` busy at about half a second per request, capped. */
export function defaultConcurrency(rps: number): number {
  return Math.min(MAX_DEFAULT_CONCURRENCY, Math.max(1, Math.ceil(rps / 2)));
}

/** Upper bound of the default number of page workers. */
export const MAX_DEFAULT_WORKERS = 8;

/** One page worker per core but the main thread's (at least one), capped: the writer stays one thread. */
export function defaultWorkers(cores: number = availableParallelism()): number {
  return Math.min(MAX_DEFAULT_WORKERS, Math.max(1, cores - 1));
}

/** The defaults above in words, for help and docs. */
export const DEFAULT_LABELS = {
  baseUrl: NETWORKS.map((n) => `${DEFAULT_BASE_URLS[n]} (${n})`).join(', '),
  rps: `${DEFAULT_RPS_WITH_KEY} with an API key, else ${DEFAULT_RPS_WITHOUT_KEY}`,
  concurrency: `min(${MAX_DEFAULT_CONCURRENCY}, max(1, ceil(rps / 2)))`,
  workers: `min(${MAX_DEFAULT_WORKERS}, max(1, cores − 1))`,
  start: 'the settled tip at the first run',
} as const;
