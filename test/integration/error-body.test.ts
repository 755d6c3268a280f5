/**
 * A success status whose body carries the service's error, from the user's side: a proxy in front of
 * the devnet answers HTTP 200 with an empty list (or the whole page) and an `"error"` field, or
 * `"ok": false`. It is an error, never "nothing there": retried, and when it persists the sync exits
 * 1 naming it with nothing of the failed stream's range taken as covered; when it passes, the
 * warehouse equals the truth.
 */
import { appendFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Devnet } from '../../src/devnet/index.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult, messageLines, type CliResult } from '../support/cli-result.js';
import { expectCoveredEqualsTruth } from '../support/expect-truth.js';
import type { MisbehavingServer } from '../support/misbehaving-server.js';
import { useProxiedDevnet } from '../support/proxied-devnet.js';
import { readWarehouse } from '../support/warehouse-snapshot.js';
import type { Workspace } from '../support/workspace.js';

const SEED = 5150;
const RETRIES = 2;
const BLOCKS = 30;
/** A position stream, a time-paged one, and a snapshot stream (read by offset). */
const STREAMS = ['transactions', 'validator_events', 'jetton_masters'];

type Answer = Record<string, unknown>;

interface ErrorBody {
  readonly name: string;
  readonly endpoint: string;
  /** The position stream of the endpoint: it must cover nothing after the failed sync. */
  readonly stream?: string;
  /** What the proxy sends instead of the devnet's answer. */
  readonly body: (answer: Answer) => Answer;
}

const BODIES: readonly ErrorBody[] = [
  { name: 'an empty transactions list with "error"', endpoint: '/api/v3/transactions', stream: 'transactions', body: () => ({ transactions: [], address_book: {}, error: 'upstream timeout' }) },
  { name: 'the whole transactions page with an error object', endpoint: '/api/v3/transactions', stream: 'transactions', body: (answer) => ({ ...answer, error: { code: 504, message: 'partial' } }) },
  { name: 'an empty events list with "ok": false', endpoint: '/api/v3/validators/events', stream: 'validator_events', body: () => ({ events: [], ok: false }) },
  { name: 'an empty jetton masters list with "error"', endpoint: '/api/v3/jetton/masters', body: () => ({ jetton_masters: [], error: 'database is busy' }) },
  { name: 'masterchainInfo with "error"', endpoint: '/api/v3/masterchainInfo', body: (answer) => ({ ...answer, error: 'stale' }) },
];

let work: Workspace;
let devnet: Devnet;
let proxy: MisbehavingServer;
useProxiedDevnet('error-body', { seed: SEED, blocks: BLOCKS }, (setup) => ({ work, devnet, proxy } = setup));

const run = (...args: string[]): Promise<CliResult> => runCliInProcess(args);

/** The proxy sends `error` instead of the devnet's answer to its endpoint, `times` times (@default always). */
function answering(error: ErrorBody | undefined, times = Infinity): void {
  let left = times;
  proxy.behave((request) => {
    if (error === undefined || new URL(request.url, proxy.origin).pathname !== error.endpoint || left <= 0) return { kind: 'proxy' };
    left -= 1;
    return { kind: 'proxy', change: (answer) => error.body(answer) };
  });
}

describe('a success status carrying an error', () => {
  for (const [index, error] of BODIES.entries()) {
    it(`${error.name}: retried, exit 1 naming it when it persists; the same command reaches the truth once it passes`, async () => {
      const sinkPath = work.sinkPath('duckdb', `error-${index}`);
      const pipeline = await work.pipeline({ url: proxy.url, kind: 'duckdb', sinkPath, name: `error-${index}.yaml`, streams: STREAMS });
      await appendFile(pipeline, `http: { retries: ${RETRIES} }\n`);
      answering(error);
      const before = proxy.seen.filter((request) => request.url.startsWith(error.endpoint)).length;
      const failed = await run('sync', pipeline);
      expect(failed.code, describeResult(failed)).toBe(1);
      const shown = JSON.stringify(Object.fromEntries(Object.entries(error.body({})).filter(([key]) => key === 'error' || key === 'ok')));
      expect(messageLines(failed.stderr)).toEqual([`chain-etl: GET ${error.endpoint} failed after ${RETRIES + 1} attempts: HTTP 200 carrying an error: ${shown}`]);
      expect(proxy.seen.filter((request) => request.url.startsWith(error.endpoint)).length - before, 'the first attempt and the retries').toBe(RETRIES + 1);
      const snapshot = await readWarehouse('duckdb', sinkPath, { glob: false, partial: true, tables: [] });
      if (error.stream !== undefined) expect(snapshot.covered.get(error.stream) ?? [], `${error.stream} covers nothing`).toEqual([]);

      answering(error, RETRIES);
      const passed = await run('sync', pipeline);
      expect(passed.code, describeResult(passed)).toBe(0);
      await expectCoveredEqualsTruth(devnet, 'duckdb', sinkPath, { whole: true, streams: STREAMS.filter((name) => name !== 'jetton_masters') });
    });
  }
});
