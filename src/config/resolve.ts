import { DEFAULT_BASE_URLS } from '../api/network.js';
import { ConfigError } from '../core/errors.js';
import { presentFilters } from '../core/stream.js';
import { checkBaseUrl, keyInBaseUrl } from './base-url.js';
import { checkLocalSinkPath } from './sink-path.js';
import { defaultConcurrency, defaultRps, defaultWorkers } from './defaults.js';
import { describeProblem } from '../options/expect.js';
import { Pipeline, type PipelineStreams, type StartPoint } from './pipeline.js';
import { SINK_KINDS, type PipelineFile, type SinkKind } from './schema.js';
import { oneOf } from '../options/show.js';
import { STREAM_NAMES, type StreamName } from '../streams/index.js';
import { REFRESH_KEY } from './stream-filters.js';
import type { YamlSource } from './yaml-source.js';

/** Command-line values that replace the file's (named after the flags that carry them). */
export interface PipelineOverrides {
  /** Replaces base_url (`--base-url`). @default the file's base_url */
  readonly baseUrl?: string;
  /** Replaces sink.kind (`--sink`); the path follows the kind unless `out` is given. @default the file's sink.kind */
  readonly sink?: SinkKind;
  /** Replaces sink.path (`--out`). @default the file's sink.path */
  readonly out?: string;
}

/** How a command uses the pipeline. */
export interface LoadOptions {
  /**
   * An unset `api_key_env` variable is an error; false reads the pipeline without the key (status,
   * which must work offline and without secrets). @default true
   */
  readonly requireApiKey?: boolean;
}

/** Applies the environment (the API key, and the rate defaults that depend on it) and the overrides. */
export function resolvePipeline(
  file: PipelineFile,
  source: YamlSource,
  overrides: PipelineOverrides,
  env: NodeJS.ProcessEnv,
  options: LoadOptions = {},
): Pipeline {
  const apiKey = options.requireApiKey === false ? optionalApiKey(file.api_key_env, env) : readApiKey(file.api_key_env, source, env);
  const baseUrl = chosenBaseUrl(file, source, overrides, apiKey);
  const rps = file.rate?.rps ?? defaultRps(apiKey !== undefined);
  const streamNames = STREAM_NAMES.filter((name) => file.streams[name] !== undefined);
  return new Pipeline(
    {
      file: source.file,
      network: file.network,
      baseUrl,
      apiKeyEnv: file.api_key_env,
      rate: { rps, concurrency: file.rate?.concurrency ?? defaultConcurrency(rps) },
      http: { timeoutSeconds: file.http.timeout_seconds, retries: file.http.retries, maxResponseMb: file.http.max_response_mb },
      workers: file.workers ?? defaultWorkers(),
      start: startPoint(file.start),
      lag: { mcBlocks: file.lag.mc_blocks },
      actionsOverlap: { mcBlocks: file.actions_overlap.mc_blocks },
      streams: streams(file.streams, streamNames),
      streamNames,
      refresh: refreshSeconds(file.streams, streamNames),
      sink: sink(file.sink, source, overrides),
    },
    apiKey,
  );
}

function readApiKey(name: string | undefined, source: YamlSource, env: NodeJS.ProcessEnv): string | undefined {
  if (name === undefined) return undefined;
  const key = apiKeyIn(env, name);
  if (key === undefined) {
    throw new ConfigError(
      `${source.where(['api_key_env'])}: api_key_env names ${name}, but that environment variable is not set: export it or remove api_key_env`,
    );
  }
  return key;
}

/** `--base-url`, else the file's base_url, else the network's default; refused when it shows the key. */
function chosenBaseUrl(file: PipelineFile, source: YamlSource, overrides: PipelineOverrides, apiKey: string | undefined): string {
  const override = overrideBaseUrl(overrides.baseUrl);
  const root = override ?? file.base_url;
  if (root === undefined) return DEFAULT_BASE_URLS[file.network];
  const problem = keyInBaseUrl(root, apiKey, `$${file.api_key_env ?? ''}`);
  if (problem === undefined) return root;
  const where = override === undefined ? `${source.where(['base_url'])}: base_url` : '--base-url';
  throw new ConfigError(`${where}: ${describeProblem(problem, root)}`);
}

function optionalApiKey(name: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  return name === undefined ? undefined : apiKeyIn(env, name);
}

/** The key in variable `name`, trimmed; an empty one is no key. */
export function apiKeyIn(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const key = env[name]?.trim();
  return key === '' ? undefined : key;
}

function overrideBaseUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const checked = checkBaseUrl(value.trim());
  if ('root' in checked) return checked.root;
  throw new ConfigError(`--base-url: ${describeProblem(checked.problem, value)}`);
}

function startPoint(start: PipelineFile['start']): StartPoint {
  if (start?.lt !== undefined) return { kind: 'lt', lt: start.lt };
  if (start?.utime !== undefined) return { kind: 'utime', utime: start.utime };
  if (start?.mc_seqno !== undefined) return { kind: 'mc_seqno', mcSeqno: start.mc_seqno };
  return { kind: 'tip' };
}

/** Each selected stream's filters, under the pipeline file's names. */
function streams(file: PipelineFile['streams'], names: readonly StreamName[]): PipelineStreams {
  return Object.fromEntries(names.map((name) => [name, presentFilters(withoutRefresh(file[name] ?? {}))])) as PipelineStreams;
}

/** Each snapshot stream's `refresh.every` that the file sets, in seconds. */
function refreshSeconds(file: PipelineFile['streams'], names: readonly StreamName[]): Pipeline['refresh'] {
  const every = (name: StreamName): number | undefined => (file[name] as { [REFRESH_KEY]?: { every?: number } } | null | undefined)?.[REFRESH_KEY]?.every;
  return Object.fromEntries(names.flatMap((name) => (every(name) === undefined ? [] : [[name, every(name)!]])));
}

function withoutRefresh(entry: object): object {
  const { [REFRESH_KEY]: _refresh, ...filters } = entry as Record<string, unknown>;
  return filters;
}

function sink(file: PipelineFile['sink'], source: YamlSource, overrides: PipelineOverrides): Pipeline['sink'] {
  const kind = overrides.sink ?? file.kind;
  if (!SINK_KINDS.includes(kind)) {
    throw new ConfigError(`--sink: ${describeProblem({ expected: oneOf(SINK_KINDS) }, kind)}`);
  }
  const tuning = {
    retainSupersededMinutes: file.retain_superseded_minutes,
    compactAfterFiles: file.compact_after_files,
    waitForReadersSeconds: file.wait_for_readers_seconds,
  };
  if (overrides.out !== undefined) {
    if (overrides.out.trim() === '') throw new ConfigError(`--out: ${describeProblem({ expected: 'a path' }, overrides.out)}`);
    checkLocalSinkPath(overrides.out, '--out');
    return { kind, path: overrides.out, ...tuning };
  }
  checkLocalSinkPath(file.path, `${source.where(['sink', 'path'])}: sink.path`);
  return { kind, path: kind === file.kind ? file.path : pathFor(kind, file.path), ...tuning };
}

/** The file's path for the other kind: `data/x.duckdb` ⇄ `data/x`. */
function pathFor(kind: SinkKind, path: string): string {
  const base = path.replace(/\/+$/, '').replace(/\.(duckdb|db)$/, '');
  return kind === 'duckdb' ? `${base}.duckdb` : base;
}
