/**
 * What every pipeline command opens: the pipeline file, one HTTP client (one limiter) for its
 * network, the landmarks, and the warehouse, locked for writing.
 */
import type { Logger } from 'pino';
import { loadPipeline, type Pipeline, type PipelineOverrides } from '../config/index.js';
import { ApiClient } from '../api/http-client.js';
import { V3Api } from '../api/v3.js';
import { Landmarks } from '../extract/landmarks.js';
import { createSink } from '../load/open-sink.js';
import type { Sink } from '../load/sink.js';
import type { PlannedStream } from '../core/plan.js';
import { streamByName } from '../streams/index.js';
import { addressesTable } from '../streams/addresses.js';
import type { AnyTable } from '../core/table.js';

export interface Session {
  readonly pipeline: Pipeline;
  readonly http: ApiClient;
  readonly v3: V3Api;
  readonly landmarks: Landmarks;
  readonly sink: Sink;
  readonly streams: readonly PlannedStream[];
  readonly logger: Logger;
  close(): Promise<void>;
}

/** `repair`: open a Parquet warehouse even with damaged files (only `chain-etl repair` does). */
export async function openSession(file: string, overrides: PipelineOverrides, logger: Logger, options: { readonly repair?: boolean } = {}): Promise<Session> {
  const pipeline = loadPipeline(file, overrides);
  const http = new ApiClient({
    baseUrl: pipeline.baseUrl,
    apiKey: pipeline.apiKey,
    keySource: pipeline.apiKeyEnv === undefined ? undefined : `$${pipeline.apiKeyEnv}`,
    rps: pipeline.rate.rps,
    concurrency: pipeline.rate.concurrency,
    timeoutMs: pipeline.http.timeoutSeconds * 1000,
    maxRetries: pipeline.http.retries,
    maxResponseMb: pipeline.http.maxResponseMb,
    logger: logger.child({ component: 'api' }),
  });
  const v3 = new V3Api(http);
  const streams: PlannedStream[] = pipeline.streamNames.map((name) => ({ stream: streamByName(name), filters: pipeline.streams[name] ?? {} }));
  const tables = warehouseTables(streams);
  const sink = createSink(pipeline.sink, logger.child({ component: 'sink' }), options);
  await sink.open(tables);
  return {
    pipeline,
    http,
    v3,
    landmarks: new Landmarks(http, v3),
    sink,
    streams,
    logger,
    close: () => sink.close(),
  };
}

/** Every table the selected streams write, plus the addresses dimension; each once. */
export function warehouseTables(streams: readonly PlannedStream[]): AnyTable[] {
  const tables = new Map<string, AnyTable>([[addressesTable.name, addressesTable]]);
  for (const { stream } of streams) for (const table of stream.tables) tables.set(table.name, table);
  return [...tables.values()];
}
