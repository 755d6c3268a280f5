import { z } from 'zod';
import { NETWORKS } from '../api/network.js';
import { checkBaseUrl } from './base-url.js';
import {
  DEFAULT_ACTIONS_OVERLAP_MC_BLOCKS,
  DEFAULT_COMPACT_AFTER_FILES,
  DEFAULT_LABELS,
  DEFAULT_LAG_MC_BLOCKS,
  DEFAULT_MAX_RESPONSE_MB,
  DEFAULT_RETAIN_SUPERSEDED_MINUTES,
  DEFAULT_RETRIES,
  DEFAULT_TIMEOUT_SECONDS,
  DEFAULT_WAIT_FOR_READERS_SECONDS,
} from './defaults.js';
import { describeProblem, problem } from '../options/expect.js';
import { choice, closedMap, logicalTime, positiveNumber, text, utime, wholeNumber } from '../options/fields.js';
import { oneOf } from '../options/show.js';
import { streamsField } from './stream-filters.js';
import '../options/meta.js';

export const SINK_KINDS = ['duckdb', 'parquet'] as const;

export type SinkKind = (typeof SINK_KINDS)[number];

export const START_KINDS = ['lt', 'utime', 'mc_seqno'] as const;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const LOOKS_LIKE_KEY = /^[0-9a-fA-F]{32,}$/;

function envVarName() {
  const expectation = {
    expected: 'the name of an environment variable such as TONCENTER_API_KEY',
    fix: 'put the key itself in that variable, never in the file',
    secret: true,
  };
  return z
    .string({ error: problem(expectation) })
    .regex(ENV_NAME, { error: problem(expectation) })
    .refine((name) => !LOOKS_LIKE_KEY.test(name), { error: problem(expectation) });
}

function baseUrl() {
  const expected = 'an http(s) URL of the service root such as https://toncenter.com';
  return z.string({ error: problem({ expected }) }).transform((value, ctx) => {
    const checked = checkBaseUrl(value.trim());
    if ('root' in checked) return checked.root;
    ctx.addIssue({ code: 'custom', input: value, message: describeProblem(checked.problem, value) });
    return z.NEVER;
  });
}

function start() {
  return closedMap(
    {
      lt: logicalTime().optional().meta({ description: 'Logical time to begin at (inclusive).', typeLabel: 'integer ≥ 0' }),
      utime: utime().optional().meta({
        description: 'Chain time to begin at: unix seconds or an ISO 8601 date/time (UTC unless it has an offset).',
        typeLabel: 'integer ≥ 0 or ISO date/time',
      }),
      mc_seqno: wholeNumber(0, 'a masterchain block number, an integer ≥ 0')
        .optional()
        .meta({ description: 'Masterchain block to begin at.', typeLabel: 'integer ≥ 0' }),
    },
    { noun: 'key', where: 'in start', listName: 'start keys' },
  ).superRefine((value, ctx) => {
    const given = START_KINDS.filter((kind) => value[kind] !== undefined);
    if (given.length === 1) return;
    const got = given.length === 0 ? 'none: add one, or remove start to begin at the settled tip' : `${oneOf(given).replace(' or ', ' and ')}: keep one`;
    ctx.addIssue({ code: 'custom', message: `expected exactly one of ${oneOf(START_KINDS)}, got ${got}` });
  });
}

function mcBlocks(description: string, fallback: number) {
  return wholeNumber(0, 'a number of masterchain blocks, an integer ≥ 0')
    .default(fallback)
    .meta({ description, typeLabel: 'integer ≥ 0' });
}

/**
 * The pipeline file: the only list of its options. Validation messages, `describeOptions` (CLI help)
 * and the options table in the docs all come from here.
 */
export const pipelineFileSchema = closedMap(
  {
    network: choice(NETWORKS).meta({
      description: 'Network the data comes from; picks the default base_url. An API key works on the network it was issued for only.',
    }),
    base_url: baseUrl().optional().meta({
      description: 'Service root of the Chain Data API, without /api/v3 (e.g. a local devnet or your own indexer).',
      typeLabel: 'http(s) URL',
      defaultLabel: DEFAULT_LABELS.baseUrl,
    }),
    api_key_env: envVarName().optional().meta({
      description: 'Name of the environment variable holding the API key (never the key itself). The variable must be set when the file names it.',
      typeLabel: 'variable name',
      defaultLabel: 'none (no key)',
    }),
    rate: closedMap(
      {
        rps: positiveNumber('requests per second, a number > 0').optional().meta({
          description: 'Requests started per second, for all streams together. Keep within your plan.',
          typeLabel: 'number > 0',
          defaultLabel: DEFAULT_LABELS.rps,
        }),
        concurrency: wholeNumber(1, 'requests in flight, an integer ≥ 1').optional().meta({
          description: 'Requests in flight at once.',
          typeLabel: 'integer ≥ 1',
          defaultLabel: DEFAULT_LABELS.concurrency,
        }),
      },
      { noun: 'key', where: 'in rate', listName: 'rate keys' },
    )
      .optional()
      .meta({ description: 'Client-side request limit of this pipeline.' }),
    http: closedMap(
      {
        timeout_seconds: positiveNumber('seconds, a number > 0')
          .default(DEFAULT_TIMEOUT_SECONDS)
          .meta({ description: 'Seconds one request may take, headers and body, before it is abandoned and retried.', typeLabel: 'number > 0' }),
        retries: wholeNumber(0, 'a number of retries, an integer ≥ 0')
          .default(DEFAULT_RETRIES)
          .meta({ description: 'Retries of a request after its first attempt, for network errors, timeouts, 429 and 5xx only, with jittered backoff.', typeLabel: 'integer ≥ 0' }),
        max_response_mb: positiveNumber('megabytes, a number > 0')
          .default(DEFAULT_MAX_RESPONSE_MB)
          .meta({
            description: 'Megabytes (2^20 bytes) one response body may take after decompression; a larger body fails the run (not retried), so a broken server cannot exhaust memory.',
            typeLabel: 'number > 0',
          }),
      },
      { noun: 'key', where: 'in http', listName: 'http keys' },
    )
      .prefault({})
      .meta({ description: 'How long to wait for a request, how often to retry it, and how large a response may be.' }),
    workers: wholeNumber(0, 'worker threads, an integer ≥ 0').optional().meta({
      description:
        'Worker threads that parse and validate pages and build their rows, beside the main thread, which fetches and writes (one writer). 0 does it all in the main thread. A run of one page per stream (a cron sync near the tip) starts none.',
      typeLabel: 'integer ≥ 0',
      defaultLabel: DEFAULT_LABELS.workers,
    }),
    start: start().optional().meta({
      description:
        'Where the warehouse begins: exactly one of lt, utime, mc_seqno; every sync fetches what is missing from there to the settled tip. Without it the first run starts at the settled tip and later runs take only new data (cron).',
      defaultLabel: DEFAULT_LABELS.start,
    }),
    lag: closedMap(
      {
        mc_blocks: mcBlocks('Masterchain blocks kept back from the indexer’s high-water mark; 0 takes everything indexed.', DEFAULT_LAG_MC_BLOCKS),
      },
      { noun: 'key', where: 'in lag', listName: 'lag keys' },
    )
      .prefault({})
      .meta({ description: 'Settle lag: how far behind the indexed tip every stream stops.' }),
    actions_overlap: closedMap(
      {
        mc_blocks: mcBlocks(
          'Masterchain blocks the actions and traces streams re-read on every run (about ten minutes of chain time); what they find replaces earlier rows by trace_id.',
          DEFAULT_ACTIONS_OVERLAP_MC_BLOCKS,
        ),
      },
      { noun: 'key', where: 'in actions_overlap', listName: 'actions_overlap keys' },
    )
      .prefault({})
      .meta({ description: 'Trailing range re-read for actions and traces, because traces complete and get classified late.' }),
    streams: streamsField().meta({
      description: 'Streams to export: a list of names, or a map from name to its filters (empty means none).',
      typeLabel: 'list or map',
    }),
    sink: closedMap(
      {
        kind: choice(SINK_KINDS).meta({ description: 'duckdb: one database file; parquet: a folder of Hive-partitioned files.' }),
        path: text('the path of the DuckDB file (kind duckdb) or output folder (kind parquet), e.g. data/warehouse.duckdb').meta({
          description: 'DuckDB file or Parquet folder, relative to the working directory.',
          typeLabel: 'path',
        }),
        retain_superseded_minutes: wholeNumber(0, 'minutes, an integer ≥ 0')
          .default(DEFAULT_RETAIN_SUPERSEDED_MINUTES)
          .meta({
            description:
              'Parquet: minutes a file replaced by a rewrite stays on disk after it leaves the manifest, so a reader still using an older file list can finish; a later commit deletes it.',
            typeLabel: 'integer ≥ 0',
          }),
        compact_after_files: wholeNumber(0, 'a number of files, an integer ≥ 0')
          .default(DEFAULT_COMPACT_AFTER_FILES)
          .meta({
            description:
              'Parquet: when a settled day (any but the newest) of a table holds more files than this, a sync or backfill merges them into one at its end, as chain-etl compact does; 0 leaves it to chain-etl compact.',
            typeLabel: 'integer ≥ 0',
          }),
        wait_for_readers_seconds: wholeNumber(0, 'seconds, an integer ≥ 0')
          .default(DEFAULT_WAIT_FOR_READERS_SECONDS)
          .meta({
            description:
              'DuckDB: seconds a sync or backfill waits for other processes reading the file (a notebook, a DuckDB shell) to close it, retrying, before it gives up (exit 3). 0 gives up at once.',
            typeLabel: 'integer ≥ 0',
          }),
      },
      { noun: 'key', where: 'in sink', listName: 'sink keys' },
    ).meta({ description: 'Where the rows go.' }),
  },
  { noun: 'key', listName: 'keys', expected: 'a map of pipeline options (network, streams, sink, …)' },
);

/** A pipeline file as read: static defaults applied, addresses normalised, lt as bigint. */
export type PipelineFile = z.output<typeof pipelineFileSchema>;
