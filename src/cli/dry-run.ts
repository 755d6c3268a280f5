/**
 * `sync --dry-run` and `backfill --dry-run`: the plan of the run and what it would cost, written to
 * stdout; nothing is written to the warehouse, which is read (when it exists) without a lock, as
 * status reads it. One probe page per job estimates its requests (src/run/estimate.ts).
 */
import { existsSync } from 'node:fs';
import type { Plan, PlanContext, PlannedStream, StoredCheckpoint } from '../run/plan.js';
import { estimateJob, estimatedSeconds, type JobEstimate } from '../run/estimate.js';
import { DEFAULT_PAGE_LIMIT } from '../run/runner.js';
import { byKind, type PositionAxis, type SnapshotDefinition, type StreamDefinition } from '../core/stream.js';
import { snapshotCost } from './snapshot-dry-run.js';
import { readWarehouseFacts } from '../load/read-only-warehouse.js';
import type { Pipeline } from '../config/index.js';
import type { Landmarks } from '../extract/landmarks.js';
import { warehouseTables, type Session } from '../run/session.js';
import { checkScopes, decodedCheckpoints, scopeRecorder } from '../run/warehouse-scope.js';
import { runTip } from '../run/execute-run.js';
import { formatSeconds } from './duration.js';
import { utcTime } from '../core/utc-time.js';

/** Prints the dry run's lines on stdout, then closes the session. */
export async function printDryRun(session: Session, command: string, plan: (ctx: PlanContext) => Promise<Plan>, signal: AbortSignal): Promise<void> {
  try {
    process.stdout.write(`${(await dryRun(session, command, plan, signal)).join('\n')}\n`);
  } finally {
    await session.close();
  }
}

export async function dryRun(session: Session, command: string, plan: (ctx: PlanContext) => Promise<Plan>, signal: AbortSignal): Promise<string[]> {
  const stored = await readStoredCheckpoints(session.pipeline, session.streams);
  checkScopes(session, stored);
  const tip = await runTip(session, signal);
  const planned = await plan({ landmarks: session.landmarks, tip, stored, scopeOf: scopeRecorder(session, stored, tip), signal });
  const { rps, concurrency } = session.pipeline.rate;
  const estimates: JobEstimate[] = [];
  for (const job of planned.jobs) estimates.push(await estimateJob(job, { api: session.v3, pageLimit: DEFAULT_PAGE_LIMIT, concurrency, signal }));
  const latencyMs = median(estimates.map((e) => e.probeMs));
  const at = (axis: PositionAxis, position: bigint): Promise<string> => describePosition(session.landmarks, axis, position, signal);

  const { sink } = session.pipeline;
  const lines = [
    `${command} --dry-run ${session.pipeline.file} → ${sink.kind} ${sink.path}: nothing is written`,
    `settled tip: masterchain block ${tip.seqno} (${utcTime(tip.utime)}); ${rps} requests/s, ${concurrency} at a time`,
    '',
    `${'stream'.padEnd(20)} ${'from'.padEnd(46)} ${'to'.padEnd(46)} ${'requests≈'.padStart(10)} ${'time≈'.padStart(7)}`,
  ];
  let snapshotRequests = 0;
  const positionLines = async (stream: StreamDefinition): Promise<string[]> => {
    const jobs = estimates.filter((e) => e.job.stream.name === stream.name);
    if (jobs.length === 0) return [`${stream.name.padEnd(20)} nothing to fetch`];
    const rows: string[] = [];
    for (const { job, requests } of jobs) {
      const seconds = estimatedSeconds(requests, rps, concurrency, latencyMs);
      rows.push(`${stream.name.padEnd(20)} ${(await at(stream.axis, job.from)).padEnd(46)} ${(await at(stream.axis, job.to)).padEnd(46)} ${String(requests).padStart(10)} ${formatSeconds(seconds).padStart(7)}`);
    }
    return rows;
  };
  const snapshotLines = async (stream: SnapshotDefinition): Promise<string[]> => {
    const cost = await snapshotCost(stream, planned, session.v3, signal);
    snapshotRequests += cost.requests;
    return [cost.line];
  };
  for (const { stream } of session.streams) lines.push(...(await byKind(stream, { position: positionLines, snapshot: snapshotLines })));
  const requests = estimates.reduce((sum, e) => sum + e.requests, snapshotRequests);
  lines.push(
    '',
    `total≈ ${requests} requests, ${formatSeconds(estimatedSeconds(requests, rps, concurrency, latencyMs))} at ${rps} requests/s ` +
      '(from one probe page per range: the rest of each range is assumed as dense as its start)',
  );
  return lines;
}

/** The warehouse's checkpoints, read without a lock; none where there is no warehouse yet. */
async function readStoredCheckpoints(pipeline: Pipeline, streams: readonly PlannedStream[]): Promise<Map<string, StoredCheckpoint>> {
  if (!existsSync(pipeline.sink.path)) return new Map();
  const facts = await readWarehouseFacts(pipeline.sink.kind, pipeline.sink.path, warehouseTables(streams), 0);
  return decodedCheckpoints(facts.checkpoints);
}

async function describePosition(landmarks: Landmarks, axis: PositionAxis, position: bigint, signal: AbortSignal): Promise<string> {
  if (axis === 'utime') return utcTime(Number(position));
  const block = await landmarks.holdingLt(position, signal);
  return block === undefined ? `lt ${position}` : `lt ${position} (${utcTime(block.utime)})`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)]!;
}
