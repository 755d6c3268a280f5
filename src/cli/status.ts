/**
 * `status`: what the warehouse holds, read without writing or locking anything (a sync may run, a
 * notebook may read; while a run writes a DuckDB file, the progress it publishes), and how far it is
 * from the settled tip. It needs no API key: the tip and what places the checkpoints are asked at
 * the pipeline's rate within CHAIN_BUDGET_MS, each request retried as a sync retries it
 * (`--offline`: nothing is asked), and when the tip cannot be had the report says "tip unknown" and
 * shows the rest.
 */
import type { CommandModule } from 'yargs';
import type { Logger } from 'pino';
import { loadPipeline, type Pipeline } from '../config/index.js';
import { createLogger } from '../core/logger.js';
import { FatalError } from '../core/errors.js';
import { positionOf, tipPosition, type PlannedStream } from '../run/plan.js';
import { isSnapshot, type PositionAxis } from '../core/stream.js';
import { V3Api } from '../api/v3.js';
import { Landmarks, type Landmark } from '../extract/landmarks.js';
import { apiClient, plannedStreams } from './session.js';
import { streamStatus, type Distance } from './stream-status.js';
import { decodeCheckpoint } from '../core/checkpoint.js';
import { snapshotStatus } from './snapshot-status.js';
import { overridesOf, pipelineOptions, type PipelineArgs } from './pipeline-options.js';
import { activeRedactor } from '../core/secret-scope.js';
import { readStatusWarehouse } from './status-warehouse.js';
import { formatStatus, reportedRun, reportedTip, reportedWriter, type StatusReport } from './status-report.js';

/**
 * How long status waits for the chain, every request and retry together. Without a key the service
 * allows 1 request/s: the tip and its blocks take 1 s, and a 429 (another client on the address used
 * the allowance) costs one more before the retry, so the tip comes within about 2 s and the rest of
 * the budget places the checkpoints and the start.
 */
const CHAIN_BUDGET_MS = 5000;
/** Retries of each request within the budget: a 429's retry waits one request spacing, another failure the backoff. */
const CHAIN_RETRIES = 3;
/** Masterchain blocks below the tip read with it (a cron warehouse is rarely further behind). */
const RECENT_BLOCKS = 100;

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
        isSnapshot(stream)
          ? snapshotStatus(stream.name, stored.checkpoints.get(stream.name), refresh)
          : streamStatus(stream, stored.checkpoints.get(stream.name), {
              tip: chain.tip,
              head: chain.head,
              start: chain.starts.get(stream.axis),
              distance: chain.distances.get(stream.name),
              rowTimes: stored.rowTimes.get(stream.name),
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
  // The pipeline's client: its limiter spaces the requests at the pipeline's rate (1/s without a key).
  const http = apiClient(pipeline, logger, { timeoutMs: CHAIN_BUDGET_MS, maxRetries: CHAIN_RETRIES });
  const landmarks = new Landmarks(new V3Api(http));
  const signal = AbortSignal.timeout(CHAIN_BUDGET_MS);
  let tip: Landmark;
  try {
    // The blocks below the tip come with it: a checkpoint among them costs no request to place.
    tip = await landmarks.settledTip(pipeline.lag.mcBlocks, { signal, reach: RECENT_BLOCKS });
  } catch (error) {
    return { ...offline, unknownBecause: signal.aborted ? `no answer within ${CHAIN_BUDGET_MS / 1000} s` : error instanceof Error ? error.message : String(error) };
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
  return { tip, head: landmarks.head, unknownBecause: undefined, starts, distances };
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

