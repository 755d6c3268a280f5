import { inspect, type InspectOptions } from 'node:util';
import type { Network } from '../api/network.js';
import type { StreamFilters, StreamName } from '../streams/index.js';
import type { SinkKind } from './schema.js';

/** Where the first run begins; `tip` is the settled tip at that run. */
export type StartPoint =
  | { readonly kind: 'tip' }
  | { readonly kind: 'lt'; readonly lt: bigint }
  | { readonly kind: 'utime'; readonly utime: number }
  | { readonly kind: 'mc_seqno'; readonly mcSeqno: number };

/** The selected streams and their filters (addresses raw upper case `wc:HEX`). */
export type PipelineStreams = { readonly [S in StreamName]?: StreamFilters[S] };

/** A pipeline with every default applied. */
export interface PipelineSettings {
  /** The file it was read from, for messages. */
  readonly file: string;
  readonly network: Network;
  /** Service root without `/api/v3`, no trailing slash. */
  readonly baseUrl: string;
  /** Name of the environment variable the key came from, for messages. */
  readonly apiKeyEnv: string | undefined;
  readonly rate: { readonly rps: number; readonly concurrency: number };
  readonly http: { readonly timeoutSeconds: number; readonly retries: number; readonly maxResponseMb: number };
  /** Worker threads that prepare pages (parse, validate, rows); 0: the main thread. */
  readonly workers: number;
  readonly start: StartPoint;
  readonly lag: { readonly mcBlocks: number };
  readonly actionsOverlap: { readonly mcBlocks: number };
  readonly streams: PipelineStreams;
  /** The keys of `streams`, in the order of STREAM_NAMES (not the file's). */
  readonly streamNames: readonly StreamName[];
  /** Snapshot streams' `refresh.every` in seconds, for those that set it: a sync skips them until it has passed. */
  readonly refresh: { readonly [S in StreamName]?: number };
  readonly sink: {
    readonly kind: SinkKind;
    readonly path: string;
    /** Parquet: minutes a superseded file stays on disk after it leaves the manifest. */
    readonly retainSupersededMinutes: number;
    /** Parquet: files of a table's settled day above which a sync or backfill merges them; 0 never. */
    readonly compactAfterFiles: number;
    /** DuckDB: seconds a run waits for readers of the file to close it. */
    readonly waitForReadersSeconds: number;
  };
}

const REDACTED = '[redacted]';

/**
 * A loaded pipeline, frozen. The API key is readable as `apiKey` but never shown: `JSON.stringify`
 * and `util.inspect` print `[redacted]` in its place.
 */
export class Pipeline implements PipelineSettings {
  readonly file: string;
  readonly network: Network;
  readonly baseUrl: string;
  readonly apiKeyEnv: string | undefined;
  readonly rate: PipelineSettings['rate'];
  readonly http: PipelineSettings['http'];
  readonly workers: number;
  readonly start: StartPoint;
  readonly lag: PipelineSettings['lag'];
  readonly actionsOverlap: PipelineSettings['actionsOverlap'];
  readonly streams: PipelineStreams;
  readonly streamNames: readonly StreamName[];
  readonly refresh: PipelineSettings['refresh'];
  readonly sink: PipelineSettings['sink'];
  readonly #apiKey: string | undefined;

  constructor(settings: PipelineSettings, apiKey: string | undefined) {
    const s = deepFreeze(structuredClone(settings));
    this.file = s.file;
    this.network = s.network;
    this.baseUrl = s.baseUrl;
    this.apiKeyEnv = s.apiKeyEnv;
    this.rate = s.rate;
    this.http = s.http;
    this.workers = s.workers;
    this.start = s.start;
    this.lag = s.lag;
    this.actionsOverlap = s.actionsOverlap;
    this.streams = s.streams;
    this.streamNames = s.streamNames;
    this.refresh = s.refresh;
    this.sink = s.sink;
    this.#apiKey = apiKey;
    Object.freeze(this);
  }

  /** The key from `$<apiKeyEnv>`, for the HTTP client only. */
  get apiKey(): string | undefined {
    return this.#apiKey;
  }

  /** Plain data with the key redacted and `start.lt` as a decimal string. */
  toJSON(): Record<string, unknown> {
    const start = this.start.kind === 'lt' ? { kind: 'lt', lt: this.start.lt.toString() } : this.start;
    return {
      file: this.file,
      network: this.network,
      baseUrl: this.baseUrl,
      apiKeyEnv: this.apiKeyEnv,
      apiKey: this.#apiKey === undefined ? undefined : REDACTED,
      rate: this.rate,
      http: this.http,
      workers: this.workers,
      start,
      lag: this.lag,
      actionsOverlap: this.actionsOverlap,
      streams: this.streams,
      ...(Object.keys(this.refresh).length === 0 ? {} : { refresh: this.refresh }),
      sink: this.sink,
    };
  }

  [inspect.custom](depth: number, options: InspectOptions): string {
    return `Pipeline ${inspect(this.toJSON(), { ...options, depth: Math.max(depth, 4) })}`;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
