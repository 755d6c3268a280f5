/**
 * `sync --follow` from the user's side, both sinks: a run that fails because the service is down is
 * logged and retried with backoff instead of ending the process; once the service is back everything
 * is stored; readers can open a DuckDB warehouse between runs; SIGTERM still ends it with 143, and a
 * refusal (changed filters, exit 2) still ends it at once.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backoffSeconds } from '../../src/cli/follow.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { tipBlock } from '../support/chain-points.js';
import { spawnCli, type CliRun } from '../support/cli.js';
import { describeResult, messageLines } from '../support/cli-result.js';
import { sleep } from '../support/sleep.js';
import { FIRST_MC, startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { readWarehouse } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';
import { LIGHT_STREAMS_YAML, expectLightStreamsAtTip } from '../support/light-streams.js';
import { startOutageProxy, type OutageProxy } from '../support/outage-proxy.js';

const SEED = 1701;
const BLOCKS = 40;

interface LogLine {
  level: number;
  msg: string;
  tipSeqno?: number;
  requests?: number;
}

let devnet: TestDevnet;
let work: Workspace;

beforeAll(async () => {
  [devnet, work] = await Promise.all([startTestDevnet({ seed: SEED, blocks: BLOCKS }), makeWorkspace('follow')]);
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

async function pipeline(name: string, url: string, kind: SinkKind, sinkPath: string, streamsYaml: string): Promise<string> {
  const file = join(work.dir, `${name}.yaml`);
  await writeFile(
    file,
    [
      'network: mainnet',
      `base_url: ${url}`,
      'api_key_env: CHAIN_ETL_TEST_KEY',
      'rate: { rps: 500, concurrency: 4 }',
      'http: { retries: 0, timeout_seconds: 5 }',
      `start: { mc_seqno: ${FIRST_MC} }`,
      'lag: { mc_blocks: 0 }',
      `streams: ${streamsYaml}`,
      `sink: { kind: ${kind}, path: ${JSON.stringify(sinkPath)} }`,
      '',
    ].join('\n'),
  );
  return file;
}

function logLines(run: CliRun): LogLine[] {
  return run.stderr().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as LogLine);
}

/** Waits for a log line `match` accepts; fails when the run ends first. */
async function untilLogged(run: CliRun, match: (line: LogLine) => boolean, what: string): Promise<void> {
  let ended = false;
  void run.done.finally(() => (ended = true));
  while (!logLines(run).some(match)) {
    if (ended) throw new Error(`--follow ended before it logged ${what}:\n${run.stderr()}`);
    await sleep(50);
  }
}

describe.each<SinkKind>(['duckdb', 'parquet'])('sync --follow into %s', (kind) => {
  let proxy: OutageProxy;
  const sinkPath = (): string => work.sinkPath(kind, 'follow');
  beforeAll(async () => {
    proxy = await startOutageProxy(devnet.url);
  });
  afterAll(() => proxy?.close());

  it('logs a run that fails while the service is down, goes on, and stores everything once it is back', async () => {
    proxy.down();
    const file = await pipeline(`follow-${kind}`, proxy.url, kind, sinkPath(), LIGHT_STREAMS_YAML);
    const follow = spawnCli(['sync', file, '--follow', '--interval', '0.2', '--log-level', 'info'], { cwd: work.dir });
    try {
      await untilLogged(follow, (line) => line.msg.startsWith('sync failed (1 in a row)'), 'a failed run');
      devnet.grow(3);
      proxy.up();
      const tip = tipBlock(devnet);
      await untilLogged(follow, (line) => line.msg === 'sync done' && line.tipSeqno === tip.seqno, `a sync to masterchain block ${tip.seqno}`);
      if (kind === 'duckdb') {
        // Between runs the file is free: a reader opens it (and the next run waits for it to close).
        const reader = await openWhenFree(sinkPath());
        reader.closeSync();
      }
    } finally {
      follow.child.kill('SIGTERM');
    }
    const result = await follow.done;
    expect(result.code, describeResult(result)).toBe(143);
    const failure = logLines(follow).find((line) => line.msg.startsWith('sync failed'));
    expect(failure).toMatchObject({ level: 50, failures: 1, retryInSeconds: 1 });
    expect(failure!.msg).toMatch(/^sync failed \(1 in a row\), --follow goes on in 1 s: GET \/api\/v3\/masterchainInfo .*HTTP 503/);

    const snapshot = await readWarehouse(kind, sinkPath(), { partial: true, glob: false });
    const statuses = snapshot.runs.map((run) => run.status);
    expect(statuses).toContain('failed');
    expect(statuses).toContain('ok');
    expect(statuses).not.toContain('running');
    expect(snapshot.runs.find((run) => run.status === 'failed')!.error).toMatch(/^GET \/api\/v3\/masterchainInfo .*HTTP 503/);
    expectLightStreamsAtTip(devnet, snapshot);
  });

  it('counts the requests of each run apart: the runs\' totals add up to what the devnet served', async () => {
    const path = work.sinkPath(kind, 'per-run');
    const file = await pipeline(`per-run-${kind}`, devnet.url, kind, path, LIGHT_STREAMS_YAML);
    const servedBefore = devnet.served();
    const follow = spawnCli(['sync', file, '--follow', '--interval', '0.2', '--log-level', 'info'], { cwd: work.dir });
    try {
      await untilLogged(follow, () => logLines(follow).filter((line) => line.msg === 'sync done').length >= 3, 'three runs');
    } finally {
      follow.child.kill('SIGTERM');
    }
    const result = await follow.done;
    expect(result.code, describeResult(result)).toBe(143);
    const logged = logLines(follow).filter((line) => line.msg === 'sync done').map((line) => line.requests);
    const snapshot = await readWarehouse(kind, path, { partial: true, glob: false });
    const recorded = snapshot.runs.map((run) => (JSON.parse(String(run.requests)) as { total: number }).total);
    // Runs start within the same second: the warehouse's order of them is not the log's.
    expect([...recorded].sort()).toEqual([...logged].sort());
    // Runs with nothing new make the same few requests each: not 9, 18, 27 as a count since the start would.
    expect(logged[2]).toBe(logged[1]);
    expect(recorded.reduce((sum, total) => sum + total, 0)).toBe(devnet.served() - servedBefore);
  });

  it('a refusal still ends it: changed filters exit 2 at once', async () => {
    const master = String(devnet.truth('jetton_transfers')[0]!.jetton_master);
    const file = await pipeline(`refused-${kind}`, devnet.url, kind, sinkPath(), `{ jetton_transfers: { jetton_master: "${master}" }, validator_events: }`);
    const result = await runCliInProcess(['sync', file, '--follow', '--interval', '0.2']);
    expect(result.code, describeResult(result)).toBe(2);
    expect(messageLines(result.stderr)).toEqual([expect.stringMatching(/^chain-etl: jetton_transfers: the warehouse holds the rows of no filter \(everything\)/)]);
  });
});

describe('backoff after failed runs', () => {
  it('doubles from the interval (at least 1 s) per failure in a row, up to 5 minutes', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((failures) => backoffSeconds(5, failures))).toEqual([5, 10, 20, 40, 80, 160, 300]);
    expect([1, 2, 3].map((failures) => backoffSeconds(0.2, failures))).toEqual([1, 2, 4]);
    expect(backoffSeconds(600, 1)).toBe(300);
  });
});

/** A read-only connection to a DuckDB file, opened as soon as no writer holds it. */
async function openWhenFree(path: string): Promise<DuckDBInstance> {
  for (const started = Date.now(); ; ) {
    try {
      return await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
    } catch (error) {
      if (Date.now() - started > 15_000) throw error;
      await sleep(20);
    }
  }
}
