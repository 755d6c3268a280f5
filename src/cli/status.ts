/**
 * `status`: what the warehouse holds, read without writing or locking anything (a sync may run, a
 * notebook may read; while a run writes a DuckDB file, the progress it publishes), and how far it is
 * from the settled tip. It needs no API key: the tip and what places the checkpoints are asked at
 * the pipeline's rate within CHAIN_BUDGET_MS (`asked-tip.ts`), each request retried as a sync retries it
 * (`--offline`: nothing is asked), and when the tip cannot be had the report says "tip unknown" and
 * shows the rest.
 */
import type { CommandModule } from 'yargs';
import type { Logger } from 'pino';
import { loadPipeline, type Pipeline } from '../config/index.js';
import { createLogger } from '../core/logger.js';
import { FatalError } from '../core/errors.js';
import { positionOf, positionStreams, tipPosition, type PlannedStream } from '../run/plan.js';
import { byKind, type PositionAxis } from '../core/stream.js';
import type { Landmark, Landmarks } from '../extract/landmarks.js';
import { plannedStreams } from '../run/session.js';
import { askTip } from './asked-tip.js';
import { streamStatus, type Distance, type StreamStatus } from './stream-status.js';
import { decodeCheckpoint } from '../core/checkpoint/record.js';
import { snapshotStatus, type SnapshotStatus } from './snapshot-status.js';
import { overridesOf, pipelineOptions, type PipelineArgs } from './pipeline-options.js';
import { activeRedactor } from '../core/secret-scope.js';
import { readStatusWarehouse } from './status-warehouse.js';
import { formatStatus, reportedRun, reportedTip, reportedWriter, type StatusReport } from './status-report.js';

interface StatusArgs extends PipelineArgs {
  json: boolean;
  offline: boolean;
}

/** What status knows of the chain: the settled tip, or why not, the pipeline's start per axis, and each checkpoint's distance to the tip. */
interface ChainFacts {
  readonly tip: Landmark | undefined;
  /** The newest block the service indexes, read with the tip. */
  readonly head?: Landmark;
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
    const stored = await readStatusWarehouse(pipeline, streams);
    const chain = args.offline ? offlineFacts(pipeline) : await askChain(pipeline, streams, stored.checkpoints, logger);
    const report: StatusReport = {
      pipeline: pipeline.file,
      sink: pipeline.sink,
      tip: reportedTip(chain.tip, chain.unknownBecause),
      writing: stored.writing === undefined ? null : reportedWriter(stored.writing),
      streams: streams.map(({ stream, refresh }) =>
        byKind<StreamStatus | SnapshotStatus>(stream, {
          position: (positioned) =>
            streamStatus(positioned, stored.checkpoints.get(stream.name), {
              tip: chain.tip,
              head: chain.head,
              start: chain.starts.get(positioned.axis),
              distance: chain.distances.get(stream.name),
              rowTimes: stored.rowTimes.get(stream.name),
            }),
          snapshot: () => snapshotStatus(stream.name, stored.checkpoints.get(stream.name), refresh),
        }),
      ),
      tables: stored.tables,
      rejects: stored.rejects,
      runs: stored.runs === null ? null : stored.runs.map(reportedRun),
    };
    // Also redacts run errors that an earlier release stored unredacted.
    process.stdout.write(activeRedactor().redact(args.json ? `${JSON.stringify(report)}\n` : formatStatus(report)));
    const wrong = report.streams.filter((status) => status.axis !== 'snapshot' && status.error !== null).map((status) => status.stream);
    if (wrong.length > 0) throw new FatalError(`${wrong.join(', ')}: checkpoint past the newest block the service indexes (see above); sync refuses to continue from it`);
  },
};

/** The start positions that need no request: a start on the stream's own axis. */
function offlineFacts(pipeline: Pipeline): ChainFacts {
  const starts = new Map<PositionAxis, bigint>();
  if (pipeline.start.kind === 'lt') starts.set('lt', pipeline.start.lt);
  if (pipeline.start.kind === 'utime') starts.set('utime', BigInt(pipeline.start.utime));
  return { tip: undefined, unknownBecause: 'offline', starts, distances: new Map() };
}

/** The settled tip, the start's positions and the checkpoints' blocks, asked at the pipeline's rate within CHAIN_BUDGET_MS. */
async function askChain(pipeline: Pipeline, streams: readonly PlannedStream[], checkpoints: ReadonlyMap<string, string>, logger: Logger): Promise<ChainFacts> {
  const offline = offlineFacts(pipeline);
  const asked = await askTip(pipeline, logger);
  if (asked.tip === undefined) return { ...offline, unknownBecause: asked.unknownBecause };
  const { tip, landmarks, signal } = asked;
  const starts = new Map(offline.starts);
  if (pipeline.start.kind !== 'tip') {
    for (const axis of new Set(positionStreams(streams).map(({ stream }) => stream.axis))) {
      if (starts.has(axis)) continue;
      // Without it, status shows no hole before the first covered range; the rest stands.
      const position = await positionOf(pipeline.start, axis, { landmarks, tip, signal }).catch(() => undefined);
      if (position !== undefined) starts.set(axis, position);
    }
  }
  const distances = new Map<string, Distance>();
  for (const { stream } of positionStreams(streams)) {
    const stored = checkpoints.get(stream.name);
    if (stored === undefined) continue;
    // Without it, status shows the distance in positions only.
    const distance = await distanceToTip(landmarks, stream.axis, decodeCheckpoint(stored).position, tip, signal).catch(() => undefined);
    if (distance !== undefined) distances.set(stream.name, distance);
  }
  return { tip, head: asked.head, unknownBecause: undefined, starts, distances };
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

