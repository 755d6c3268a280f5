/**
 * What every pipeline command that writes opens: the pipeline file, one HTTP client (one limiter) for
 * its network, the landmarks, and the warehouse, locked for writing (`--follow` releases it between
 * runs, so that readers can open it then).
 */
import type { Logger } from 'pino';
import { loadPipeline, type Pipeline, type PipelineOverrides } from '../config/index.js';
import { ApiClient, type ApiClientOptions, type ApiStats } from '../api/http-client.js';
import { V3Api } from '../api/v3.js';
import { FatalError } from '../core/errors.js';
import { Landmarks, type Landmark } from '../extract/landmarks.js';
import { openSinkForWriting } from '../load/open-sink.js';
import type { Sink } from '../load/sink.js';
import { positionStreams, type PlannedStream } from './plan.js';
import { streamByName } from '../streams/index.js';
import { addressesTable } from '../transform/address-book.js';
import type { AnyTable } from '../core/table.js';

export interface Session {
  readonly pipeline: Pipeline;
  readonly http: ApiClient;
  readonly v3: V3Api;
  readonly landmarks: Landmarks;
  /** The warehouse while it is open; throws between `releaseWarehouse` and `openWarehouse`. */
  readonly sink: Sink;
  readonly streams: readonly PlannedStream[];
  readonly logger: Logger;
  /** The HTTP client's counts since the last run ended (the first run: since the session opened), so `--follow` counts per run. */
  runHttpStats(): ApiStats;
  /** Starts the next run's counts from here. */
  endRunHttpStats(): void;
  /**
   * The settled tip asked for as the session opened, before the warehouse (see `tipFirst`), handed to
   * the first caller and then undefined.
   */
  takeEarlyTip(): Promise<Landmark> | undefined;
  /** Opens the warehouse for writing again, waiting for its readers (see `openSinkForWriting`). */
  openWarehouse(signal?: AbortSignal): Promise<void>;
  /** Closes the warehouse (and its lock) until `openWarehouse`; nothing when it is closed. */
  releaseWarehouse(): Promise<void>;
  close(): Promise<void>;
}

export interface SessionOptions {
  /** Cancels waiting for the warehouse's readers, and the early tip request. @default undefined */
  readonly signal?: AbortSignal;
  /**
   * With the warehouse opened now: ask for the settled tip of the first run (`runTip`) before opening
   * it, so that loading DuckDB and opening the file run while the service answers (a cron sync's
   * start-up: docs/design.md §3). @default false
   */
  readonly tipFirst?: boolean;
  /** Open the warehouse now; false leaves it to `openWarehouse` (`--follow` opens it per run). @default true */
  readonly openWarehouse?: boolean;
  /** Open a Parquet warehouse even with damaged files (only `chain-etl repair` does). @default false */
  readonly repair?: boolean;
}

export async function openSession(file: string, overrides: PipelineOverrides, logger: Logger, options: SessionOptions = {}): Promise<Session> {
  return openPipelineSession(loadPipeline(file, overrides), logger, options);
}

/** A session of a pipeline already loaded (verify's scratch warehouse of block headers is one made, not read). */
export async function openPipelineSession(pipeline: Pipeline, logger: Logger, options: SessionOptions = {}): Promise<Session> {
  const http = apiClient(pipeline, logger);
  const v3 = new V3Api(http);
  const streams = plannedStreams(pipeline);
  const tables = warehouseTables(streams);
  let sink: Sink | undefined;
  let earlyTip: Promise<Landmark> | undefined;
  let statsAtRunStart = http.stats;
  const session: Session = {
    pipeline,
    http,
    v3,
    landmarks: new Landmarks(v3),
    get sink(): Sink {
      if (sink === undefined) throw new FatalError(`the warehouse ${pipeline.sink.path} is not open`);
      return sink;
    },
    streams,
    logger,
    runHttpStats: () => statsSince(statsAtRunStart, http.stats),
    endRunHttpStats: () => {
      statsAtRunStart = http.stats;
    },
    takeEarlyTip: () => {
      const tip = earlyTip;
      earlyTip = undefined;
      return tip;
    },
    openWarehouse: async (openSignal) => {
      await session.releaseWarehouse();
      sink = await openSinkForWriting(pipeline.sink, tables, { logger, repair: options.repair, signal: openSignal });
    },
    releaseWarehouse: async () => {
      const open = sink;
      sink = undefined;
      await open?.close();
    },
    close: () => session.releaseWarehouse(),
  };
  if (options.openWarehouse !== false) {
    if (options.tipFirst === true) {
      earlyTip = settledTip(session, options.signal);
      // Awaited by the first run; a warehouse that fails to open leaves it unread.
      earlyTip.catch(() => undefined);
    }
    await session.openWarehouse(options.signal);
  }
  return session;
}

function statsSince(before: ApiStats, now: ApiStats): ApiStats {
  return { requests: now.requests - before.requests, retries: now.retries - before.retries, rateLimited: now.rateLimited - before.rateLimited, bytes: now.bytes - before.bytes };
}

/** The run's frozen upper bound. The actions re-scan starts below the previous checkpoint: read that far below the tip at once. */
export function settledTip(session: Session, signal?: AbortSignal): Promise<Landmark> {
  const reach = positionStreams(session.streams).some(({ stream }) => stream.rescansOverlap) ? 2 * session.pipeline.actionsOverlap.mcBlocks : 0;
  return session.landmarks.settledTip(session.pipeline.lag.mcBlocks, { signal, reach });
}

/** The pipeline's HTTP client; `options` replace its timeout and retries (status asks once, briefly). */
export function apiClient(pipeline: Pipeline, logger: Logger, options: Pick<ApiClientOptions, 'timeoutMs' | 'maxRetries'> = {}): ApiClient {
  return new ApiClient({
    baseUrl: pipeline.baseUrl,
    apiKey: pipeline.apiKey,
    keySource: pipeline.apiKeyEnv === undefined ? undefined : `$${pipeline.apiKeyEnv}`,
    rps: pipeline.rate.rps,
    concurrency: pipeline.rate.concurrency,
    timeoutMs: options.timeoutMs ?? pipeline.http.timeoutSeconds * 1000,
    maxRetries: options.maxRetries ?? pipeline.http.retries,
    maxResponseMb: pipeline.http.maxResponseMb,
    logger: logger.child({ component: 'api' }),
  });
}

/** The pipeline's streams with their filters, in the order of STREAM_NAMES. */
export function plannedStreams(pipeline: Pipeline): PlannedStream[] {
  return pipeline.streamNames.map((name) => ({ stream: streamByName(name), filters: pipeline.streams[name] ?? {}, refresh: pipeline.refresh[name] }));
}

/** Every table the selected streams write, plus the addresses dimension; each once. */
export function warehouseTables(streams: readonly PlannedStream[]): AnyTable[] {
  const tables = new Map<string, AnyTable>([[addressesTable.name, addressesTable]]);
  for (const { stream } of streams) for (const table of stream.tables) tables.set(table.name, table);
  return [...tables.values()];
}
