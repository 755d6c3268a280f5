/**
 * Readers of a DuckDB warehouse, from the user's side: a notebook's read-only connection holds a lock
 * that every write must wait for. A sync finding one waits (`sink.wait_for_readers_seconds`), saying
 * a reader holds the file, and completes once it closes; a reader that stays makes it exit 3 naming
 * the reader, with nothing written; another writer is still refused at once with its own message;
 * `status` reads beside the reader. (A Parquet warehouse has no reader lock: readers never block.)
 */
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdDuckDBFile } from '../support/lock-holder.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { runCli, spawnCli } from '../support/cli.js';
import { describeResult, messageLines } from '../support/cli-result.js';
import { sleep } from '../support/sleep.js';
import { FIRST_MC, startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { readWarehouse } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type Workspace } from '../support/workspace.js';
import { LIGHT_STREAMS, LIGHT_STREAMS_YAML, expectLightStreamsAtTip } from '../support/light-streams.js';
import { duckdbState } from '../support/warehouse-probe.js';

const SEED = 8086;
const BLOCKS = 40;

let devnet: TestDevnet;
let work: Workspace;
/** A warehouse synced to the devnet's first tip, copied by each test. */
let synced: string;

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: SEED, blocks: BLOCKS });
  work = await makeWorkspace('readers');
  const { file, sinkPath } = await pipeline('synced', 0);
  const first = await runCliInProcess(['sync', file]);
  expect(first.code, describeResult(first)).toBe(0);
  synced = sinkPath;
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

/** A pipeline of the two light streams into `<label>.duckdb`, waiting `wait` seconds for readers. */
async function pipeline(label: string, wait: number): Promise<{ file: string; sinkPath: string }> {
  const sinkPath = work.sinkPath('duckdb', label);
  const file = join(work.dir, `${label}.yaml`);
  await writeFile(
    file,
    [
      'network: mainnet',
      `base_url: ${devnet.url}`,
      'api_key_env: CHAIN_ETL_TEST_KEY',
      'rate: { rps: 500, concurrency: 4 }',
      `start: { mc_seqno: ${FIRST_MC} }`,
      'lag: { mc_blocks: 0 }',
      `streams: ${LIGHT_STREAMS_YAML}`,
      `sink: { kind: duckdb, path: ${JSON.stringify(sinkPath)}, wait_for_readers_seconds: ${wait} }`,
      '',
    ].join('\n'),
  );
  return { file, sinkPath };
}

/** `pipeline`, its warehouse a copy of the synced one. */
async function syncedCopy(label: string, wait: number): Promise<{ file: string; sinkPath: string }> {
  const made = await pipeline(label, wait);
  await copyFile(synced, made.sinkPath);
  return made;
}

describe('a DuckDB warehouse with readers', () => {
  it('a sync finding a reader waits, says a reader holds the file, and completes once it closes', async () => {
    const { file, sinkPath } = await syncedCopy('waits', 30);
    devnet.grow(3);
    const reader = await holdDuckDBFile(sinkPath, 'read-only');
    try {
      const sync = spawnCli(['sync', file], { cwd: work.dir });
      const said = `Warehouse ${sinkPath} is open for reading in process ${reader.pid} (`;
      let ended = false;
      void sync.done.finally(() => (ended = true));
      while (!sync.stderr().includes(said)) {
        if (ended) throw new Error(`the sync ended without saying a reader holds the file:\n${sync.stderr()}`);
        await sleep(100);
      }
      await reader.release();
      const result = await sync.done;
      expect(result.code, describeResult(result)).toBe(0);
      const warning = result.stderr.split('\n').find((line) => line.includes(said));
      expect(JSON.parse(warning!)).toMatchObject({ level: 40, path: sinkPath, waitForReadersSeconds: 30 });
      expect(JSON.parse(warning!).msg).toMatch(/, and DuckDB lets no run write a file while any other process has it open; waiting up to 30 s for it to close$/);
    } finally {
      await reader.release();
    }
    expectLightStreamsAtTip(devnet, await readWarehouse('duckdb', sinkPath, { partial: true }));
  });

  it('a reader that stays: exit 3 after wait_for_readers_seconds, naming the reader; nothing written; status still reads', async () => {
    const { file, sinkPath } = await syncedCopy('stays', 1);
    devnet.grow(2);
    const before = await duckdbState(sinkPath);
    const reader = await holdDuckDBFile(sinkPath, 'read-only');
    try {
      const result = await runCliInProcess(['sync', file]);
      expect(result.code, describeResult(result)).toBe(3);
      expect(messageLines(result.stderr)).toEqual([
        `chain-etl: Warehouse ${sinkPath} is open for reading in process ${reader.pid} (${process.execPath}), and DuckDB lets no run write a file ` +
          'while any other process has it open; waited 1 s for it to close: close that connection (a notebook, a DuckDB shell), or raise sink.wait_for_readers_seconds',
      ]);
      const status = await runCliInProcess(['status', file, '--offline', '--json']);
      expect(status.code, describeResult(status)).toBe(0);
      expect((JSON.parse(status.stdout) as { streams: { stream: string }[] }).streams.map((s) => s.stream)).toEqual(LIGHT_STREAMS.map((s) => s.name));
    } finally {
      await reader.release();
    }
    expect(await duckdbState(sinkPath)).toEqual(before);
  });

  it('another writer is refused at once with its own message, without waiting for readers', async () => {
    const { file, sinkPath } = await syncedCopy('writer', 30);
    const writer = await holdDuckDBFile(sinkPath, 'read-write');
    try {
      const result = await runCli(['sync', file], { cwd: work.dir });
      expect(result.code, describeResult(result)).toBe(3);
      expect(messageLines(result.stderr)).toEqual([
        `chain-etl: Warehouse ${sinkPath} is locked by process ${writer.pid} (${process.execPath}); only one writer may use it at a time. Wait for that run to finish or stop it.`,
      ]);
      expect(result.stderr).not.toContain('open for reading');
      // It did not wait the 30 s it would give readers.
      expect(result.ms).toBeLessThan(20_000);
    } finally {
      await writer.release();
    }
  });
});
