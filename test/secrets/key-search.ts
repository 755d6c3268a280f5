/**
 * The API key never leaves the process's environment and the X-API-Key header.
 *
 * Devnets (the real `chain-etl devnet` binary) know a long, distinctive key. Every command that
 * takes a pipeline (sync, backfill, status, status --json, query; not demo, which makes its own key) runs
 * with the key in its environment at each log level given (at trace as the binary in a child process, at
 * the others in process; `npm test` takes trace, debug and info, the chaos run all five), on a healthy
 * devnet and through failures: a
 * devnet whose fault profile injects 5xx, resets, truncated and malformed bodies (runs recover by
 * retrying); one that always answers 5xx (retries run out); a wrong key, itself distinctive (401);
 * and the other network's key (403). `devnet truth` runs with the key in its environment too.
 *
 * Then the key (and the wrong and the other network's key) is searched, as text and in hex and
 * base64, in: every byte printed by every process (devnets included) and every in-process run; every file the runs left
 * (DuckDB files, Parquet files, manifests, anything else); every row of every table of every DuckDB
 * file, cast to text, and its catalog; every Parquet file's rows, key/value metadata, metadata and
 * schema. Zero hits. Finally the devnet is shown to listen on 127.0.0.1 only.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { DEFAULT_RETRIES } from '../../src/api/http-client.js';
import { etlRuns } from '../../src/core/bookkeeping.js';
import { startDevnet } from '../../src/devnet/index.js';
import { readManifest } from '../../src/load/parquet/manifest.js';
import { manifestViewsSql } from '../../src/load/parquet/views.js';
import { childEnv, runCli } from '../support/cli.js';
import type { CliResult } from '../support/cli-result.js';
import { startDevnetChild, type DevnetChild } from '../support/devnet-child.js';
import { runInProcess } from '../support/cli-in-process.js';
import { duckdbState, duckdbTexts, listFiles, parquetTexts, type StoredText } from '../support/warehouse-probe.js';

const KEY_ENV = 'CHAIN_ETL_SECRET_TEST_KEY';
// Random-looking, as real keys are: the redactor blanks every 6+ character piece of a key, so a key
// made of words would blank those words in our own messages.
const SECRET = 'tYkaRGtXXnf9vCCvGFbuDkeABhY83kWH';
const WRONG_KEY = 'bYXpfscvF49VFwpjH93veyqV45wHutt4';
const TESTNET_KEY = 'Hx3mPq7RtW2nVz9cKd4LfB6gJs8YeA5u';
const KEYS = [SECRET, WRONG_KEY, TESTNET_KEY] as const;
/** Every log level, most verbose first. */
export const ALL_LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;

type Level = (typeof ALL_LEVELS)[number];
const SEED = 5;
const BLOCKS = 100;
const FIRST_MC = 50_000_000;

/** Where the runs start: the last 30 blocks are enough data to look for the key in, and quick to fetch. */
const START_MC = FIRST_MC + 70;

/**
 * Faults a run survives by retrying (9 attempts per request): about three requests in ten fail once.
 * Each run through faults has a devnet of its own, so the seeded fault sequence it meets is the same
 * on every test run.
 */
const FAULTS = { http5xx: 0.1, reset: 0.06, truncate: 0.06, malformedJson: 0.08, unknownFields: 0.2, unknownEnum: 0.1 };

/** Texts a leak could take: the key, its middle (a cut-off copy), and its hex and base64 forms. */
function needles(key: string): string[] {
  const middle = key.slice(8, 24);
  const forms = [key, middle, Buffer.from(key).toString('hex'), Buffer.from(middle).toString('hex')];
  // base64 depends on alignment: the stable inner part of the encoding at each of the three offsets
  for (let pad = 0; pad < 3; pad++) forms.push(Buffer.from('x'.repeat(pad) + key).toString('base64').slice(4, -4));
  return forms;
}
const NEEDLES = KEYS.flatMap((key) => needles(key).map((needle) => ({ key, needle })));

/** Where a needle was found, for the failure message. */
function leaks(where: string, haystack: string | Buffer): string[] {
  const text = typeof haystack === 'string' ? haystack : haystack.toString('latin1');
  return NEEDLES.filter(({ needle }) => text.includes(needle)).map(({ key, needle }) => `${where}: ${needle === key ? 'key' : `form ${needle}`} of ${key.slice(0, 12)}…`);
}

interface Run {
  readonly label: string;
  readonly outcome: CliResult;
  readonly expectedExit: number;
}

interface Listening {
  readonly port: number;
  /** Local addresses of LISTEN sockets on the port, from /proc/net/tcp{,6}; undefined without /proc. */
  readonly procAddresses: string[] | undefined;
  /** Non-loopback address → how connecting to it ended. */
  readonly remote: Record<string, string>;
}

export interface KeySearchOptions {
  /** Log levels every command runs at (trace: the binary in a child process; the others in process). */
  readonly levels: readonly Level[];
  /** `http.retries` of the run whose retries run out against a devnet always answering 5xx. @default the client's default */
  readonly exhaustedRetries?: number;
}

/** The whole search: the runs (a `beforeAll`), then one test per place searched, and the devnet's listening address. */
export function describeKeySearch(options: KeySearchOptions): void {
  const LEVELS = options.levels;
  const exhaustedAttempts = (options.exhaustedRetries ?? DEFAULT_RETRIES) + 1;
  let root: string;
  const runs: Run[] = [];
  const devnetOutputs: CliResult[] = [];
  let devnetListening: Listening;

  /** Runs `tasks` with at most `limit` in flight. */
  async function pool<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
    const results: T[] = new Array<T>(tasks.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await tasks[index]!();
      }
    };
    await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
    return results;
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'chain-etl-secrets-'));
    writeFileSync(join(root, 'faults.json'), JSON.stringify(FAULTS));
    writeFileSync(join(root, 'always-5xx.json'), JSON.stringify({ http5xx: 1 }));
    const keys = `mainnet:${SECRET},testnet:${TESTNET_KEY}`;
    const devnetArgs = ['--seed', String(SEED), '--blocks', String(BLOCKS), '--keys', keys, '--key-rps', '10000'];
    const starting = await Promise.allSettled([
      startDevnetChild(devnetArgs, { cwd: root, env: childEnv() }),
      startDevnetChild([...devnetArgs, '--faults', 'always-5xx.json'], { cwd: root, env: childEnv() }),
      ...LEVELS.map(() => startDevnetChild([...devnetArgs, '--faults', 'faults.json'], { cwd: root, env: childEnv() })),
    ]);
    const devnets = starting.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    if (devnets.length < starting.length) {
      for (const devnet of devnets) await devnet.stop();
      throw starting.find((s): s is PromiseRejectedResult => s.status === 'rejected')!.reason;
    }
    const [healthy, failing, ...faulty] = devnets as [DevnetChild, DevnetChild, ...DevnetChild[]];
    try {
      devnetListening = await probeListening(healthy.port);
      writeFileSync(
        join(root, 'p.yaml'),
        [
          'network: mainnet',
          `base_url: ${healthy.url}`,
          `api_key_env: ${KEY_ENV}`,
          'rate: { rps: 1000, concurrency: 4 }',
          `start: { mc_seqno: ${START_MC} }`,
          'lag: { mc_blocks: 0 }',
          'streams: [transactions, actions, jetton_transfers, validator_events]',
          'sink: { kind: duckdb, path: unused.duckdb }',
          '',
        ].join('\n'),
      );
      // At trace (the most verbose level) a run is the binary in a child process, every byte it prints
      // searched; at the other levels it runs in process, everything it writes to fd 1 and 2 searched.
      const run = (label: string, args: string[], key: string, expectedExit: number) => async (): Promise<void> => {
        const env = { [KEY_ENV]: key };
        const inProcess = args.includes('--log-level') && !args.includes('trace');
        const outcome = inProcess ? await runInProcess(args, env) : await runCli(args, { cwd: root, env: childEnv(env), timeoutMs: 110_000 });
        runs.push({ label, outcome, expectedExit });
      };
      const level = (l: string): string[] => ['--log-level', l];
      const pipeline = join(root, 'p.yaml');
      const exhaustedPipeline = join(root, 'exhausted.yaml');
      writeFileSync(exhaustedPipeline, readFileSync(pipeline, 'utf8') + (options.exhaustedRetries === undefined ? '' : `http: { retries: ${options.exhaustedRetries} }\n`));
      const duckdb = (name: string): string[] => ['--sink', 'duckdb', '--out', join(root, `${name}.duckdb`)];
      const parquet = (name: string): string[] => ['--sink', 'parquet', '--out', join(root, name)];

      // Retries running out take ~30 s of backoff at the default: start it first, beside everything else.
      const exhausted = run('sync, always 5xx, trace', ['sync', exhaustedPipeline, '--base-url', failing.url, ...duckdb('exhausted'), ...level('trace')], SECRET, 1)();
      exhausted.catch(() => undefined); // awaited below; a failure is reported there

      const first: (() => Promise<void>)[] = [run('devnet truth', ['devnet', 'truth', '--seed', String(SEED), '--blocks', String(BLOCKS), '--dataset', 'transactions'], SECRET, 0)];
      LEVELS.forEach((l, i) => {
        first.push(run(`sync ${l}`, ['sync', pipeline, ...duckdb(`sync-${l}`), ...level(l)], SECRET, 0));
        first.push(run(`backfill ${l}`, ['backfill', pipeline, '--from', `mc:${START_MC}`, '--to', `mc:${START_MC + 20}`, ...parquet(`backfill-${l}`), ...level(l)], SECRET, 0));
        const faultySink = i % 2 === 0 ? duckdb(`faulty-${l}`) : parquet(`faulty-${l}`);
        first.push(run(`sync through faults ${l}`, ['sync', pipeline, '--base-url', faulty[i]!.url, ...faultySink, ...level(l)], SECRET, 0));
        first.push(run(`sync 401 ${l}`, ['sync', pipeline, ...duckdb(`wrong-key-${l}`), ...level(l)], WRONG_KEY, 1));
        first.push(run(`sync 403 ${l}`, ['sync', pipeline, ...parquet(`other-network-${l}`), ...level(l)], TESTNET_KEY, 1));
      });
      await pool(first, 4);

      // status reads what the runs above wrote; with a rejected key it still reports, tip unavailable.
      const second: (() => Promise<void>)[] = [];
      for (const l of LEVELS) {
        second.push(run(`status ${l}`, ['status', pipeline, ...duckdb(`sync-${l}`), ...level(l)], SECRET, 0));
        second.push(run(`status --json ${l}`, ['status', pipeline, '--json', ...parquet(`backfill-${l}`), ...level(l)], SECRET, 0));
        second.push(run(`status 401 ${l}`, ['status', pipeline, ...duckdb(`wrong-key-${l}`), ...level(l)], WRONG_KEY, 0));
        second.push(run(`status --json 403 ${l}`, ['status', pipeline, '--json', ...parquet(`other-network-${l}`), ...level(l)], TESTNET_KEY, 0));
      }
      second.push(run('backfill 401 trace', ['backfill', pipeline, '--from', `mc:${START_MC}`, ...duckdb('wrong-key-backfill'), ...level('trace')], WRONG_KEY, 1));
      // query prints rows as stored: the runs' records, their errors included, hold no key either.
      second.push(run('query trace', ['query', pipeline, 'SELECT * FROM _etl_runs', ...duckdb('wrong-key-trace'), ...level('trace')], SECRET, 0));
      second.push(run('query --format json trace', ['query', pipeline, 'SELECT * FROM _etl_runs', '--format', 'json', ...parquet('other-network-trace'), ...level('trace')], SECRET, 0));
      await pool(second, 4);
      await exhausted;
    } finally {
      for (const devnet of devnets) devnetOutputs.push(await devnet.stop());
    }
  }, 170_000);

  afterAll(() => {
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  function find(label: string): Run {
    const found = runs.find((r) => r.label === label);
    if (found === undefined) throw new Error(`no run ${label}`);
    return found;
  }

  function describeRun(run: Run): string {
    const { outcome } = run;
    return `${run.label}: chain-etl ${outcome.args.join(' ')} → ${outcome.code ?? outcome.signal}\nstderr: ${outcome.stderr.slice(-2000)}`;
  }

  describe('the API key appears nowhere', () => {
    test('every run ended as expected, and the failures really failed', () => {
      expect(runs).toHaveLength(1 + LEVELS.length * 9 + 4);
      for (const run of runs) expect(run.outcome.code, describeRun(run)).toBe(run.expectedExit);
      for (const l of LEVELS) {
        expect(find(`sync 401 ${l}`).outcome.stderr).toContain(`the API key in $${KEY_ENV} was rejected (401 API key does not exist)`);
        expect(find(`sync 403 ${l}`).outcome.stderr).toContain('Network not allowed: the key was issued for the other network');
        expect(find(`status 401 ${l}`).outcome.stdout).toContain(`settled tip: unknown (the API key in $${KEY_ENV} was rejected`);
        expect(find(`status --json 403 ${l}`).outcome.stdout).toContain('Network not allowed');
        expect(JSON.parse(find(`status --json ${l}`).outcome.stdout)).toMatchObject({ tip: { seqno: FIRST_MC + BLOCKS - 1 } });
      }
      expect(find('query trace').outcome.stdout).toContain('401');
      expect(find('query --format json trace').outcome.stdout).toContain('Network not allowed');
      expect(find('sync, always 5xx, trace').outcome.stderr).toMatch(new RegExp(`failed after ${exhaustedAttempts} attempts: HTTP 5\\d\\d`));
      expect(find('devnet truth').outcome.stdout.split('\n').length).toBeGreaterThan(1000);
    });

    test('the runs through faults retried (so the failure paths were taken) and logged the retries at debug and trace', async () => {
      for (const l of LEVELS) {
        const run = find(`sync through faults ${l}`);
        if (l === 'trace' || l === 'debug') expect(run.outcome.stderr, describeRun(run)).toContain('"msg":"retrying request"');
        else expect(run.outcome.stderr).not.toContain('retrying request');
      }
      for (const [i, l] of LEVELS.entries()) {
        const log = i % 2 === 0 ? (await duckdbState(join(root, `faulty-${l}.duckdb`))).runs : await parquetRuns(join(root, `faulty-${l}`));
        expect(log, `faulty-${l}`).toHaveLength(1);
        expect(log[0], `faulty-${l}`).toMatchObject({ status: 'ok' });
        expect(Number(log[0]!.retries), `retries of faulty-${l}`).toBeGreaterThan(0);
      }
    });

    test('no output of any process (runs and devnets) holds the key', () => {
      const found: string[] = [];
      for (const { label, outcome } of runs) found.push(...leaks(`${label} stdout`, outcome.stdout), ...leaks(`${label} stderr`, outcome.stderr));
      for (const outcome of devnetOutputs) found.push(...leaks(`devnet ${outcome.args.join(' ')}`, outcome.stdout + outcome.stderr));
      expect(found).toEqual([]);
      // The logs were there to search: trace and debug runs printed plenty.
      expect(find('sync trace').outcome.stderr.split('\n').length).toBeGreaterThan(5);
    });

    test('no file the runs left (DuckDB, Parquet, manifests, logs, anything) holds the key in its bytes', () => {
      const files = listFiles(root);
      expect(files.filter((f) => f.endsWith('.parquet')).length).toBeGreaterThan(10);
      expect(files.filter((f) => f.endsWith('.duckdb')).length).toBeGreaterThan(2 * LEVELS.length);
      const found = files.flatMap((file) => leaks(file, readFileSync(join(root, file))));
      expect(found).toEqual([]);
    });

    test('no row of any table of any DuckDB file (every column as text), nor its catalog, holds the key', async () => {
      const duckdbFiles = listFiles(root).filter((f) => f.endsWith('.duckdb') && !f.includes('_writer.lock'));
      const texts: StoredText[] = [];
      for (const file of duckdbFiles) texts.push(...(await duckdbTexts(join(root, file))));
      expect(texts.some((t) => t.where.endsWith('table transactions') && t.text.length > 50_000)).toBe(true);
      expect(texts.some((t) => t.where.endsWith('table _etl_runs') && t.text.includes('was rejected'))).toBe(true);
      expect(texts.flatMap((t) => leaks(t.where, t.text))).toEqual([]);
    });

    test('no Parquet file (rows, parquet_kv_metadata, parquet_metadata, schema) holds the key', async () => {
      // Grouped by warehouse and table (one schema per group): <warehouse>/<table>/…/<file>.parquet
      const groups = new Map<string, string[]>();
      for (const file of listFiles(root).filter((f) => f.endsWith('.parquet'))) {
        const group = file.split('/').slice(0, 2).join('/');
        groups.set(group, [...(groups.get(group) ?? []), join(root, file)]);
      }
      expect(groups.size).toBeGreaterThan(20);
      const texts: StoredText[] = [];
      for (const [group, files] of groups) texts.push(...(await parquetTexts(files, group)));
      expect(texts.some((t) => t.where.includes(' rows (') && t.text.includes('Network not allowed'))).toBe(true);
      expect(texts.flatMap((t) => leaks(t.where, t.text))).toEqual([]);
    });
  });

  describe('the devnet listens on 127.0.0.1 only', () => {
    test('chain-etl devnet: its listening socket is bound to 127.0.0.1, and a non-loopback address refuses', (ctx) => {
      if (devnetListening.procAddresses !== undefined) expect(devnetListening.procAddresses).toEqual(['127.0.0.1']);
      if (Object.keys(devnetListening.remote).length === 0) ctx.skip();
      for (const [address, result] of Object.entries(devnetListening.remote)) expect(result, address).toBe('ECONNREFUSED');
    });

    test('startDevnet: server.address() is 127.0.0.1, and a non-loopback address refuses', async () => {
      const listen = vi.spyOn(net.Server.prototype, 'listen');
      const devnet = await startDevnet({ seed: SEED, blocks: BLOCKS, keys: new Map([[SECRET, 'mainnet']]) });
      try {
        const servers = listen.mock.contexts as net.Server[];
        const server = servers.find((s) => (s.address() as net.AddressInfo | null)?.port === devnet.port);
        expect(server?.address()).toEqual({ address: '127.0.0.1', family: 'IPv4', port: devnet.port });
        expect(new URL(devnet.url).hostname).toBe('127.0.0.1');
        const { remote } = await probeListening(devnet.port);
        for (const [address, result] of Object.entries(remote)) expect(result, address).toBe('ECONNREFUSED');
      } finally {
        listen.mockRestore();
        await devnet.close();
      }
    });
  });
}

/** `_etl_runs` of a Parquet warehouse, every column as text. */
async function parquetRuns(folder: string): Promise<Record<string, string | null>[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    // Through the manifest: a raw glob also reads the run table's superseded files during their grace period.
    const manifest = await readManifest(folder);
    if (manifest === undefined) throw new Error(`no manifest in ${folder}`);
    await connection.run(manifestViewsSql(folder, manifest, [etlRuns]));
    return (await connection.runAndReadAll(`SELECT COLUMNS(*)::VARCHAR FROM ${etlRuns.name}`)).getRowObjectsJson() as Record<string, string | null>[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Where a port is listened on (from /proc), and what connecting to it on each non-loopback address gives. */
async function probeListening(port: number): Promise<Listening> {
  const remote: Record<string, string> = {};
  for (const address of nonLoopbackAddresses()) remote[address] = await tryConnect(address, port);
  return { port, procAddresses: procListeners(port), remote };
}

function nonLoopbackAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((info) => !info.internal && !(info.family === 'IPv6' && info.address.toLowerCase().startsWith('fe80')))
    .map((info) => info.address);
}

function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (result: string): void => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(3000, () => done('timeout'));
    socket.once('connect', () => done('connected'));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
  });
}

/** Local addresses of sockets in LISTEN state on `port`, read from /proc/net/tcp and tcp6. */
function procListeners(port: number): string[] | undefined {
  const addresses: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      if (file === '/proc/net/tcp') return undefined;
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (local === undefined || state !== '0A') continue;
      const [hexAddress, hexPort] = local.split(':');
      if (Number.parseInt(hexPort ?? '', 16) !== port) continue;
      addresses.push(decodeProcAddress(hexAddress ?? ''));
    }
  }
  return addresses;
}

/** /proc/net/tcp writes IPv4 as 8 hex digits in host (little-endian) order; IPv6 as 32. */
function decodeProcAddress(hex: string): string {
  if (hex.length === 8) return (hex.match(/../g) ?? []).reverse().map((byte) => Number.parseInt(byte, 16)).join('.');
  return `ipv6:${hex}`;
}
