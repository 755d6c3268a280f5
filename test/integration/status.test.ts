/**
 * `status` from the user's side, both sinks: it reads only (a mistyped path is refused with exit 2
 * and nothing is created; a running writer's Parquet lock does not stop it), needs no API key, asks
 * a service that is down once and prints everything it knows with the tip unknown (`--offline`: no
 * request at all), and names the hole a backfill with a gap leaves, with the backfill that fills it.
 */
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamStatus } from '../../src/cli/stream-status.js';
import { LOCK_FILE } from '../../src/load/parquet-layout.js';
import { childEnv, runCli } from '../support/cli.js';
import { holdDuckDBFile } from '../support/lock-holder.js';
import { runInProcess } from '../support/cli-in-process.js';
import { mcBlock, positionAt, tipBlock, tipPositionOf } from '../support/chain-points.js';
import { describeResult, messageLines } from '../support/cli-result.js';
import { FIRST_MC, startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { KEY, KEY_ENV } from '../support/test-key.js';
import { readWarehouse } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';
import { LIGHT_STREAMS, LIGHT_STREAMS_YAML, expectLightStreamsAtTip } from '../support/light-streams.js';
import { startOutageProxy, type OutageProxy } from '../support/outage-proxy.js';

const SEED = 6502;
const BLOCKS = 40;
const LIGHT = LIGHT_STREAMS;
/** The backfills leave out [GAP_FROM, GAP_TO) of the chain. */
const GAP_FROM = FIRST_MC + 12;
const GAP_TO = FIRST_MC + 24;

interface StatusJson {
  tip: { seqno: number } | { error: string };
  streams: StreamStatus[];
  tables: Record<string, number>;
  runs: { started_at: string; command: string; status: string; rows: string; rows_replaced: string | null }[];
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
  /** Each light stream's two covered ranges and the hole between them. */
  const expectedCoverage = (stream: (typeof LIGHT)[number]): Pick<StreamStatus, 'covered' | 'holes'> => {
    const at = (seqno: number): bigint => positionAt(mcBlock(devnet, seqno), stream);
    return {
      covered: [
        { from: String(at(FIRST_MC)), to: String(at(GAP_FROM) - 1n) },
        { from: String(at(GAP_TO)), to: String(tipPositionOf(tipBlock(devnet), stream)) },
      ],
      holes: [{ from: String(at(GAP_FROM)), to: String(at(GAP_TO) - 1n), next_sync_fills: false }],
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

  it('no key and the API down: one request, then the warehouse with its coverage and hole, the tip unknown; --offline: none', async () => {
    const file = await pipeline(`down-${kind}`, down.url, kind, sinkPath());
    const snapshot = await readWarehouse(kind, sinkPath(), { partial: true, glob: false });
    const before = down.received();
    const json = await run(['status', file, '--json']);
    expect(json.code, describeResult(json)).toBe(0);
    // One attempt at the head, no retry: the tip is asked once.
    expect(down.received() - before).toBe(1);
    const report = JSON.parse(json.stdout) as StatusJson;
    expect(report.tip).toEqual({ error: expect.stringMatching(/^GET \/api\/v3\/masterchainInfo .*503/) as unknown });
    expect(report.streams).toEqual(
      LIGHT.map((stream) => ({
        stream: stream.name,
        axis: stream.axis,
        checkpoint: String(tipPositionOf(tipBlock(devnet), stream)),
        behind: null,
        behind_blocks: null,
        behind_seconds: null,
        ...expectedCoverage(stream),
      })),
    );
    for (const [table, rows] of Object.entries(report.tables)) expect(rows, table).toBe(snapshot.tables.get(table)?.length ?? 0);

    const offline = await run(['status', file, '--json', '--offline']);
    expect(offline.code, describeResult(offline)).toBe(0);
    expect(down.received() - before).toBe(1);
    expect((JSON.parse(offline.stdout) as StatusJson).tip).toEqual({ error: 'offline' });
    expect((JSON.parse(offline.stdout) as StatusJson).streams).toEqual(report.streams);
  });

  it('shows the last runs with their new and replaced rows apart, as _etl_runs holds them, in text and --json', async () => {
    const file = await pipeline(`gap-${kind}`, devnet.url, kind, sinkPath());
    const snapshot = await readWarehouse(kind, sinkPath(), { partial: true, glob: false });
    const recorded = snapshot.runs.map((r) => [r.command, r.status, JSON.parse(r.rows) as unknown, JSON.parse(r.rows_replaced!) as unknown]);
    expect(recorded).toHaveLength(2);
    expect(recorded.map(([, , rows]) => Object.values(rows as Record<string, number>).some((n) => n > 0))).toEqual([true, true]);
    const json = await run(['status', file, '--json', '--offline']);
    expect(json.code, describeResult(json)).toBe(0);
    const { runs } = JSON.parse(json.stdout) as StatusJson;
    const sorted = (list: unknown[][]): string[] => list.map((entry) => JSON.stringify(entry)).sort();
    expect(sorted(runs.map((r) => [r.command, r.status, JSON.parse(r.rows) as unknown, JSON.parse(r.rows_replaced!) as unknown]))).toEqual(sorted(recorded));
    const text = await run(['status', file, '--offline']);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines.slice(lines.indexOf('last runs') + 1).sort()).toEqual(
      runs.map((r) => `  ${r.started_at}  backfill ok          new rows ${r.rows} replaced ${r.rows_replaced!}`).sort(),
    );
  });

  it('names the hole a backfill with a gap leaves, not only "0 behind"; the backfill it prints fills it', async () => {
    const file = await pipeline(`gap-${kind}`, devnet.url, kind, sinkPath());
    const text = await run(['status', file], withKey);
    expect(text.code, describeResult(text)).toBe(0);
    const lines = text.stdout.split('\n');
    const fills: string[][] = [];
    for (const stream of LIGHT) {
      const { covered, holes } = expectedCoverage(stream);
      const unit = stream.axis === 'lt' ? 'lt' : 's';
      const at = lines.findIndex((line) => line.startsWith(`${stream.name} `));
      expect(lines[at]!.split(/\s+/), stream.name).toEqual([stream.name, String(tipPositionOf(tipBlock(devnet), stream)), '0', unit, '(0', 'blocks,', '0s),', '1', 'hole', '(below)']);
      expect(lines[at + 1]).toBe(`  covered ${covered!.map((r) => `${r.from}..${r.to}`).join(', ')}`);
      const hole = new RegExp(`^  hole ${holes[0]!.from}\\.\\.${holes[0]!.to} not loaded; fill it: chain-etl backfill ${file} (--from \\S+ --to \\S+)$`);
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
