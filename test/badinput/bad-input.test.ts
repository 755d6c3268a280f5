/**
 * Bad input, table-driven. Every case runs the CLI (in process through `runCli`; the binary as a child
 * process for the retried cases and one case per kind of refusal) and asserts:
 *   - the exit code (2 for a bad pipeline file, flag, argument or warehouse version; 3 when another
 *     process holds the warehouse; 1 for the rest);
 *   - that stdout is empty and stderr is ONE line, `chain-etl: <problem>: <fix>`, exactly as given;
 *   - that the warehouse did not change: every table's sorted rows and the DDL (DuckDB; compared
 *     when the file's bytes changed, identical bytes being identical contents), or every file's bytes
 *     (Parquet, whose `_manifest.json` is the truth), are the same after the run; that no file
 *     appeared or vanished in the case's directory; where no warehouse existed, that none was created.
 *
 * A run that opened the sink and then failed on the API (401, 403, unreachable, not the API) records
 * itself in the run log `_etl_runs` as `failed` with the printed message, as every run does; those
 * cases assert exactly that one appended row and an unchanged rest.
 *
 * Retries: an unreachable host and a non-JSON 200 are retried as the pipeline's `http.retries` says;
 * their pipelines set 2 (3 attempts, at most 0.75 s of backoff) instead of the default 8 (about 31 s
 * of backoff on average, 62 s at most). test/secrets/secrets.test.ts runs the default count.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { childEnv, runCli, type ChildEnv } from '../support/cli.js';
import type { CliResult } from '../support/cli-result.js';
import { holdDuckDBFile } from '../support/lock-holder.js';
import { runInProcess } from '../support/cli-in-process.js';
import { STREAM_CHOICE, STREAM_LIST } from '../support/stream-names.js';
import { duckdbState, listFiles, parquetState, sha256, type DuckDBState } from '../support/warehouse-probe.js';

const KEY_ENV = 'CHAIN_ETL_BADINPUT_KEY';
const MAINNET_KEY = 'SgD7Usgurtx4cDGyaDR8LTruvEb5EuTX';
const TESTNET_KEY = 'QvvwmGCBh7rcFG8ChM7maRZ2G4sMhUKj';
const UNKNOWN_KEY = '7myzsNRGvu4GcuEK2VhGsa8FHnTCcqsL';
const FIRST_MC = 50_000_000;
const DUCKDB = 'w.duckdb';
const PARQUET = 'pq';
const LOCK_FILE = '_writer.lock.duckdb';

interface World {
  readonly root: string;
  readonly mainnet: Devnet;
  readonly testnet: Devnet;
  /** Answers every path under `/wrong` with a 404 HTML page and under `/text` with a 200 `text/plain` body. */
  readonly notTheApi: string;
  /** A loopback port nothing listens on. */
  readonly closed: string;
  readonly seedDuckDB: string;
  readonly seedParquet: string;
}

/** Lines of a pipeline file in this order (so that messages' line numbers are fixed); null drops one. */
interface Parts {
  network?: string | null;
  base_url?: string | null;
  api_key_env?: string | null;
  rate?: string | null;
  start?: string | null;
  lag?: string | null;
  streams?: string | null;
  sink?: string | null;
  /** Appended last (line 9). */
  extra?: string;
}

function pipelineYaml(world: World, parts: Parts = {}): string {
  const lines: Required<Omit<Parts, 'extra'>> = {
    network: 'mainnet',
    base_url: world.mainnet.url,
    api_key_env: KEY_ENV,
    rate: '{ rps: 100, concurrency: 4 }',
    start: `{ mc_seqno: ${FIRST_MC + 80} }`,
    lag: '{ mc_blocks: 0 }',
    streams: '[transactions, jetton_transfers]',
    sink: `{ kind: duckdb, path: ${DUCKDB} }`,
    ...parts,
  };
  const text = Object.entries(lines)
    .filter(([key, value]) => key !== 'extra' && value !== null)
    .map(([key, value]) => `${key}: ${value}`);
  if (parts.extra !== undefined) text.push(parts.extra);
  return `${text.join('\n')}\n`;
}

/** What the case directory holds before the run: no warehouse, a copy of a synced one, or garbage bytes. */
type Warehouse = 'none' | 'duckdb' | 'parquet' | 'garbage';

interface Case {
  readonly name: string;
  /** Exact pipeline text; else the default pipeline with `parts` applied. */
  readonly yaml?: (world: World) => string;
  readonly parts?: (world: World) => Parts;
  /** @default ['sync', 'p.yaml'] */
  readonly args?: (world: World) => string[];
  /** @default the pipeline's key variable set to the mainnet key */
  readonly env?: (world: World) => ChildEnv;
  readonly warehouse: Warehouse;
  /** Changes the warehouse before the "before" snapshot (e.g. tampering). */
  readonly prepare?: (dir: string) => Promise<void>;
  /** Another process holds the warehouse's lock file during the run. */
  readonly locked?: boolean;
  readonly exit: number;
  /** The one stderr line after `chain-etl: `; a RegExp must match all of it. */
  readonly message: (ctx: { world: World; dir: string; holderPid?: number }) => string | RegExp;
  /** The run opened the sink, so `_etl_runs` gains one `failed` row carrying the message. */
  readonly recordsFailedRun?: boolean;
  /** Text the message must not contain (a secret pasted in the wrong place). */
  readonly mustNotShow?: string;
  /** Runs the binary as a child process (its own exit code and whole stderr are under test); else `runCli` in process. */
  readonly binary?: boolean;
}

const keyEnv = (key: string | undefined): ChildEnv => ({ [KEY_ENV]: key });
const esc = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const STREAMS_LIST = `(streams: ${STREAM_LIST})`;
const KEYS_LIST = '(keys: network, base_url, api_key_env, rate, http, workers, start, lag, actions_overlap, streams, sink)';
const CHAIN_POINT_FIX = 'use an ISO date (2024-01-01 or 2024-01-01T12:00:00Z), lt:<logical time> or mc:<masterchain seqno>';
const NOT_THE_API = 'probably does not point at the Chain Data API (expected a service root such as https://toncenter.com)';
const MANIFEST_FIX = 'chain-etl changes nothing in the folder: restore _manifest.json from a backup, or point sink.path (or --out) at a new folder and load the data again';
const ANY_STREAM = `expected at least one of ${STREAM_CHOICE}, got none`;
const DUCKDB_FIX = 'point sink.path (or --out) at a DuckDB database chain-etl wrote, or at a new file in an existing, writable folder';
const LOCKED_FIX = 'only one writer may use it at a time. Wait for that run to finish or stop it.';
const RETRIES = 'http: { retries: 2 }';

/** Makes the warehouse's recorded schema version one of a later release. */
async function markDuckDBNewer(dir: string): Promise<void> {
  const instance = await DuckDBInstance.create(join(dir, DUCKDB));
  const connection = await instance.connect();
  await connection.run("UPDATE _etl_meta SET value = '99' WHERE key = 'schema_version'");
  connection.closeSync();
  instance.closeSync();
}

const cases: readonly Case[] = [
  // Retried: `http.retries` 2, so that the backoff is short.
  {
    name: 'unreachable host (base_url on a closed port), after retries',
    parts: () => ({ extra: RETRIES }),
    args: (w) => ['sync', 'p.yaml', '--base-url', w.closed],
    warehouse: 'duckdb',
    binary: true,
    exit: 1,
    message: ({ world }) => {
      const hostPort = esc(new URL(world.closed).host);
      return new RegExp(
        `^GET /api/v3/masterchainInfo failed after 3 attempts: request failed: connect ECONNREFUSED ${hostPort}: ` +
          `cannot reach ${esc(world.closed)}; check the base URL and that the service is up$`,
      );
    },
    recordsFailedRun: true,
  },
  {
    name: 'non-JSON 200 responses (text/plain), after retries',
    parts: (w) => ({ base_url: `${w.notTheApi}/text`, extra: RETRIES }),
    warehouse: 'duckdb',
    binary: true,
    exit: 1,
    message: ({ world }) =>
      new RegExp(
        `^GET /text/api/v3/masterchainInfo answered 3 times with HTTP 200 with invalid JSON \\(SyntaxError: [^)]*\\), 2 bytes, text/plain: ` +
          `the base URL ${esc(world.notTheApi)}/text ${esc(NOT_THE_API)}$`,
      ),
    recordsFailedRun: true,
  },

  // The pipeline file
  {
    name: 'invalid YAML',
    parts: () => ({ network: '[mainnet' }),
    warehouse: 'none',
    binary: true,
    exit: 2,
    message: () => 'p.yaml:2:1: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]',
  },
  {
    name: 'duplicate key in YAML',
    parts: () => ({ extra: 'network: testnet' }),
    warehouse: 'none',
    exit: 2,
    message: () => 'p.yaml:9:1: invalid YAML: Map keys must be unique',
  },
  {
    name: 'unknown top-level key (nearest suggested)',
    yaml: (w) => pipelineYaml(w).replace('network:', 'netwrok:'),
    warehouse: 'none',
    exit: 2,
    message: () => `p.yaml:1:1: unknown key "netwrok": did you mean "network"? ${KEYS_LIST}`,
  },
  {
    name: 'unknown stream (nearest suggested)',
    parts: () => ({ streams: '[transactons]' }),
    warehouse: 'none',
    exit: 2,
    message: () => `p.yaml:7:11: unknown stream "transactons": did you mean "transactions"? ${STREAMS_LIST}`,
  },
  {
    name: 'invalid address in a filter',
    parts: () => ({ streams: '{ transactions: { accounts: [EQnotanaddress] } }' }),
    warehouse: 'none',
    exit: 2,
    message: () =>
      'p.yaml:7:39: streams.transactions.accounts[0]: expected an address (raw wc:HEX with 64 hex digits, or 48-character user-friendly), ' +
      'got "EQnotanaddress": use the raw form wc:HEX or a 48-character user-friendly address',
  },
  {
    name: 'empty streams list',
    parts: () => ({ streams: '[]' }),
    warehouse: 'none',
    exit: 2,
    message: () => `p.yaml:7:10: streams: ${ANY_STREAM}`,
  },
  {
    name: 'streams key with no value',
    parts: () => ({ streams: '' }),
    warehouse: 'none',
    exit: 2,
    message: () =>
      'p.yaml:7:1: streams: expected a list of stream names or a map from name to filters ' +
      `(${STREAM_LIST}), got an empty value`,
  },
  {
    name: 'a filter list that is empty',
    parts: () => ({ streams: '{ transactions: { accounts: [] } }' }),
    warehouse: 'none',
    exit: 2,
    message: () => 'p.yaml:7:38: streams.transactions.accounts: expected a list of addresses, got an empty list: remove the key to take everything',
  },
  {
    name: 'rate.rps: 0',
    parts: () => ({ rate: '{ rps: 0, concurrency: 4 }' }),
    warehouse: 'none',
    exit: 2,
    message: () => 'p.yaml:4:14: rate.rps: expected requests per second, a number > 0, got 0',
  },
  {
    name: 'rate.concurrency: 0',
    parts: () => ({ rate: '{ rps: 10, concurrency: 0 }' }),
    warehouse: 'none',
    exit: 2,
    message: () => 'p.yaml:4:31: rate.concurrency: expected requests in flight, an integer ≥ 1, got 0',
  },
  {
    name: 'two start kinds',
    parts: () => ({ start: `{ mc_seqno: ${FIRST_MC}, lt: 5 }` }),
    warehouse: 'none',
    exit: 2,
    message: () => 'p.yaml:5:8: start: expected exactly one of lt, utime or mc_seqno, got lt and mc_seqno: keep one',
  },
  {
    name: 'negative lag',
    parts: () => ({ lag: '{ mc_blocks: -1 }' }),
    warehouse: 'none',
    exit: 2,
    message: () => 'p.yaml:6:19: lag.mc_blocks: expected a number of masterchain blocks, an integer ≥ 0, got -1',
  },
  {
    name: 'bad sink kind',
    parts: () => ({ sink: '{ kind: sqlite, path: w.db }' }),
    warehouse: 'none',
    exit: 2,
    message: () => 'p.yaml:8:15: sink.kind: expected "duckdb" or "parquet", got "sqlite"',
  },
  {
    name: 'unknown network',
    parts: () => ({ network: 'devnet' }),
    warehouse: 'none',
    exit: 2,
    message: () => 'p.yaml:1:10: network: expected "mainnet" or "testnet", got "devnet"',
  },
  {
    name: 'base_url ending in /api/v3',
    parts: (w) => ({ base_url: `${w.mainnet.url}/api/v3` }),
    warehouse: 'none',
    exit: 2,
    message: ({ world }) =>
      `p.yaml:2:11: base_url: expected an http(s) URL of the service root such as https://toncenter.com, got "${world.mainnet.url}/api/v3": ` +
      'drop the trailing /api/v3 (the client adds it)',
  },
  {
    name: 'the key itself pasted into api_key_env (not shown)',
    parts: () => ({ api_key_env: '0123456789abcdef0123456789abcdef' }),
    warehouse: 'none',
    exit: 2,
    message: () =>
      'p.yaml:3:14: api_key_env: expected the name of an environment variable such as TONCENTER_API_KEY, ' +
      'got a value not shown here (it may be a secret): put the key itself in that variable, never in the file',
    mustNotShow: '0123456789abcdef0123456789abcdef',
  },
  {
    name: 'missing API key variable',
    env: () => keyEnv(undefined),
    warehouse: 'none',
    exit: 2,
    message: () => `p.yaml:3:14: api_key_env names ${KEY_ENV}, but that environment variable is not set: export it or remove api_key_env`,
  },
  {
    name: 'missing pipeline file',
    args: () => ['sync', 'missing.yaml'],
    warehouse: 'none',
    exit: 2,
    message: () => 'cannot read pipeline file missing.yaml: no such file',
  },

  // Commands, flags and arguments
  {
    name: 'unknown command (nearest suggested)',
    args: () => ['synk', 'p.yaml'],
    warehouse: 'duckdb',
    exit: 2,
    message: () => 'unknown command "synk": did you mean "sync"? (commands: sync, backfill, status, verify, repair, migrate, compact, query, sql, report, datasets, devnet, demo)',
  },
  {
    name: 'unknown flag',
    args: () => ['sync', 'p.yaml', '--folow'],
    warehouse: 'duckdb',
    binary: true,
    exit: 2,
    message: () => 'unknown flag --folow: did you mean --follow? (chain-etl sync --help lists what it takes)',
  },
  {
    name: 'two unknown flags, one with a value',
    args: () => ['status', 'p.yaml', '--jsn', '--log-levl=debug'],
    warehouse: 'duckdb',
    exit: 2,
    message: () => 'unknown flag --jsn: did you mean --json?; unknown flag --log-levl: did you mean --log-level? (chain-etl status --help lists what it takes)',
  },
  {
    name: 'an unknown flag like no other, and a stray argument',
    args: () => ['backfill', 'p.yaml', 'extra', '--from', 'mc:50000000', '--zzz'],
    warehouse: 'duckdb',
    exit: 2,
    message: () => 'unknown flag --zzz; unexpected argument "extra" (chain-etl backfill --help lists what it takes)',
  },
  {
    name: '--sink invalid choice',
    args: () => ['sync', 'p.yaml', '--sink', 'sqlite'],
    warehouse: 'duckdb',
    exit: 2,
    message: () => 'Invalid values: Argument: sink, Given: "sqlite", Choices: "duckdb", "parquet"',
  },
  {
    name: '--log-level invalid choice',
    args: () => ['status', 'p.yaml', '--log-level', 'verbose'],
    warehouse: 'duckdb',
    exit: 2,
    message: () => 'Invalid values: Argument: log-level, Given: "verbose", Choices: "fatal", "error", "warn", "info", "debug", "trace", "silent"',
  },
  {
    name: '--base-url with credentials (not shown)',
    args: () => ['sync', 'p.yaml', '--base-url', 'http://user:hunter2secret@127.0.0.1:1'],
    warehouse: 'duckdb',
    binary: true,
    exit: 2,
    message: () =>
      '--base-url: expected an http(s) URL of the service root such as https://toncenter.com, got a value not shown here (it may be a secret): ' +
      'remove the credentials, query and fragment (the API key goes in api_key_env)',
    mustNotShow: 'hunter2secret',
  },
  {
    name: '--base-url on a port the Fetch standard blocks (no retry can pass)',
    args: () => ['sync', 'p.yaml', '--base-url', 'http://127.0.0.1:6000'],
    warehouse: 'duckdb',
    exit: 2,
    recordsFailedRun: true,
    message: () => "http://127.0.0.1:6000 is on port 6000, which Node's fetch never connects to (a port the Fetch standard blocks): serve the API on another port",
  },
  {
    name: 'backfill without --from',
    args: () => ['backfill', 'p.yaml'],
    warehouse: 'duckdb',
    exit: 2,
    message: () => 'Missing required argument: from',
  },
  {
    name: 'malformed --from',
    args: () => ['backfill', 'p.yaml', '--from', '2024-13-45'],
    warehouse: 'duckdb',
    exit: 2,
    message: () => `--from "2024-13-45" is not a chain point: ${CHAIN_POINT_FIX}`,
  },
  {
    name: 'malformed --to',
    args: () => ['backfill', 'p.yaml', '--from', 'mc:50000000', '--to', 'yesterday'],
    warehouse: 'duckdb',
    exit: 2,
    message: () => `--to "yesterday" is not a chain point: ${CHAIN_POINT_FIX}`,
  },
  {
    name: '--from in the future',
    args: () => ['backfill', 'p.yaml', '--from', '2999-01-01'],
    warehouse: 'duckdb',
    exit: 2,
    message: () => '--from 2999-01-01 is in the future: the chain has no data there yet; pick a date up to today',
  },
  {
    name: '--from after --to (dates)',
    args: () => ['backfill', 'p.yaml', '--from', '2024-02-01', '--to', '2024-01-01'],
    warehouse: 'duckdb',
    exit: 2,
    message: () => '--from 2024-02-01T00:00:00.000Z is not before --to 2024-01-01T00:00:00.000Z: swap them or widen the range',
  },
  {
    name: '--from after --to (masterchain seqnos)',
    args: () => ['backfill', 'p.yaml', '--from', `mc:${FIRST_MC + 50}`, '--to', `mc:${FIRST_MC + 10}`],
    warehouse: 'duckdb',
    exit: 2,
    message: () => `--from mc:${FIRST_MC + 50} is not before --to mc:${FIRST_MC + 10}: swap them or widen the range`,
  },
  {
    name: 'a range before the first indexed block (dates)',
    args: () => ['backfill', 'p.yaml', '--from', '2020-01-01', '--to', '2020-02-01'],
    warehouse: 'duckdb',
    exit: 2,
    recordsFailedRun: true,
    message: () =>
      `--to 2020-02-01T00:00:00.000Z is not after the first block the service indexes, masterchain block ${FIRST_MC} (2026-01-01 00:00:00 UTC): ` +
      'the range holds nothing; pick a --to after it, or leave --to out',
  },
  {
    name: 'a range before the first indexed block (lts)',
    args: () => ['backfill', 'p.yaml', '--from', 'lt:5', '--to', 'lt:100'],
    warehouse: 'duckdb',
    exit: 2,
    recordsFailedRun: true,
    message: () =>
      `--to lt:100 is not after the first block the service indexes, masterchain block ${FIRST_MC} (2026-01-01 00:00:00 UTC): ` +
      'the range holds nothing; pick a --to after it, or leave --to out',
  },
  {
    name: 'a seqno before the first indexed block',
    args: () => ['backfill', 'p.yaml', '--from', 'mc:100', '--to', `mc:${FIRST_MC + 10}`],
    warehouse: 'duckdb',
    exit: 2,
    recordsFailedRun: true,
    message: () =>
      `masterchain block 100 is not indexed by the service: the first block it indexes is masterchain block ${FIRST_MC} (2026-01-01 00:00:00 UTC); ` +
      `pick a seqno from ${FIRST_MC} up to the tip`,
  },

  // The API
  {
    name: 'invalid key (401)',
    env: () => keyEnv(UNKNOWN_KEY),
    warehouse: 'duckdb',
    exit: 1,
    message: () => `the API key in $${KEY_ENV} was rejected (401 API key does not exist): check the key or unset it`,
    recordsFailedRun: true,
    mustNotShow: UNKNOWN_KEY,
  },
  {
    name: "the other network's key (403)",
    env: () => keyEnv(TESTNET_KEY),
    warehouse: 'duckdb',
    exit: 1,
    message: ({ world }) =>
      `Network not allowed: the key was issued for the other network (403 Network not allowed at ${world.mainnet.url}, key from $${KEY_ENV})`,
    recordsFailedRun: true,
    mustNotShow: TESTNET_KEY,
  },
  {
    name: 'a testnet pipeline into a mainnet warehouse (one warehouse, one network)',
    parts: (w) => ({ network: 'testnet', base_url: w.testnet.url }),
    warehouse: 'duckdb',
    exit: 2,
    message: () => 'this warehouse holds mainnet data (stream jetton_transfers), and the pipeline reads testnet: one warehouse holds one network; sync into another warehouse (sink.path or --out)',
    mustNotShow: MAINNET_KEY,
  },
  {
    name: 'wrong base URL path (404 with an HTML page)',
    parts: (w) => ({ base_url: `${w.notTheApi}/wrong` }),
    warehouse: 'duckdb',
    exit: 1,
    message: ({ world }) => `GET /wrong/api/v3/masterchainInfo: HTTP 404 Not Found: the base URL ${world.notTheApi}/wrong ${NOT_THE_API}`,
    recordsFailedRun: true,
  },

  // The warehouse
  {
    name: 'unwritable output path (DuckDB file under a regular file)',
    args: () => ['sync', 'p.yaml', '--out', 'plain-file/w.duckdb'],
    prepare: async (dir) => writeFileSync(join(dir, 'plain-file'), 'not a folder\n'),
    warehouse: 'none',
    exit: 1,
    message: () => `Cannot open DuckDB file plain-file/w.duckdb: IO Error: Cannot open file "plain-file/w.duckdb": Not a directory: ${DUCKDB_FIX}`,
  },
  {
    name: 'output folder that does not exist (DuckDB)',
    args: () => ['sync', 'p.yaml', '--out', 'no/such/folder/w.duckdb'],
    warehouse: 'none',
    exit: 1,
    message: ({ dir }) =>
      `Cannot open DuckDB file no/such/folder/w.duckdb: IO Error: Cannot open file "${dir}/no/such/folder/w.duckdb": No such file or directory: ${DUCKDB_FIX}`,
  },
  {
    name: 'unwritable output path (Parquet folder under a regular file)',
    args: () => ['sync', 'p.yaml', '--sink', 'parquet', '--out', 'plain-file/pq'],
    prepare: async (dir) => writeFileSync(join(dir, 'plain-file'), 'not a folder\n'),
    warehouse: 'none',
    exit: 1,
    message: ({ dir }) =>
      `Cannot create the Parquet folder ${dir}/plain-file/pq: ENOTDIR: not a directory: point sink.path (or --out) at a folder chain-etl may create or write`,
  },
  {
    name: 'an s3:// URL as --out (no folder named s3: created; the URL, which may carry credentials, not shown)',
    args: () => ['sync', 'p.yaml', '--sink', 'parquet', '--out', 's3://AKIAEXAMPLE:secret@bucket/lake'],
    warehouse: 'none',
    exit: 2,
    binary: true,
    mustNotShow: 'secret',
    message: () => '--out: object storage is not supported yet: use a local path, got s3://…',
  },
  {
    name: 'a URL as sink.path (DuckDB over https)',
    parts: () => ({ sink: '{ kind: duckdb, path: "https://example.com/w.duckdb" }' }),
    warehouse: 'none',
    exit: 2,
    message: () => 'p.yaml:8:29: sink.path: object storage is not supported yet: use a local path, got https://…',
  },
  {
    name: 'a Parquet sink.path with glob characters (it would read a neighbour warehouse wh1/)',
    parts: () => ({ sink: '{ kind: parquet, path: "wh[12]" }' }),
    warehouse: 'none',
    exit: 2,
    message: () =>
      'p.yaml:8:30: sink.path: "wh[12]" holds the glob character "[": DuckDB reads every Parquet file path as a pattern, so the warehouse would read a neighbour\'s files (wh[12] matches wh1/); rename the folder without * ? [ ] { }',
  },
  {
    name: 'glob characters in --out',
    args: () => ['sync', 'p.yaml', '--sink', 'parquet', '--out', 'lake*'],
    warehouse: 'none',
    exit: 2,
    message: () =>
      '--out: "lake*" holds the glob character "*": DuckDB reads every Parquet file path as a pattern, so the warehouse would read a neighbour\'s files (wh[12] matches wh1/); rename the folder without * ? [ ] { }',
  },
  {
    name: 'compact on a DuckDB warehouse',
    args: () => ['compact', 'p.yaml'],
    warehouse: 'duckdb',
    exit: 2,
    message: () => `compact merges the files of a Parquet warehouse; ${DUCKDB} is a DuckDB warehouse, which has none: nothing to do`,
  },
  {
    name: 'compact where no warehouse is (nothing created)',
    args: () => ['compact', 'p.yaml', '--sink', 'parquet', '--out', 'nowhere'],
    warehouse: 'none',
    exit: 2,
    message: () => 'no warehouse at nowhere: check sink.path (or --out); compact creates nothing',
  },
  {
    name: 'DuckDB warehouse locked by another process (sync)',
    warehouse: 'duckdb',
    locked: true,
    binary: true,
    exit: 3,
    message: ({ holderPid }) => new RegExp(`^Warehouse w\\.duckdb is locked by process ${holderPid} \\(.+\\); ${esc(LOCKED_FIX)}$`),
  },
  {
    name: 'DuckDB warehouse locked by another process (status)',
    args: () => ['status', 'p.yaml'],
    warehouse: 'duckdb',
    locked: true,
    exit: 3,
    message: ({ holderPid }) =>
      new RegExp(
        `^Warehouse w\\.duckdb is being written by process ${holderPid} \\(.+\\), and DuckDB lets no other process open the file meanwhile: ` +
          `${esc('run status again when that run has ended (between the runs of sync --follow the file is free)')}$`,
      ),
  },
  {
    name: 'Parquet warehouse locked by another process',
    parts: () => ({ sink: `{ kind: parquet, path: ${PARQUET} }` }),
    warehouse: 'parquet',
    locked: true,
    exit: 3,
    message: ({ dir, holderPid }) =>
      new RegExp(`^Warehouse ${esc(join(dir, PARQUET, LOCK_FILE))} is locked by process ${holderPid} \\(.+\\); ${esc(LOCKED_FIX)}$`),
  },
  {
    name: 'corrupted DuckDB file (garbage bytes), left untouched',
    warehouse: 'garbage',
    exit: 1,
    message: ({ dir }) =>
      `Cannot open DuckDB file w.duckdb: IO Error: The file "${dir}/w.duckdb" exists, but it is not a valid DuckDB database file: ${DUCKDB_FIX}`,
  },
  {
    name: 'DuckDB warehouse of a newer schema version',
    warehouse: 'duckdb',
    prepare: markDuckDBNewer,
    exit: 2,
    message: () =>
      'Warehouse w.duckdb has schema version 99, newer than this chain-etl (version 4): upgrade chain-etl to the release that wrote it or a later one',
  },
  {
    name: 'Parquet warehouse of a newer schema version',
    parts: () => ({ sink: `{ kind: parquet, path: ${PARQUET} }` }),
    warehouse: 'parquet',
    prepare: async (dir) => {
      const manifest = join(dir, PARQUET, '_manifest.json');
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { schemaVersion: number };
      writeFileSync(manifest, JSON.stringify({ ...parsed, schemaVersion: 99 }, null, 1));
    },
    exit: 2,
    message: ({ dir }) =>
      `Warehouse ${join(dir, PARQUET)} has schema version 99, newer than this chain-etl (version 4): upgrade chain-etl to the release that wrote it or a later one`,
  },
  {
    name: 'DuckDB warehouse of a newer schema version (migrate)',
    args: () => ['migrate', 'p.yaml'],
    warehouse: 'duckdb',
    prepare: markDuckDBNewer,
    exit: 2,
    message: () =>
      'Warehouse w.duckdb has schema version 99, newer than this chain-etl (version 4): upgrade chain-etl to the release that wrote it or a later one',
  },
  {
    name: 'migrate with no warehouse at the sink path',
    args: () => ['migrate', 'p.yaml'],
    warehouse: 'none',
    exit: 2,
    message: () => 'no warehouse at w.duckdb: nothing to migrate; check sink.path (or --out)',
  },
  {
    name: 'Parquet warehouse whose manifest was deleted (status)',
    parts: () => ({ sink: `{ kind: parquet, path: ${PARQUET} }` }),
    args: () => ['status', 'p.yaml'],
    warehouse: 'parquet',
    prepare: async (dir) => rmSync(join(dir, PARQUET, '_manifest.json')),
    exit: 2,
    message: ({ dir }) =>
      new RegExp(`^Parquet warehouse ${esc(join(dir, PARQUET))} holds data files \\(e\\.g\\. [^ ]+\\.parquet\\) but no _manifest\\.json, which alone says which of them are current; ${esc(MANIFEST_FIX)}$`),
  },
  {
    name: 'Parquet warehouse whose manifest is truncated',
    parts: () => ({ sink: `{ kind: parquet, path: ${PARQUET} }` }),
    warehouse: 'parquet',
    prepare: async (dir) => {
      const manifest = join(dir, PARQUET, '_manifest.json');
      writeFileSync(manifest, readFileSync(manifest, 'utf8').slice(0, 100));
    },
    exit: 2,
    message: ({ dir }) => new RegExp(`^Parquet manifest ${esc(join(dir, PARQUET, '_manifest.json'))} is damaged: it is not valid JSON \\(.+\\); ${esc(MANIFEST_FIX)}$`),
  },
  {
    name: 'Parquet warehouse with a truncated data file',
    parts: () => ({ sink: `{ kind: parquet, path: ${PARQUET} }` }),
    warehouse: 'parquet',
    prepare: async (dir) => {
      const manifest = JSON.parse(readFileSync(join(dir, PARQUET, '_manifest.json'), 'utf8')) as { tables: Record<string, { files: { path: string }[] }> };
      const path = join(dir, PARQUET, manifest.tables['transactions']!.files[0]!.path);
      writeFileSync(path, readFileSync(path).subarray(0, 100));
    },
    exit: 2,
    message: ({ dir }) =>
      new RegExp(`^Parquet file ${esc(join(dir, PARQUET, 'transactions'))}/.+\\.parquet is damaged \\(100 bytes, the manifest recorded \\d+\\): run chain-etl repair with this pipeline; it moves damaged files to _damaged/ and fetches their rows again$`),
  },
];

let world: World;

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'chain-etl-badinput-'));
  const [mainnet, testnet, notTheApi, closed] = await Promise.all([
    startDevnet({ seed: 11, blocks: 100, keys: new Map([[MAINNET_KEY, 'mainnet'], [TESTNET_KEY, 'testnet']]), keyRps: 1000 }),
    startDevnet({ seed: 11, blocks: 100, network: 'testnet', keys: new Map([[MAINNET_KEY, 'mainnet']]), keyRps: 1000 }),
    notTheApiServer(),
    closedPort(),
  ]);
  servers.push(notTheApi);
  const seed = join(root, 'seed');
  const partial: Omit<World, 'seedDuckDB' | 'seedParquet'> = { root, mainnet, testnet, notTheApi: urlOf(notTheApi), closed };
  world = { ...partial, seedDuckDB: join(seed, DUCKDB), seedParquet: join(seed, PARQUET) };
  mkdirSync(seed);
  writeFileSync(join(root, 'seed.yaml'), pipelineYaml(world));
  const seeded = await Promise.all([
    runInProcess(['sync', '../seed.yaml', '--log-level', 'warn'], keyEnv(MAINNET_KEY), seed),
    runInProcess(['sync', '../seed.yaml', '--sink', 'parquet', '--out', PARQUET, '--log-level', 'warn'], keyEnv(MAINNET_KEY), seed),
  ]);
  for (const run of seeded) expect(run.code, run.stderr).toBe(0);
  seedSnapshot = await snapshot(seed, 'duckdb');
  expect(Object.keys(seedSnapshot.duckdb!.tables)).toContain('transactions');
  expect(seedSnapshot.duckdb!.runs).toHaveLength(1);
});

/** The seed DuckDB warehouse every 'duckdb' case starts from a copy of. */
let seedSnapshot: Snapshot;

const servers: Server[] = [];

afterAll(async () => {
  await world?.mainnet.close();
  await world?.testnet.close();
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  if (world !== undefined) rmSync(world.root, { recursive: true, force: true });
});

/** A snapshot of what a case directory holds, by warehouse kind. */
interface Snapshot {
  readonly files: readonly string[];
  /** sha256 of the DuckDB file's bytes, and its contents. */
  readonly duckdbBytes?: string;
  readonly duckdb?: DuckDBState;
  readonly parquet?: Readonly<Record<string, string>>;
  /** sha256 of a file that is not a database (garbage). */
  readonly bytes?: string;
}

/** `known` is an earlier snapshot: a DuckDB file with the same bytes has the same contents, read once. */
async function snapshot(dir: string, warehouse: Warehouse, known?: Snapshot): Promise<Snapshot> {
  const files = listFiles(dir);
  switch (warehouse) {
    case 'none':
      return { files };
    case 'duckdb': {
      const duckdbBytes = sha256(readFileSync(join(dir, DUCKDB)));
      const duckdb = known?.duckdbBytes === duckdbBytes ? known.duckdb : await duckdbState(join(dir, DUCKDB));
      return { files, duckdbBytes, duckdb };
    }
    case 'parquet':
      return { files, parquet: parquetState(join(dir, PARQUET)) };
    case 'garbage':
      return { files, bytes: sha256(readFileSync(join(dir, DUCKDB))) };
  }
}

function describeRun(run: CliResult): string {
  return `chain-etl ${run.args.join(' ')} → exit ${run.code}${run.signal ? ` (${run.signal})` : ''} after ${Math.round(run.ms)} ms\nstdout: ${run.stdout}\nstderr: ${run.stderr}`;
}

describe('bad input: exit code, one-line message with the fix, warehouse unchanged', () => {
  test('covers at least 25 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(25);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });

  test.concurrent.each(cases)('$name', async (c) => {
    const { dir, before, after, run, holderPid } = await executeCase(c);
    const report = describeRun(run);

    // Exit code and one line naming the problem and the fix.
    expect(run.code, report).toBe(c.exit);
    expect(run.stdout, report).toBe('');
    expect(run.stderr, report).toMatch(/^chain-etl: [^\n]+\n$/);
    const line = run.stderr.slice('chain-etl: '.length, -1);
    const expected = c.message({ world, dir, holderPid });
    if (typeof expected === 'string') expect(line, report).toBe(expected);
    else expect(line, report).toMatch(expected);
    if (c.mustNotShow !== undefined) expect(run.stderr).not.toContain(c.mustNotShow);

    // Nothing created, nothing changed.
    expect(after.files, 'files in the case directory').toEqual(before.files);
    if (c.warehouse === 'none') expect(after.files.filter((f) => /duckdb|\.parquet|_manifest/.test(f))).toEqual([]);
    expect(after.parquet).toEqual(before.parquet);
    expect(after.bytes).toEqual(before.bytes);
    if (before.duckdb !== undefined && after.duckdb !== undefined) {
      expect(after.duckdb.tables).toEqual(before.duckdb.tables);
      expect(after.duckdb.catalog).toBe(before.duckdb.catalog);
      const added = after.duckdb.runs.filter((row) => !before.duckdb!.runs.some((old) => JSON.stringify(old) === JSON.stringify(row)));
      expect(after.duckdb.runs.length).toBe(before.duckdb.runs.length + added.length);
      if (c.recordsFailedRun) {
        expect(added).toHaveLength(1);
        expect(added[0]).toMatchObject({ command: run.args[0], status: 'failed', error: line });
      } else {
        expect(added).toEqual([]);
      }
    }
  }, 120_000);
});

interface Executed {
  readonly dir: string;
  readonly before: Snapshot;
  readonly after: Snapshot;
  readonly run: CliResult;
  readonly holderPid?: number;
}

/** Sets up the case's directory, snapshots it, runs the CLI (beside a lock holder if asked), snapshots again. */
async function executeCase(c: Case): Promise<Executed> {
  const dir = mkdtempSync(join(world.root, 'case-'));
  writeFileSync(join(dir, 'p.yaml'), c.yaml?.(world) ?? pipelineYaml(world, c.parts?.(world)));
  if (c.warehouse === 'duckdb') cpSync(world.seedDuckDB, join(dir, DUCKDB));
  if (c.warehouse === 'parquet') cpSync(world.seedParquet, join(dir, PARQUET), { recursive: true });
  if (c.warehouse === 'garbage') writeFileSync(join(dir, DUCKDB), randomBytes(64 * 1024));
  await c.prepare?.(dir);
  const before = await snapshot(dir, c.warehouse, seedSnapshot);
  const holder = c.locked ? await holdDuckDBFile(join(dir, c.warehouse === 'parquet' ? join(PARQUET, LOCK_FILE) : DUCKDB)) : undefined;
  let run: CliResult;
  try {
    const args = c.args?.(world) ?? ['sync', 'p.yaml'];
    const env = c.env?.(world) ?? keyEnv(MAINNET_KEY);
    run = c.binary ? await runCli(args, { cwd: dir, env: childEnv(env), timeoutMs: 100_000 }) : await runInProcess(args, env, dir);
  } finally {
    await holder?.release();
  }
  return { dir, before, after: await snapshot(dir, c.warehouse, before), run, holderPid: holder?.pid };
}

function urlOf(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A web server that is not the API: `/wrong/…` → 404 HTML page, `/text/…` → 200 `ok` as text/plain. */
async function notTheApiServer(): Promise<Server> {
  const server = createServer((req, res) => {
    if ((req.url ?? '').startsWith('/text/')) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    } else {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><html><body><h1>Not Found</h1></body></html>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** The URL of a loopback port that was free a moment ago and has nothing listening now. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = urlOf(server);
  await new Promise((resolve) => server.close(resolve));
  return url;
}
