/**
 * What a planned job will cost before it runs (`--dry-run`): one probe page at the start of its
 * range gives the items per position there, and the rest of the range is assumed as dense. The
 * requests follow the runner's own arithmetic: the scout page, the pages its density implies, and a
 * last partial page per window it splits the rest into.
 */
import type { V3Api } from '../api/v3.js';
import { pageReader } from '../extract/page-reader.js';
import type { StreamJob } from './runner.js';
import { estimatePagesLeft, windowsFor } from './windows.js';

export interface JobEstimate {
  readonly job: StreamJob;
  /** Requests the job's pages take, estimated. */
  readonly requests: number;
  /** Items the probe page held, and whether it was the whole range. */
  readonly probeItems: number;
  readonly probeWasAll: boolean;
  /** How long the probe took to answer, in milliseconds. */
  readonly probeMs: number;
}

export interface EstimateOptions {
  readonly api: V3Api;
  /** Items per request (the runner's default). */
  readonly pageLimit: number;
  /** Requests in flight (the pipeline's `rate.concurrency`). */
  readonly concurrency: number;
  readonly signal?: AbortSignal;
}

export async function estimateJob(job: StreamJob, options: EstimateOptions): Promise<JobEstimate> {
  const limit = Math.min(options.pageLimit, job.stream.maxPageLimit ?? options.pageLimit);
  const started = performance.now();
  const probe = await pageReader(job.stream, options.api, job.filters)({ from: job.from, to: job.to, limit, offset: 0, signal: options.signal });
  const probeMs = performance.now() - started;
  const last = probe.ok.at(-1);
  if (probe.received < limit || last === undefined) return { job, requests: 1, probeItems: probe.received, probeWasAll: true, probeMs };
  // A full page completes the positions before its last one, as the scout's does.
  const through = last.position - 1n;
  const pagesLeft = through < job.from ? 1 : estimatePagesLeft(job, probe.received, through, limit);
  const windows = Math.min(windowsFor(options.concurrency), pagesLeft);
  return { job, requests: 1 + pagesLeft + (windows - 1), probeItems: probe.received, probeWasAll: false, probeMs };
}

/** Seconds `requests` take at `rps`, or longer where the answers' latency with `concurrency` in flight bounds them. */
export function estimatedSeconds(requests: number, rps: number, concurrency: number, latencyMs: number): number {
  return Math.max(requests / rps, (requests * latencyMs) / 1000 / concurrency);
}
