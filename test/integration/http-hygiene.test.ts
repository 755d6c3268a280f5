/**
 * HTTP hygiene from the user's side: the CLI (in process; the binary where its memory is measured)
 * against a misbehaving server on 127.0.0.1 (in front of a devnet), for both sinks. A redirect to another origin fails the run and that
 * origin sees no request; a body that never ends, or a gzip bomb, ends the run with the cap error
 * (and the process stays small); a server echoing the key, or pieces of it (cut off, percent-encoded,
 * \u-escaped), in a malformed body, an error body or an item that becomes a reject, gets it
 * redacted from stderr, the logs, `_etl_runs.error`, `_etl_rejects` and `status`; a base_url that
 * holds the key, a piece of it, or a token is refused (exit 2) without printing it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runInProcess } from '../support/cli-in-process.js';
import { spawnCli } from '../support/cli.js';
import { describeResult, type CliResult } from '../support/cli-result.js';
import { FIRST_MC, startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { KEY, KEY_ENV } from '../support/test-key.js';
import { readWarehouse, type Snapshot } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';
import { startMisbehavingServer, type Behaviour, type MisbehavingServer } from '../support/misbehaving-server.js';

const SINKS: readonly SinkKind[] = ['duckdb', 'parquet'];
const TIP = '/api/v3/masterchainInfo';
const REDACTED = '[redacted]';

/** Every 6-character piece of the key, lower case: any longer piece, in any case, contains one. */
const PIECES = Array.from({ length: KEY.length - 5 }, (_, i) => KEY.slice(i, i + 6).toLowerCase());
function piecesIn(text: string): string[] {
  const lower = text.toLowerCase();
  return PIECES.filter((piece) => lower.includes(piece));
}
const percentEncoded = (text: string): string => [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
const unicodeEscaped = (text: string): string => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

let devnet: TestDevnet;
let foreign: MisbehavingServer;
let work: Workspace;
const servers: MisbehavingServer[] = [];

beforeAll(async () => {
  [devnet, foreign, work] = await Promise.all([startTestDevnet({ seed: 4040, blocks: 12 }), startMisbehavingServer(), makeWorkspace('http-hygiene')]);
  foreign.behave(() => ({ kind: 'reply', status: 200, body: '{"first":{},"last":{}}' }));
});

afterAll(async () => {
  await Promise.all([devnet?.close(), foreign?.close(), ...servers.map((s) => s.close())]);
  await work?.remove();
});

interface Outcome {
  readonly result: CliResult;
  readonly front: MisbehavingServer;
  readonly snapshot?: Snapshot;
  /** Peak resident set of the process (VmHWM), in MB, from /proc while it ran; undefined without /proc. */
  readonly peakMb: number | undefined;
}

interface Scenario {
  readonly behave: (front: MisbehavingServer) => (request: { url: string }) => Behaviour;
  /** `http:` map of the pipeline. @default { retries: 0 } */
  readonly http?: string;
  /** base_url of the pipeline. @default the front server */
  readonly baseUrl?: (front: MisbehavingServer) => string;
  readonly args?: readonly string[];
  /** Runs the binary as a child process, whose peak memory is read from /proc; else `runCli` in process. */
  readonly binary?: boolean;
}

/** One scenario, one sink: a front server of its own, a pipeline, `sync --log-level debug`, the warehouse read back. */
async function run(name: string, kind: SinkKind, scenario: Scenario): Promise<Outcome> {
  const front = await startMisbehavingServer(devnet.url);
  servers.push(front);
  front.behave(scenario.behave(front));
  const dir = join(work.dir, `${name}-${kind}`);
  mkdirSync(dir);
  const sinkPath = join(dir, kind === 'duckdb' ? 'w.duckdb' : 'pq');
  writeFileSync(
    join(dir, 'p.yaml'),
    [
      'network: mainnet',
      `api_key_env: ${KEY_ENV}`,
      `base_url: ${scenario.baseUrl?.(front) ?? front.url}`,
      `http: ${scenario.http ?? '{ retries: 0 }'}`,
      'rate: { rps: 500, concurrency: 4 }',
      `start: { mc_seqno: ${FIRST_MC} }`,
      'lag: { mc_blocks: 0 }',
      'streams: [transactions]',
      `sink: { kind: ${kind}, path: ${JSON.stringify(sinkPath)} }`,
      '',
    ].join('\n'),
  );
  const args = scenario.args ?? ['sync', 'p.yaml', '--log-level', 'debug'];
  const { result, peakMb } = scenario.binary ? await runMeasured(args, dir) : { result: await runInProcess(args, { [KEY_ENV]: KEY }, dir), peakMb: undefined };
  const created = result.code !== 2;
  const snapshot = created ? await readWarehouse(kind, sinkPath, { partial: true, glob: false }) : undefined;
  return { result, front, snapshot, peakMb };
}

/** The binary in `dir`, and its peak resident set (VmHWM) in MB, read from /proc while it ran; undefined without /proc. */
async function runMeasured(args: readonly string[], dir: string): Promise<{ result: CliResult; peakMb: number | undefined }> {
  const cli = spawnCli(args, { cwd: dir, timeoutMs: 60_000 });
  let peakKb: number | undefined;
  const poll = setInterval(() => {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${cli.pid}/status`, 'utf8'))?.[1];
      if (hwm !== undefined) peakKb = Math.max(peakKb ?? 0, Number(hwm));
    } catch {
      // the process has ended
    }
  }, 20);
  const result = await cli.done.finally(() => clearInterval(poll));
  return { result, peakMb: peakKb === undefined ? undefined : peakKb / 1024 };
}

/** The human line on stderr (the last line that is not a JSON log line). */
function messageOf(result: CliResult): string {
  return result.stderr.split('\n').filter((line) => line.startsWith('chain-etl: ')).at(-1) ?? '';
}

/** Texts that left the process or were stored for people to read: stdout, stderr (logs included), run errors, rejects. */
function textsOf(outcome: Outcome): string {
  const { result, snapshot } = outcome;
  const runs = snapshot?.runs.map((r) => String(r.error)) ?? [];
  const rejects = snapshot?.rejectRows.map((r) => `${r.raw} ${r.reason} ${r.params} ${r.endpoint}`) ?? [];
  return [result.stdout, result.stderr, ...runs, ...rejects].join('\n');
}

/** Exit 1, the message on stderr and as the failed run's error, no key piece anywhere. */
function expectFailedRun(outcome: Outcome, message: string): void {
  expect(outcome.result.code, describeResult(outcome.result)).toBe(1);
  expect(messageOf(outcome.result)).toBe(`chain-etl: ${message}`);
  expect(outcome.snapshot?.runs.map((r) => [r.status, r.error])).toEqual([['failed', message]]);
  expect(piecesIn(textsOf(outcome))).toEqual([]);
}

const tooLarge = (mb: number): string =>
  `GET ${TIP}: the response body is larger than ${mb} MB (http.max_response_mb, counted after decompression): not retried; if the service really sends pages this large, raise http.max_response_mb in the pipeline file`;

/** The redirect status each sink's run meets (every status is covered by test/api/redirect-and-body.test.ts). */
const REDIRECT_STATUS: Readonly<Record<SinkKind, number>> = { duckdb: 301, parquet: 308 };

describe.each(SINKS)('%s', (kind) => {
  test.concurrent(`a redirect (HTTP ${REDIRECT_STATUS[kind]}) to another port fails the run; that port sees no request`, async () => {
    const status = REDIRECT_STATUS[kind];
    const outcome = await run(`redirect-${status}`, kind, { behave: () => () => ({ kind: 'redirect', status, location: `${foreign.origin}${TIP}` }) });
    expectFailedRun(
      outcome,
      `GET ${TIP}: HTTP ${status} redirect to ${foreign.origin}, another origin than ${outcome.front.origin}: not followed, so the API key is not sent there; if the service moved, set base_url to its new address`,
    );
    expect(foreign.seen.filter((r) => r.key !== undefined)).toEqual([]);
    expect(outcome.front.seen).toHaveLength(1);
  });

  test.concurrent('a body that never ends: the cap error (default 64 MB), one request, and the process stays small', async () => {
    const outcome = await run('endless', kind, { http: '{ retries: 3 }', behave: () => () => ({ kind: 'endless' }), binary: true });
    expectFailedRun(outcome, tooLarge(64));
    expect(outcome.front.seen).toHaveLength(1);
    if (outcome.peakMb !== undefined) expect(outcome.peakMb).toBeLessThan(500);
  });

  test.concurrent('malformed JSON starting with the key (V8 quotes its first 10 characters): redacted', async () => {
    const body = `{"first":${KEY}}`;
    const outcome = await run('malformed', kind, { behave: () => () => ({ kind: 'reply', status: 200, body }) });
    const message = messageOf(outcome.result).replace(/^chain-etl: /, '');
    expect(message).toMatch(new RegExp(`^GET ${TIP} failed after 1 attempt: HTTP 200 with invalid JSON \\(SyntaxError: .*\\[redacted\\].*\\), ${body.length} bytes, application/json$`));
    expectFailedRun(outcome, message);
  });

  test.concurrent('an error body echoing pieces of the key, percent-encoded and \\u-escaped: redacted in the message, the run record and status', async () => {
    const body = `{"error":"unknown key ${unicodeEscaped(KEY.slice(0, 12))}…, see /keys?k=${percentEncoded(KEY.slice(10))}"}`;
    const outcome = await run('echo-422', kind, { behave: () => () => ({ kind: 'reply', status: 422, body }) });
    expectFailedRun(outcome, `GET ${TIP}: HTTP 422 unknown key ${REDACTED}…, see /keys?k=${REDACTED}`);
    const dir = join(work.dir, `echo-422-${kind}`);
    const status = await runInProcess(['status', 'p.yaml'], { [KEY_ENV]: KEY }, dir);
    expect(status.code, describeResult(status)).toBe(0);
    expect(status.stdout).toContain(`settled tip: unknown (GET ${TIP}: HTTP 422 unknown key ${REDACTED}…, see /keys?k=${REDACTED})`);
    expect(status.stdout).toContain(`error: GET ${TIP}: HTTP 422 unknown key ${REDACTED}`);
    expect(piecesIn(status.stdout + status.stderr)).toEqual([]);
  });

  test.concurrent('an error body holding a lone surrogate: the run is recorded as failed, the surrogate stored as U+FFFD', async () => {
    const outcome = await run('lone-surrogate-422', kind, { behave: () => () => ({ kind: 'reply', status: 422, body: '{"error":"bad \\ud800 request"}' }) });
    expectFailedRun(outcome, `GET ${TIP}: HTTP 422 bad \ufffd request`);
  });

  test.concurrent('an item echoing the key becomes a reject with the key redacted; the rest loads', async () => {
    const outcome = await run('reject', kind, {
      http: '{ retries: 2 }',
      behave: () => (request) => ({
        kind: 'proxy',
        change: (body) => {
          const items = body.transactions as Record<string, unknown>[] | undefined;
          if (!request.url.startsWith('/api/v3/transactions') || items === undefined || items.length === 0) return body;
          items[0] = { ...items[0], hash: 12345, note: `key ${KEY}`, link: `/?api_key=${percentEncoded(KEY)}`, [`x-${KEY.slice(0, 8)}`]: 1 };
          return body;
        },
      }),
    });
    expect(outcome.result.code, describeResult(outcome.result)).toBe(0);
    const rejects = outcome.snapshot!.rejectRows;
    expect(rejects.length).toBeGreaterThan(0);
    const raw = JSON.parse(rejects[0]!.raw) as Record<string, unknown>;
    expect(raw).toMatchObject({ hash: 12345, note: `key ${REDACTED}`, link: `/?api_key=${REDACTED}`, [`x-${REDACTED}`]: 1 });
    expect(outcome.snapshot!.tables.get('transactions')!.length).toBeGreaterThan(0);
    expect(piecesIn(textsOf(outcome))).toEqual([]);
  });
});

/** What does not depend on the sink runs once, into DuckDB. */
describe('duckdb only', () => {
  const kind = 'duckdb';
  test.concurrent('same-origin redirects are followed: the sync completes', async () => {
    const outcome = await run('same-origin', kind, {
      behave: (front) => (request) =>
        request.url.startsWith('/moved/')
          ? { kind: 'proxy', path: request.url.slice('/moved'.length) }
          : { kind: 'redirect', status: 307, location: `${front.origin}/moved${request.url}` },
    });
    expect(outcome.result.code, describeResult(outcome.result)).toBe(0);
    expect(outcome.snapshot!.tables.get('transactions')!.length).toBeGreaterThan(0);
    expect(outcome.front.seen.filter((r) => r.url.startsWith('/moved/')).length).toBe(outcome.front.seen.length / 2);
    expect(outcome.front.seen.every((r) => r.key === KEY)).toBe(true);
  });

  test.concurrent('a 5xx body echoing the key, retried: the debug log of the retry and the final message are redacted', async () => {
    const outcome = await run('echo-503', kind, { http: '{ retries: 1 }', behave: () => () => ({ kind: 'reply', status: 503, body: `{"error":"overloaded for key ${KEY}"}` }) });
    expectFailedRun(outcome, `GET ${TIP} failed after 2 attempts: HTTP 503 overloaded for key ${REDACTED}`);
    expect(outcome.result.stderr).toContain('"msg":"retrying request"');
  });

  test('a key pasted where a stream name belongs is redacted from the refusal (runCli in process)', async () => {
    const dir = join(work.dir, 'pasted-key');
    mkdirSync(dir);
    const file = join(dir, 'p.yaml');
    writeFileSync(file, `network: mainnet\napi_key_env: ${KEY_ENV}\nstreams: [${KEY}]\nsink: { kind: duckdb, path: w.duckdb }\n`);
    const { code, stderr } = await runInProcess(['sync', file], { [KEY_ENV]: KEY });
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`^chain-etl: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:11: unknown stream "\\[redacted\\]"`));
    expect(piecesIn(stderr)).toEqual([]);
  });

  test.concurrent('a gzip bomb (1 GB inflated): the cap error after decompression, and the process stays small', async () => {
    const outcome = await run('gzip-bomb', kind, { http: '{ retries: 0, max_response_mb: 2 }', behave: () => () => ({ kind: 'gzip-bomb', inflatedBytes: 1024 ** 3 }), binary: true });
    expectFailedRun(outcome, tooLarge(2));
    if (outcome.peakMb !== undefined) expect(outcome.peakMb).toBeLessThan(400);
  });

  test.concurrent.each([
    ['the key as a path segment', 'path', (front: MisbehavingServer) => `${front.url}/${KEY}`, 'remove the token-like segment from the path (the API key goes in api_key_env)'],
    [
      'a piece of the key in a word of the path',
      'piece',
      (front: MisbehavingServer) => `${front.url}/svc-${KEY.slice(7, 14)}`,
      `it holds the API key from $${KEY_ENV}, or a piece of it: remove it (the API key goes in api_key_env)`,
    ],
  ])('a base_url holding %s is refused (exit 2) unseen, nothing created, no request sent', async (_name, label, baseUrl, fix) => {
    const outcome = await run(`base-url-${label}`, kind, { baseUrl, behave: () => () => ({ kind: 'proxy' }) });
    expect(outcome.result.code, describeResult(outcome.result)).toBe(2);
    expect(outcome.result.stderr).toBe(
      `chain-etl: p.yaml:3:11: base_url: expected an http(s) URL of the service root such as https://toncenter.com, got a value not shown here (it may be a secret): ${fix}\n`,
    );
    expect(outcome.front.seen).toEqual([]);
    expect(existsSync(join(work.dir, `base-url-${label}-${kind}`, 'w.duckdb'))).toBe(false);
    expect(piecesIn(outcome.result.stderr + outcome.result.stdout)).toEqual([]);
  });
});
