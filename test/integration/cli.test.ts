/**
 * The CLI around a run: `status` (text and --json) reports the warehouse's real checkpoints, row
 * counts and runs; a second writer is refused with exit 3 naming the holder; an unknown stream in a
 * pipeline file exits 2 with the nearest name suggested. `status` runs in process; the lock and the
 * pipeline error are judged on the binary as a child process (its pid, exit code and whole stderr).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { positionTime } from '../../src/cli/range-times.js';
import { utcTime } from '../../src/core/utc-time.js';
import type { StreamDefinition } from '../../src/core/stream.js';
import { LOCK_FILE } from '../../src/load/parquet/layout.js';
import { streams } from '../../src/streams/index.js';
import { STREAM_LIST } from '../support/stream-names.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { mcBlock, positionAt, tipBlock, tipPositionOf } from '../support/chain-points.js';
import { runCli, spawnCli } from '../support/cli.js';
import { startGateProxy } from '../support/gate-proxy.js';
import { describeResult, messageLines } from '../support/cli-result.js';
import { expectedStreamRows } from '../support/expected-rows.js';
import { FIRST_MC, startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { readWarehouse, type Snapshot } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';

const SEED = 31337;
const BLOCKS = 100;

let devnet: TestDevnet;
let work: Workspace;

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: SEED, blocks: BLOCKS, latencyMs: 30 });
  work = await makeWorkspace('cli');
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

interface StatusJson {
  pipeline: string;
  sink: { kind: string; path: string; retainSupersededMinutes: number; compactAfterFiles: number; waitForReadersSeconds: number };
  tip: { seqno: number; end_lt: string; utime: number; time: string };
  streams: { stream: string; axis: string; checkpoint: string | null; behind: string | null; behind_blocks: number | null; behind_seconds: number | null; covered: unknown[]; holes: unknown[]; error: string | null }[];
  tables: Record<string, number>;
  rejects: number;
  runs: { command: string; status: string; started_at: string; ended_at: string | null; rows: unknown; error: string | null }[];
}

const iso = (utime: number): string => new Date(utime * 1000).toISOString().replace('.000Z', 'Z');

/**
 * The times status gives a stream's range [from, to]: on the utime axis its bounds'; on the lt axis
 * the earliest and latest time of the rows of the stream's own table in it.
 */
function rangeTimes(snapshot: Snapshot, stream: StreamDefinition, from: bigint, to: bigint): { from_time: string; to_time: string } {
  if (stream.axis === 'utime') return { from_time: iso(Number(from)), to_time: iso(Number(to)) };
  const { table, position, time } = positionTime(stream)!;
  const times = snapshot.tables.get(table.name)!.filter((row) => (row[position] as bigint) >= from && (row[position] as bigint) <= to).map((row) => row[time] as number);
  expect(times.length, stream.name).toBeGreaterThan(0);
  return { from_time: iso(Math.min(...times)), to_time: iso(Math.max(...times)) };
}

/** DuckDB with every stream; Parquet (the same report read through the manifest's views) with two light ones. */
const STATUS_CASES: [SinkKind, readonly string[]][] = [
  ['duckdb', streams.map((s) => s.name)],
  ['parquet', ['jetton_transfers', 'validator_events']],
];

describe.each(STATUS_CASES)('status of a %s warehouse of %j', (kind, names) => {
  it('prints the checkpoints, the rows per table and the runs; --json gives the same numbers', async () => {
    const sinkPath = work.sinkPath(kind, 'status');
    const selected = streams.filter((s) => names.includes(s.name));
    const pipeline = await work.pipeline({ url: devnet.url, kind, sinkPath, streams: names, name: `status-${kind}.yaml` });
    const synced = await runCliInProcess(['sync', pipeline]);
    expect(synced.code, describeResult(synced)).toBe(0);
    const snapshot = await readWarehouse(kind, sinkPath);
    const tip = tipBlock(devnet);
    const first = mcBlock(devnet, FIRST_MC);
    const counts: Record<string, number> = { addresses: snapshot.tables.get('addresses')!.length };
    const runRows: Record<string, number> = {};
    for (const stream of selected) {
      const expected = expectedStreamRows(devnet, stream, { from: positionAt(first, stream), to: tipPositionOf(tip, stream) });
      runRows[stream.name] = 0;
      for (const [table, rows] of expected) {
        expect(rows.length, table).toBeGreaterThan(0);
        counts[table] = rows.length;
        runRows[stream.name] = runRows[stream.name]! + rows.length;
      }
    }
    expect(counts.addresses).toBeGreaterThan(0);
    // The warehouse holds exactly these numbers of rows.
    for (const [table, count] of Object.entries(counts)) expect(snapshot.tables.get(table)!.length, table).toBe(count);

    const text = await runCliInProcess(['status', pipeline]);
    expect(text.code, describeResult(text)).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toBe(`pipeline ${pipeline} → ${kind} ${sinkPath}`);
    expect(lines).toContain(`settled tip: masterchain ${tip.seqno}, lt ${tip.endLt}`);
    for (const stream of selected) {
      const line = lines.find((l) => l.startsWith(`${stream.name} `) && l.trim().split(/\s+/).length === 7);
      expect(line?.trim().split(/\s+/), stream.name).toEqual([stream.name, String(tipPositionOf(tip, stream)), '0', stream.axis === 'lt' ? 'lt' : 's', '(0', 'blocks,', '0s)']);
      const times = rangeTimes(snapshot, stream, positionAt(first, stream), tipPositionOf(tip, stream));
      const people = (time: string): string => utcTime(Date.parse(time) / 1000);
      expect(lines[lines.indexOf(line!) + 1], stream.name).toBe(`  covered ${positionAt(first, stream)}..${tipPositionOf(tip, stream)} (${people(times.from_time)}..${people(times.to_time)})`);
    }
    for (const [table, count] of Object.entries(counts)) {
      const line = lines.find((l) => l.startsWith(`${table} `) && l.trim().split(/\s+/).length === 2);
      expect(line?.trim().split(/\s+/), table).toEqual([table, String(count)]);
    }
    expect(lines.find((l) => l.startsWith('_etl_rejects'))?.trim().split(/\s+/)).toEqual(['_etl_rejects', '0']);
    const runs = lines.slice(lines.indexOf('last runs') + 1).filter((l) => l.trim() !== '');
    expect(runs).toHaveLength(1);
    const shown = /^ {2}(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) UTC {2}sync {5}ok {10}new rows (\{.*\}) replaced (\{.*\})$/.exec(runs[0]!);
    expect(shown, runs[0]).not.toBeNull();
    expect(`${shown![1]!} UTC`).toBe(utcTime(snapshot.runs[0]!.started_at));
    // A first sync replaces nothing: every row it committed is new.
    expect([JSON.parse(shown![2]!), JSON.parse(shown![3]!)]).toEqual([runRows, Object.fromEntries(Object.keys(runRows).map((stream) => [stream, 0]))]);

    const json = await runCliInProcess(['status', pipeline, '--json']);
    expect(json.code, describeResult(json)).toBe(0);
    expect(json.stdout.trim().split('\n')).toHaveLength(1);
    const report = JSON.parse(json.stdout) as StatusJson;
    // The test pipelines keep no superseded Parquet files (pipelineYaml); the default is 10 minutes.
    expect(report.sink).toEqual({ kind, path: sinkPath, retainSupersededMinutes: kind === 'parquet' ? 0 : 10, compactAfterFiles: 8, waitForReadersSeconds: 30 });
    expect(report.tip).toEqual({ seqno: tip.seqno, end_lt: String(tip.endLt), utime: tip.utime, time: iso(tip.utime) });
    expect(report.streams).toEqual(
      selected.map((stream) => ({
        stream: stream.name,
        axis: stream.axis,
        checkpoint: String(tipPositionOf(tip, stream)),
        behind: '0',
        behind_blocks: 0,
        behind_seconds: 0,
        covered: [{ from: String(positionAt(first, stream)), to: String(tipPositionOf(tip, stream)), ...rangeTimes(snapshot, stream, positionAt(first, stream), tipPositionOf(tip, stream)) }],
        holes: [],
        error: null,
      })),
    );
    expect(report.tables).toEqual(counts);
    expect(report.rejects).toBe(0);
    expect(report.runs).toHaveLength(1);
    expect(report.runs[0]).toEqual({
      command: 'sync',
      status: 'ok',
      started_at: iso(snapshot.runs[0]!.started_at),
      ended_at: iso(snapshot.runs[0]!.ended_at!),
      rows: runRows,
      rows_replaced: Object.fromEntries(Object.keys(runRows).map((stream) => [stream, 0])),
      error: null,
    });
    // status only reads: the warehouse still holds one run and the same checkpoints.
    const after = await readWarehouse(kind, sinkPath, { glob: false });
    expect(after.runs).toHaveLength(1);
    expect(after.checkpoints).toEqual(snapshot.checkpoints);
  });
});

describe.each<SinkKind>(['duckdb', 'parquet'])('a second writer on a %s warehouse', (kind) => {
  it('exits 3 with a message naming the process holding the lock; the first run finishes unharmed', async () => {
    const sinkPath = work.sinkPath(kind, 'locked');
    // The warehouse is open (and locked) before the third request: the run asks for the head and the
    // tip's blocks while it opens the warehouse, and for anything more only after reading its
    // checkpoints. The gate holds that third request, and so the lock, until the second run is refused.
    const gate = await startGateProxy(devnet.url, 2);
    const light = ['jetton_transfers', 'validator_events'];
    const pipeline = await work.pipeline({ url: gate.url, kind, sinkPath, streams: light, name: `locked-${kind}.yaml` });
    const lockFile = kind === 'duckdb' ? sinkPath : join(sinkPath, LOCK_FILE);
    const holder = spawnCli(['sync', pipeline], { cwd: work.dir });
    let holderEnded = false;
    void holder.done.finally(() => (holderEnded = true));
    await gate.untilReceived(3);
    // Were the lock not taken, this run would wait at the gate too, and time out.
    const second = await runCli(['sync', pipeline], { cwd: work.dir, timeoutMs: 30_000 });
    expect(holderEnded, 'the first run waits at the gate').toBe(false);
    gate.release();
    expect(second.code, describeResult(second)).toBe(3);
    const message = messageLines(second.stderr);
    expect(message).toHaveLength(1);
    expect(message[0]).toContain(`Warehouse ${lockFile} is locked by process ${holder.pid} (`);
    expect(message[0]).toContain('only one writer may use it at a time');

    const first = await holder.done;
    await gate.close();
    expect(first.code, describeResult(first)).toBe(0);
    // The pipeline's streams write only some tables: the others read as empty.
    const snapshot = await readWarehouse(kind, sinkPath, { partial: true });
    expect(snapshot.runs.map((run) => [run.command, run.status])).toEqual([['sync', 'ok']]);
    const tip = tipBlock(devnet);
    for (const stream of streams.filter((s) => light.includes(s.name))) {
      expect(snapshot.checkpoints.get(stream.name), stream.name).toBe(tipPositionOf(tip, stream));
    }
    expect([...snapshot.checkpoints.keys()].sort()).toEqual([...light].sort());
  });
});

describe('a run without a terminal (cron)', () => {
  const light = ['jetton_transfers', 'validator_events'];

  it('prints nothing when it succeeds, so that cron mails only failures', async () => {
    const sinkPath = work.sinkPath('duckdb', 'quiet');
    const pipeline = await work.pipeline({ url: devnet.url, kind: 'duckdb', sinkPath, streams: light, name: 'quiet.yaml' });
    const result = await runCli(['sync', pipeline], { cwd: work.dir });
    expect(result.code, describeResult(result)).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('');
  });

  it('prints nothing either when more than ten requests wait on the run at once (concurrency 16)', async () => {
    const sinkPath = work.sinkPath('duckdb', 'crowded');
    const pipeline = await work.pipeline({ url: devnet.url, kind: 'duckdb', sinkPath, rate: { rps: 200, concurrency: 16 }, name: 'crowded.yaml' });
    const result = await runCli(['sync', pipeline], { cwd: work.dir });
    expect(result.code, describeResult(result)).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('');
  });

  it('--log-level info brings back a JSON line per stream and one for the run, with the rows committed', async () => {
    const sinkPath = work.sinkPath('duckdb', 'logged');
    const pipeline = await work.pipeline({ url: devnet.url, kind: 'duckdb', sinkPath, streams: light, name: 'logged.yaml' });
    const result = await runCli(['sync', pipeline, '--log-level', 'info'], { cwd: work.dir });
    expect(result.code, describeResult(result)).toBe(0);
    const lines = result.stderr.trimEnd().split('\n').map((line) => JSON.parse(line) as { msg: string; stream?: string; rows: unknown });
    const snapshot = await readWarehouse('duckdb', sinkPath, { partial: true });
    const stored = (name: string): number => streams.find((s) => s.name === name)!.tables.reduce((sum, table) => sum + (snapshot.tables.get(table.name)?.length ?? 0), 0);
    const expected = Object.fromEntries(light.map((name) => [name, stored(name)]));
    expect(Object.values(expected).every((rows) => rows > 0)).toBe(true);
    expect(lines.filter((line) => line.msg === 'stream done').map((line) => [line.stream, line.rows]).sort()).toEqual(Object.entries(expected).sort());
    expect(lines.filter((line) => line.msg === 'sync done').map((line) => line.rows)).toEqual([expected]);
  });
});

describe('pipeline errors', () => {
  it('sync with an unknown stream name exits 2, names the place in the file and suggests the nearest stream', async () => {
    const sinkPath = work.sinkPath('duckdb', 'typo');
    const pipeline = await work.pipeline({ url: devnet.url, kind: 'duckdb', sinkPath, streams: ['transactons', 'actions'], name: 'typo.yaml' });
    const result = await runCli(['sync', pipeline], { cwd: work.dir });
    expect(result.code, describeResult(result)).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `chain-etl: ${pipeline}:8:11: unknown stream "transactons": did you mean "transactions"? (streams: ${STREAM_LIST})`,
    ]);
    expect(result.stdout).toBe('');
    expect(existsSync(sinkPath)).toBe(false);
  });
});
