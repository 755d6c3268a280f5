/**
 * `status` from the user's side, both sinks: it reads only (a mistyped path is refused with exit 2
 * and nothing is created; a running writer's Parquet lock does not stop it), needs no API key (at
 * the keyless 1 request/s it retries a 429 and learns the tip), asks a service that is down within
 * its budget and prints everything it knows with the tip unknown (`--offline`: no request at all),
 * names the hole a backfill with a gap leaves, with the backfill that fills it, dates the covered
 * ranges and holes, and prints --json of one shape: runs' rows as objects, every time ISO 8601 UTC.
 * While a run writes a DuckDB file: test/integration/status-progress.test.ts.
 */
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ReportedRun, StatusReport } from '../../src/cli/status-report.js';
import type { ReportedRange, StreamStatus } from '../../src/cli/stream-status.js';
import { utcTime } from '../../src/core/utc-time.js';
import type { Row } from '../../src/core/table.js';
import { startDevnet } from '../../src/devnet/index.js';
import { LOCK_FILE } from '../../src/load/parquet/layout.js';
import { childEnv, runCli } from '../support/cli.js';
import { holdDuckDBFile } from '../support/lock-holder.js';
import { runInProcess } from '../support/cli-in-process.js';
import { mcBlock, positionAt, tipBlock, tipPositionOf } from '../support/chain-points.js';
import { describeResult, messageLines } from '../support/cli-result.js';
import { FIRST_MC, startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { KEY, KEY_ENV } from '../support/test-key.js';
import { readWarehouse, type Snapshot } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';
import { LIGHT_STREAMS, LIGHT_STREAMS_YAML, expectLightStreamsAtTip } from '../support/light-streams.js';
import { startOutageProxy, type OutageProxy } from '../support/outage-proxy.js';

const SEED = 6502;
const BLOCKS = 40;
const LIGHT = LIGHT_STREAMS;
/** The backfills leave out [GAP_FROM, GAP_TO) of the chain. */
const GAP_FROM = FIRST_MC + 12;
const GAP_TO = FIRST_MC + 24;

type StatusJson = Omit<StatusReport, 'streams' | 'runs'> & { streams: StreamStatus[]; runs: ReportedRun[] };

/** Every time of status --json: ISO 8601 in UTC, to the second. */
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const iso = (utime: number): string => new Date(utime * 1000).toISOString().replace('.000Z', 'Z');

/** The earliest and latest row time of `table` whose `position` column lies in [from, to]. */
function rowTimes(rows: readonly Row[], position: string, time: string, from: bigint, to: bigint): Pick<ReportedRange, 'from_time' | 'to_time'> {
  const times = rows.filter((row) => (row[position] as bigint) >= from && (row[position] as bigint) <= to).map((row) => row[time] as number);
  expect(times.length, `rows between ${from} and ${to}`).toBeGreaterThan(0);
  return { from_time: iso(Math.min(...times)), to_time: iso(Math.max(...times)) };
}

let devnet: TestDevnet;
let down: OutageProxy;
let work: Workspace;

beforeAll(async () => {
  [devnet, down, work] = await Promise.all([startTestDevnet({ seed: SEED, blocks: BLOCKS }), startOutageProxy(), makeWorkspace('status')]);
});

afterAll(async () => {
  await devnet?.close();
  await down?.close();
  await work?.remove();
});

/** A cron pipeline (no start) of the light streams; the key is named, and given only where `withKey`. */
async function pipeline(name: string, url: string, kind: SinkKind, sinkPath: string): Promise<string> {
  const file = join(work.dir, `${name}.yaml`);
  const lines = ['network: mainnet', `base_url: ${url}`, `api_key_env: ${KEY_ENV}`, 'lag: { mc_blocks: 0 }', `streams: ${LIGHT_STREAMS_YAML}`];
  await writeFile(file, [...lines, `sink: { kind: ${kind}, path: ${JSON.stringify(sinkPath)} }`, ''].join('\n'));
  return file;
}

const withKey = { env: { [KEY_ENV]: KEY } };

/** Runs a command of the setup, with the key. */
async function setUp(args: readonly string[]): Promise<void> {
  const { code, stderr } = await runInProcess([...args, '--log-level', 'error'], { [KEY_ENV]: KEY });
  expect(code, stderr).toBe(0);
}
/** A command under test in process, without the key unless `options.env` gives it. */
const run = (args: readonly string[], options: { env?: Record<string, string> } = {}) => runInProcess(args, options.env ?? { [KEY_ENV]: undefined });
/** The binary, for the refusal whose exit code and whole stderr are those of the process. */
const spawned = (args: readonly string[]) => runCli(args, { cwd: work.dir, env: childEnv() });

describe.each<SinkKind>(['duckdb', 'parquet'])('status of a %s warehouse', (kind) => {
  const sinkPath = (): string => work.sinkPath(kind, `gap-${kind}`);
  /**
   * Each light stream's two covered ranges and the hole between them, with their times: on the utime
   * axis the positions', on the lt axis the earliest and latest time of the rows the warehouse holds in a range.
   */
  const expectedCoverage = (stream: (typeof LIGHT)[number], snapshot: Snapshot): Pick<StreamStatus, 'covered' | 'holes'> => {
    const at = (seqno: number): bigint => positionAt(mcBlock(devnet, seqno), stream);
    const timed = (from: bigint, to: bigint): ReportedRange => ({
      from: String(from),
      to: String(to),
      ...(stream.axis === 'utime' ? { from_time: iso(Number(from)), to_time: iso(Number(to)) } : rowTimes(snapshot.tables.get('jetton_transfers')!, 'tx_lt', 'tx_time', from, to)),
    });
    const hole = { from: String(at(GAP_FROM)), to: String(at(GAP_TO) - 1n) };
    return {
      covered: [timed(at(FIRST_MC), at(GAP_FROM) - 1n), timed(at(GAP_TO), tipPositionOf(tipBlock(devnet), stream))],
      holes: [{ ...hole, ...(stream.axis === 'utime' ? { from_time: iso(Number(hole.from)), to_time: iso(Number(hole.to)) } : { from_time: null, to_time: null }), next_sync_fills: false }],
    };
  };

  beforeAll(async () => {
    const file = await pipeline(`gap-${kind}`, devnet.url, kind, sinkPath());
    for (const range of [['--from', `mc:${FIRST_MC}`, '--to', `mc:${GAP_FROM}`], ['--from', `mc:${GAP_TO}`]]) await setUp(['backfill', file, ...range]);
  });

  it('a mistyped path or a path of the other kind: exit 2, "no warehouse at …", and nothing is created', async () => {
    const typo = join(work.dir, kind === 'duckdb' ? 'wharehouse.duckdb' : 'wharehouse-parquet');
    const file = await pipeline(`typo-${kind}`, down.url, kind, typo);
    const [files, requests] = [await readdir(work.dir), down.received()];
    const result = await spawned(['status', file]);
    expect(result.code, describeResult(result)).toBe(2);
    expect(messageLines(result.stderr)).toEqual([`chain-etl: no warehouse at ${typo}: check sink.path (or --out); status creates nothing`]);
    expect(result.stdout).toBe('');
    expect(existsSync(typo)).toBe(false);
    expect(await readdir(work.dir)).toEqual(files);
    expect(down.received()).toBe(requests);

    // A folder where a DuckDB file belongs, a file where a Parquet folder does.
    const other = kind === 'duckdb' ? work.dir : file;
    const wrongKind = await run(['status', file, '--out', other]);
    expect(wrongKind.code, describeResult(wrongKind)).toBe(2);
    const [is, want] = kind === 'duckdb' ? ['a folder', 'a DuckDB warehouse is a file'] : ['a file', 'a Parquet warehouse is a folder'];
    expect(messageLines(wrongKind.stderr)).toEqual([`chain-etl: no warehouse at ${other}: it is ${is}, and ${want}; check sink.kind and sink.path (or --sink, --out)`]);
    expect(await readdir(work.dir)).toEqual(files);
  });

  it('no key and the API down: four requests (three retries), then the warehouse with its coverage and hole, the tip unknown; --offline: none', async () => {
    const file = await pipeline(`down-${kind}`, down.url, kind, sinkPath());
    const snapshot = await readWarehouse(kind, sinkPath(), { partial: true, glob: false });
    const before = down.received();
    const json = await run(['status', file, '--json']);
    expect(json.code, describeResult(json)).toBe(0);
    // The head's first attempt and its three retries, within the budget; nothing after it.
    expect(down.received() - before).toBe(4);
    const report = JSON.parse(json.stdout) as StatusJson;
    expect(report.tip).toEqual({ error: expect.stringMatching(/^GET \/api\/v3\/masterchainInfo failed after 4 attempts: HTTP 503/) as unknown });
    expect(report.streams).toEqual(
      LIGHT.map((stream) => ({
        stream: stream.name,
        axis: stream.axis,
        checkpoint: String(tipPositionOf(tipBlock(devnet), stream)),
        behind: null,
        behind_blocks: null,
        behind_seconds: null,
        ...expectedCoverage(stream, snapshot),
        error: null,
      })),
    );
    for (const [table, rows] of Object.entries(report.tables!)) expect(rows, table).toBe(snapshot.tables.get(table)?.length ?? 0);

    const offline = await run(['status', file, '--json', '--offline']);
    expect(offline.code, describeResult(offline)).toBe(0);
    expect(down.received() - before).toBe(4);
    expect((JSON.parse(offline.stdout) as StatusJson).tip).toEqual({ error: 'offline' });
    expect((JSON.parse(offline.stdout) as StatusJson).streams).toEqual(report.streams);
  });

  it('shows the last runs with their new and replaced rows apart, as _etl_runs holds them, in text and --json (rows as objects, times ISO)', async () => {
    const file = await pipeline(`gap-${kind}`, devnet.url, kind, sinkPath());
    const snapshot = await readWarehouse(kind, sinkPath(), { partial: true, glob: false });
    const recorded = snapshot.runs
      .map((r) => ({ command: r.command, status: r.status, started_at: iso(r.started_at), ended_at: iso(r.ended_at!), rows: JSON.parse(r.rows) as unknown, rows_replaced: JSON.parse(r.rows_replaced!) as unknown, error: null }))
      .sort((a, b) => b.started_at.localeCompare(a.started_at));
    expect(recorded).toHaveLength(2);
    expect(recorded.map(({ rows }) => Object.values(rows as Record<string, number>).some((n) => n > 0))).toEqual([true, true]);
    const json = await run(['status', file, '--json', '--offline']);
    expect(json.code, describeResult(json)).toBe(0);
    const { runs } = JSON.parse(json.stdout) as StatusJson;
    // Two runs of one second sort either way.
    expect([...runs!].sort((a, b) => b.started_at.localeCompare(a.started_at) || a.ended_at!.localeCompare(b.ended_at!))).toEqual(
      [...recorded].sort((a, b) => b.started_at.localeCompare(a.started_at) || a.ended_at.localeCompare(b.ended_at)),
    );
    const text = await run(['status', file, '--offline']);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines.slice(lines.indexOf('last runs') + 1).sort()).toEqual(
      recorded.map((r) => `  ${utcTime(Date.parse(r.started_at) / 1000)}  backfill ok          new rows ${JSON.stringify(r.rows)} replaced ${JSON.stringify(r.rows_replaced)}`).sort(),
    );
  });

  it('--json is one shape: every time ISO 8601 UTC, every value typed (no JSON text inside it), the writer null', async () => {
    const file = await pipeline(`gap-${kind}`, devnet.url, kind, sinkPath());
    const result = await run(['status', file, '--json'], withKey);
    expect(result.code, describeResult(result)).toBe(0);
    const report = JSON.parse(result.stdout) as StatusJson;
    expect(Object.keys(report)).toEqual(['pipeline', 'sink', 'tip', 'writing', 'streams', 'tables', 'rejects', 'runs']);
    const tip = tipBlock(devnet);
    expect(report.tip).toEqual({ seqno: tip.seqno, end_lt: String(tip.endLt), utime: tip.utime, time: iso(tip.utime) });
    expect(report.writing).toBeNull();
    const times = [
      ...report.runs!.flatMap((r) => [r.started_at, r.ended_at]),
      ...report.streams.flatMap((s) => [...s.covered!, ...s.holes].flatMap((r) => [r.from_time, r.to_time])),
    ];
    expect(times.filter((time) => time !== null)).toHaveLength(2 * 2 + 2 * 2 * 2 + 2);
    for (const time of times) if (time !== null) expect(time).toMatch(ISO);
    for (const r of report.runs!) {
      expect(r.ended_at).toMatch(ISO);
      expect(typeof r.rows, JSON.stringify(r)).toBe('object');
      expect(typeof r.rows_replaced, JSON.stringify(r)).toBe('object');
    }
  });

  it('names the hole a backfill with a gap leaves, not only "0 behind", dates it and the covered ranges; the backfill it prints fills it', async () => {
    const file = await pipeline(`gap-${kind}`, devnet.url, kind, sinkPath());
    const snapshot = await readWarehouse(kind, sinkPath(), { partial: true, glob: false });
    const text = await run(['status', file], withKey);
    expect(text.code, describeResult(text)).toBe(0);
    const lines = text.stdout.split('\n');
    const fills: string[][] = [];
    for (const stream of LIGHT) {
      const { covered, holes } = expectedCoverage(stream, snapshot);
      const unit = stream.axis === 'lt' ? 'lt' : 's';
      const at = lines.findIndex((line) => line.startsWith(`${stream.name} `));
      expect(lines[at]!.split(/\s+/), stream.name).toEqual([stream.name, String(tipPositionOf(tipBlock(devnet), stream)), '0', unit, '(0', 'blocks,', '0s),', '1', 'hole', '(below)']);
      const people = (time: string | null): string => utcTime(Date.parse(time!) / 1000);
      expect(lines[at + 1]).toBe(`  covered ${covered!.map((r) => `${r.from}..${r.to} (${people(r.from_time)}..${people(r.to_time)})`).join(', ')}`);
      // On the lt axis a hole lies after the last row of the range before it and before the first of the one after.
      const dated = stream.axis === 'utime' ? `${people(holes[0]!.from_time)}..${people(holes[0]!.to_time)}` : `after ${people(covered![0]!.to_time)}, before ${people(covered![1]!.from_time)}`;
      const hole = new RegExp(`^  hole ${holes[0]!.from}\\.\\.${holes[0]!.to} \\(${dated.replaceAll('.', '\\.')}\\) not loaded; fill it: chain-etl backfill ${file} (--from \\S+ --to \\S+)$`);
      expect(lines[at + 2]).toMatch(hole);
      fills.push(hole.exec(lines[at + 2]!)![1]!.split(' '));
    }
    // One printed backfill fills both holes: the streams' holes span the same masterchain blocks, whose
    // times are distinct. The DuckDB case runs the lt one, the Parquet case the dated one.
    const filled = await run(['backfill', file, ...fills[kind === 'duckdb' ? 0 : 1]!], withKey);
    expect(filled.code, describeResult(filled)).toBe(0);
    const after = await readWarehouse(kind, sinkPath(), { partial: true, glob: false });
    const [tip, first] = [tipBlock(devnet), mcBlock(devnet, FIRST_MC)];
    for (const stream of LIGHT) expect(after.covered.get(stream.name), stream.name).toEqual([{ from: positionAt(first, stream), to: tipPositionOf(tip, stream) }]);
    expectLightStreamsAtTip(devnet, after);
  });
});

describe('status takes no writer lock', () => {
  it('reads a Parquet warehouse while a writer holds its lock', async () => {
    const sinkPath = work.sinkPath('parquet', 'gap-parquet');
    const writer = await holdDuckDBFile(join(sinkPath, LOCK_FILE));
    try {
      const result = await run(['status', await pipeline('locked-parquet', down.url, 'parquet', sinkPath), '--offline']);
      expect(result.code, describeResult(result)).toBe(0);
      expect(result.stdout).toContain('\nsettled tip: unknown (offline); distances to it are not shown\n');
    } finally {
      await writer.release();
    }
  });
});

describe('the distance to the tip', () => {
  it('counts the masterchain blocks and seconds a synced warehouse is behind once the chain grew', async () => {
    const growing = await startTestDevnet({ seed: SEED + 1, blocks: BLOCKS });
    try {
      const sinkPath = work.sinkPath('duckdb', 'behind');
      const file = await pipeline('behind', growing.url, 'duckdb', sinkPath);
      await setUp(['sync', file]);
      const synced = tipBlock(growing);
      growing.grow(3);
      const tip = tipBlock(growing);
      const result = await run(['status', file, '--json']);
      expect(result.code, describeResult(result)).toBe(0);
      const report = JSON.parse(result.stdout) as StatusJson;
      expect(report.tip).toMatchObject({ seqno: synced.seqno + 3 });
      const distances = report.streams.map((s) => [s.stream, s.behind_blocks, s.behind_seconds]);
      expect(distances).toEqual(LIGHT.map((stream) => [stream.name, 3, tip.utime - synced.utime]));
      expect(tip.utime - synced.utime).toBeGreaterThan(0);
    } finally {
      await growing.close();
    }
  });
});

describe('status without a key, at the keyless 1 request/s', () => {
  it('retries the 429 it meets while another client on the address uses the allowance, and prints the settled tip', async () => {
    // The devnet refuses keyless requests beyond 1/s per client address, as the public service does.
    let refused = 0;
    let neighbourRuns = true;
    const keyless = await startDevnet({
      seed: SEED,
      blocks: BLOCKS,
      onRequest: ({ path, status }) => {
        // status asks v3 only, the neighbour v2: the first refusal of status ends the neighbour's use.
        if (!path.startsWith('/api/v3/') || status !== 429) return;
        refused += 1;
        neighbourRuns = false;
      },
    });
    const sinkPath = work.sinkPath('duckdb', 'keyless');
    try {
      await setUp(['sync', await pipeline('keyless-setup', devnet.url, 'duckdb', sinkPath)]);
      const file = await pipeline('keyless', keyless.url, 'duckdb', sinkPath);
      const neighbour = keylessNeighbour(keyless.url, () => neighbourRuns);
      // The address's allowance is used up before status starts.
      await neighbour.refused;
      const result = await runCli(['status', file], { cwd: work.dir, env: childEnv() });
      neighbourRuns = false;
      await neighbour.done;
      expect(result.code, describeResult(result)).toBe(0);
      expect(refused, 'the devnet refused a request of status').toBeGreaterThan(0);
      const tip = tipBlock(keyless);
      expect(result.stdout.split('\n').slice(0, 2)).toEqual([`pipeline ${file} → duckdb ${sinkPath}`, `settled tip: masterchain ${tip.seqno}, lt ${tip.endLt}`]);
      expect(messageLines(result.stderr)).toEqual([]);
    } finally {
      neighbourRuns = false;
      await keyless.close();
    }
  });
});

/** Another keyless client on the same address, asking as fast as it is answered while `going`; `refused` once the devnet refused it (the allowance is used up). */
function keylessNeighbour(url: string, going: () => boolean): { refused: Promise<void>; done: Promise<void> } {
  let refusedOnce = (): void => undefined;
  const refused = new Promise<void>((resolve) => (refusedOnce = resolve));
  const done = (async () => {
    while (going()) {
      const answer = await fetch(`${url}/api/v2/getMasterchainInfo`);
      await answer.arrayBuffer();
      if (answer.status === 429) refusedOnce();
      await sleep(10);
    }
  })();
  return { refused, done };
}
