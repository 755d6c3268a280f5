/**
 * `status`: what the warehouse holds, read without writing or locking anything (a sync may run, a
 * notebook may read), and how far it is from the settled tip. It needs no API key: the tip is asked
 * once, with a short timeout and no retries (`--offline`: not at all), and when it cannot be had the
 * report says "tip unknown" and shows the rest.
 */
import type { CommandModule } from 'yargs';
import type { Logger } from 'pino';
import { loadPipeline, type Pipeline } from '../config/index.js';
import { createLogger } from '../core/logger.js';
import { positionOf, tipPosition, type PlannedStream } from '../run/plan.js';
import { isSnapshot, type PositionAxis } from '../core/stream.js';
import { V3Api } from '../api/v3.js';
import { Landmarks, type Landmark } from '../extract/landmarks.js';
import { readWarehouseFacts } from '../load/read-only-warehouse.js';
import { apiClient, plannedStreams, warehouseTables } from './session.js';
import { NAME_WIDTH, streamStatus, streamStatusLines, type Distance, type StreamStatus } from './stream-status.js';
import { decodeCheckpoint } from '../core/checkpoint.js';
import { snapshotStatus, snapshotStatusLines, type SnapshotStatus } from './snapshot-status.js';
import { overridesOf, pipelineOptions, type PipelineArgs } from './pipeline-options.js';
import { activeRedactor } from '../core/secret-scope.js';

/** How long status waits for the tip (and the start's position), all requests together. */
const TIP_TIMEOUT_MS = 3000;
/** Masterchain blocks below the tip read with it (a cron warehouse is rarely further behind). */
const RECENT_BLOCKS = 100;

interface StatusArgs extends PipelineArgs {
  json: boolean;
  offline: boolean;
}

/** What status knows of the chain: the settled tip, or why not, the pipeline's start per axis, and each checkpoint's distance to the tip. */
interface ChainFacts {
  readonly tip: Landmark | undefined;
  readonly unknownBecause: string | undefined;
  readonly starts: ReadonlyMap<PositionAxis, bigint>;
  readonly distances: ReadonlyMap<string, Distance>;
}

export const statusCommand: CommandModule<object, StatusArgs> = {
  builder: (y) =>
    pipelineOptions(y).options({
      json: { type: 'boolean', default: false, describe: 'print one JSON object instead of text' },
      offline: { type: 'boolean', default: false, describe: 'do not ask the API for the tip: report the warehouse only' },
    }) as never,
  handler: async (args) => {
    const logger = createLogger(args['log-level']);
    const pipeline = loadPipeline(args.pipeline, overridesOf(args), process.env, { requireApiKey: false });
    const streams = plannedStreams(pipeline);
    // The warehouse is read and closed before the API is asked: a sync starting meanwhile waits for readers.
    const stored = await readWarehouseFacts(pipeline.sink.kind, pipeline.sink.path, warehouseTables(streams));
    const chain = args.offline ? offlineFacts(pipeline) : await askChain(pipeline, streams, stored.checkpoints, logger);
    const report: StatusReport = {
      pipeline: pipeline.file,
      sink: pipeline.sink,
      tip: chain.tip === undefined ? { error: chain.unknownBecause ?? 'unknown' } : { seqno: chain.tip.seqno, end_lt: chain.tip.endLt.toString(), utime: chain.tip.utime },
      streams: streams.map(({ stream, refresh }) =>
        isSnapshot(stream)
          ? snapshotStatus(stream.name, stored.checkpoints.get(stream.name), refresh)
          : streamStatus(stream, stored.checkpoints.get(stream.name), chain.tip, chain.starts.get(stream.axis), chain.distances.get(stream.name)),
      ),
      tables: stored.rows,
      rejects: stored.rejects,
      runs: stored.runs,
    };
    // Also redacts run errors that an earlier release stored unredacted.
    process.stdout.write(activeRedactor().redact(args.json ? `${JSON.stringify(report)}\n` : formatStatus(report)));
  },
};

interface StatusReport {
  pipeline: string;
  sink: Pipeline['sink'];
  tip: { seqno: number; end_lt: string; utime: number } | { error: string };
  streams: (StreamStatus | SnapshotStatus)[];
  tables: Readonly<Record<string, number>>;
  rejects: number;
  runs: readonly Record<string, unknown>[];
}

/** The start positions that need no request: a start on the stream's own axis. */
function offlineFacts(pipeline: Pipeline): ChainFacts {
  const starts = new Map<PositionAxis, bigint>();
  if (pipeline.start.kind === 'lt') starts.set('lt', pipeline.start.lt);
  if (pipeline.start.kind === 'utime') starts.set('utime', BigInt(pipeline.start.utime));
  return { tip: undefined, unknownBecause: 'offline', starts, distances: new Map() };
}

/** The settled tip, the start's positions and the checkpoints' blocks, asked once each within TIP_TIMEOUT_MS, without retries. */
async function askChain(pipeline: Pipeline, streams: readonly PlannedStream[], checkpoints: ReadonlyMap<string, string>, logger: Logger): Promise<ChainFacts> {
  const offline = offlineFacts(pipeline);
  const http = apiClient(pipeline, logger, { timeoutMs: TIP_TIMEOUT_MS, maxRetries: 0 });
  const landmarks = new Landmarks(new V3Api(http));
  const signal = AbortSignal.timeout(TIP_TIMEOUT_MS);
  let tip: Landmark;
  try {
    // The blocks below the tip come with it: a checkpoint among them costs no request to place.
    tip = await landmarks.settledTip(pipeline.lag.mcBlocks, { signal, reach: RECENT_BLOCKS });
  } catch (error) {
    return { ...offline, unknownBecause: signal.aborted ? `no answer within ${TIP_TIMEOUT_MS / 1000} s` : error instanceof Error ? error.message : String(error) };
  }
  const starts = new Map(offline.starts);
  if (pipeline.start.kind !== 'tip') {
    for (const axis of new Set(streams.flatMap(({ stream }) => (isSnapshot(stream) ? [] : [stream.axis])))) {
      if (starts.has(axis)) continue;
      // Without it, status shows no hole before the first covered range; the rest stands.
      const position = await positionOf(pipeline.start, axis, { landmarks, tip, signal }).catch(() => undefined);
      if (position !== undefined) starts.set(axis, position);
    }
  }
  const distances = new Map<string, Distance>();
  for (const { stream } of streams) {
    const stored = checkpoints.get(stream.name);
    if (stored === undefined || isSnapshot(stream)) continue;
    // Without it, status shows the distance in positions only.
    const distance = await distanceToTip(landmarks, stream.axis, decodeCheckpoint(stored).position, tip, signal).catch(() => undefined);
    if (distance !== undefined) distances.set(stream.name, distance);
  }
  return { tip, unknownBecause: undefined, starts, distances };
}

/**
 * The masterchain blocks after the one that holds the checkpoint (lt), or after its second (utime),
 * up to the settled tip, and the seconds between them.
 */
async function distanceToTip(landmarks: Landmarks, axis: PositionAxis, position: bigint, tip: Landmark, signal: AbortSignal): Promise<Distance | undefined> {
  if (axis === 'utime') {
    // The tip's own second is held back (tipPosition): its blocks are not counted.
    const seconds = Number(tipPosition(tip, 'utime') - position);
    if (seconds <= 0) return { blocks: 0, seconds: 0 };
    const next = await landmarks.atOrAfterUtime(Number(position) + 1, signal);
    return { blocks: next === undefined || next.utime >= tip.utime ? 0 : tip.seqno - next.seqno, seconds };
  }
  const block = position >= tip.endLt ? tip : await landmarks.holdingLt(position, signal);
  return block === undefined ? undefined : { blocks: tip.seqno - block.seqno, seconds: tip.utime - block.utime };
}

function formatStatus(report: StatusReport): string {
  const lines = [`pipeline ${report.pipeline} → ${report.sink.kind} ${report.sink.path}`];
  lines.push('error' in report.tip ? `settled tip: unknown (${report.tip.error}); distances to it are not shown` : `settled tip: masterchain ${report.tip.seqno}, lt ${report.tip.end_lt}`);
  // Names narrower than the column keep its width; longer ones widen it for every line.
  const streamWidth = Math.max(NAME_WIDTH, ...report.streams.map((status) => status.stream.length));
  lines.push('', `${'stream'.padEnd(streamWidth)} checkpoint            behind the tip`);
  for (const status of report.streams) lines.push(...(status.axis === 'snapshot' ? snapshotStatusLines(status, streamWidth) : streamStatusLines(status, report.pipeline, streamWidth)));
  const tableWidth = Math.max(NAME_WIDTH, ...Object.keys(report.tables).map((name) => name.length));
  lines.push('', `${'table'.padEnd(tableWidth)} rows`);
  for (const [name, rows] of Object.entries(report.tables)) lines.push(`${name.padEnd(tableWidth)} ${rows}`);
  lines.push(`${'_etl_rejects'.padEnd(tableWidth)} ${report.rejects}`, '', 'last runs');
  for (const run of report.runs) {
    // Runs of schema version 2 and earlier counted replaced rows among the others.
    const replaced = run.rows_replaced === null ? 'unknown' : String(run.rows_replaced);
    lines.push(`  ${String(run.started_at)}  ${String(run.command).padEnd(8)} ${String(run.status).padEnd(11)} new rows ${String(run.rows)} replaced ${replaced}${run.error ? `  error: ${String(run.error)}` : ''}`);
  }
  return lines.join('\n') + '\n';
}
