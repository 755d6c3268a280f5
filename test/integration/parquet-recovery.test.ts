/**
 * Recovery never destroys data, from the user's side (the CLI in process, one refusal as the binary, against a devnet): a
 * deleted manifest is refused and every data file stays; files chain-etl did not write are kept; a
 * damaged file of any table is refused by name, and `chain-etl repair` sets it aside and fetches its
 * range again until the warehouse equals the chain; a reader's file list outlives a sync that
 * supersedes it by the grace period.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { copyFile, mkdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { etlRejects, etlRuns } from '../../src/core/bookkeeping.js';
import { readManifest, type Manifest } from '../../src/load/parquet/manifest.js';
import { manifestViewsSql } from '../../src/load/parquet/views.js';
import { streams } from '../../src/streams/index.js';
import { positionTables } from '../support/position-tables.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { runCli } from '../support/cli.js';
import { describeResult, messageLines, type CliResult } from '../support/cli-result.js';
import { expectedWarehouse } from '../support/expected-rows.js';
import { NO_MISMATCH, describeDiff, diffWarehouse, mismatch } from '../support/row-diff.js';
import { FIRST_MC } from '../support/test-devnet.js';
import { KEY } from '../support/test-key.js';
import { dataFilesOnDisk, readWarehouse } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';

const SEED = 6262;
const BLOCKS = 60;

let work: Workspace;
let devnet: Devnet;

beforeAll(async () => {
  work = await makeWorkspace('recovery');
  devnet = await startDevnet({ seed: SEED, blocks: BLOCKS, keys: new Map([[KEY, 'mainnet']]), keyRps: 1000 });
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

const run = (...args: string[]): Promise<CliResult> => runCliInProcess(args);
/** The binary, for the refusal whose exit code and whole stderr are those of the process. */
const spawned = (...args: string[]): Promise<CliResult> => runCli(args, { cwd: work.dir });

/** A pipeline of all streams from masterchain block `startMc` (@default FIRST_MC), synced once. */
async function syncedWarehouse(
  kind: SinkKind,
  label: string,
  options: { retainSupersededMinutes?: number; startMc?: number; chain?: Devnet } = {},
): Promise<{ pipeline: string; sinkPath: string }> {
  const sinkPath = work.sinkPath(kind, label);
  const pipeline = await work.pipeline({ url: (options.chain ?? devnet).url, kind, sinkPath, name: `${label}-${kind}.yaml`, retainSupersededMinutes: options.retainSupersededMinutes });
  if (options.startMc !== undefined) await writeFile(pipeline, (await readFile(pipeline, 'utf8')).replace(`start: { mc_seqno: ${FIRST_MC} }`, `start: { mc_seqno: ${options.startMc} }`));
  const result = await run('sync', pipeline);
  expect(result.code, describeResult(result)).toBe(0);
  return { pipeline, sinkPath };
}

function expectOk(result: CliResult): void {
  expect(result.code, describeResult(result)).toBe(0);
}

function expectRefused(result: CliResult): string {
  expect(result.code, describeResult(result)).toBe(2);
  const lines = messageLines(result.stderr);
  expect(lines, result.stderr).toHaveLength(1);
  return lines[0]!;
}

/** Every stream covers one range, and every table holds exactly the devnet's rows of it. */
async function expectEqualsTruth(kind: SinkKind, sinkPath: string, chain: Devnet = devnet): Promise<void> {
  const snapshot = await readWarehouse(kind, sinkPath, { glob: false });
  for (const stream of streams) expect(snapshot.covered.get(stream.name), stream.name).toHaveLength(1);
  const expected = expectedWarehouse(chain, (stream) => snapshot.covered.get(stream.name)![0]!);
  for (const diff of diffWarehouse(expected, snapshot.tables)) expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
  expect([...expected.values()].reduce((sum, rows) => sum + rows.length, 0)).toBeGreaterThan(1000);
}

/** An analyst's notebook holding one manifest's file list: counts every table through it. */
async function readerOf(sinkPath: string, manifest: Manifest): Promise<{ count: () => Promise<number[]>; close: () => void }> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run(manifestViewsSql(sinkPath, manifest, [...positionTables, etlRuns, etlRejects]));
  return {
    count: async () => {
      const counts: number[] = [];
      for (const table of positionTables) counts.push(Number((await connection.runAndReadAll(`SELECT count(*) FROM "${table.name}"`)).getRows()[0]![0]));
      return counts;
    },
    close: () => {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

describe('Parquet recovery from the user side', () => {
  it('a deleted or damaged manifest: exit 2 naming it, and every data file stays', async () => {
    const { pipeline, sinkPath } = await syncedWarehouse('parquet', 'no-manifest');
    const manifest = join(sinkPath, '_manifest.json');
    const files = await dataFilesOnDisk(sinkPath);
    expect(files.length).toBeGreaterThan(10);
    const text = await readFile(manifest, 'utf8');
    await rm(manifest);
    for (const command of ['status', 'sync', 'repair']) {
      expect(expectRefused(await run(command, pipeline))).toMatch(
        new RegExp(`^chain-etl: Parquet warehouse ${sinkPath} holds data files \\(e\\.g\\. [^ ]+\\.parquet\\) but no _manifest\\.json, which alone says which of them are current; ` +
          'chain-etl changes nothing in the folder: restore _manifest\\.json from a backup, or point sink\\.path \\(or --out\\) at a new folder and load the data again$'),
      );
      expect(await dataFilesOnDisk(sinkPath), command).toEqual(files);
    }
    await writeFile(manifest, text.slice(0, text.length / 2));
    expect(expectRefused(await spawned('sync', pipeline))).toMatch(
      new RegExp(`^chain-etl: Parquet manifest ${manifest} is damaged: it is not valid JSON \\(.+\\); chain-etl changes nothing in the folder: `),
    );
    expect(await dataFilesOnDisk(sinkPath)).toEqual(files);
    await writeFile(manifest, text);
    expectOk(await run('sync', pipeline));
  });

  it('files and folders chain-etl did not write are kept through a sync, which warns of foreign Parquet files', async () => {
    const { pipeline, sinkPath } = await syncedWarehouse('parquet', 'foreign');
    const listed = (await readManifest(sinkPath))!.tables['transactions']!.files[0]!.path;
    const foreign = ['transactions/mine.parquet', `${listed.split('/').slice(0, 2).join('/')}/extract.parquet`, 'transactions/backup/part-000000000099-0000.parquet'];
    for (const path of foreign) {
      await mkdir(join(sinkPath, path, '..'), { recursive: true });
      await copyFile(join(sinkPath, listed), join(sinkPath, path));
    }
    await writeFile(join(sinkPath, 'transactions/NOTES.md'), 'mine');
    const result = await run('sync', pipeline);
    expectOk(result);
    for (const path of [...foreign, 'transactions/NOTES.md']) await expect(stat(join(sinkPath, path)), path).resolves.toBeDefined();
    const warning = result.stderr.split('\n').find((line) => line.includes('did not write'));
    expect(JSON.parse(warning!)).toMatchObject({ level: 40, count: 2, files: [foreign[1], foreign[0]].sort() });
    await expectEqualsTruth('parquet', sinkPath);
  });

  it('a damaged file of every table: exit 2 naming it; repair sets them aside and fetches their ranges again, the warehouse equals the chain', async () => {
    // 200 blocks: a validation cycle and an election reach the range only every 100 blocks, and every
    // table needs a file. Starting after midnight: the day a validator-events file held begins before
    // the warehouse does.
    const chain = await startDevnet({ seed: SEED, blocks: 200, keys: new Map([[KEY, 'mainnet']]), keyRps: 1000 });
    onTestFinished(() => chain.close());
    const { pipeline, sinkPath } = await syncedWarehouse('parquet', 'damaged', { startMc: FIRST_MC + 5, chain });
    const before = await readWarehouse('parquet', sinkPath, { glob: false });
    const manifest = (await readManifest(sinkPath))!;
    const damaged: string[] = [];
    const damages = [
      (path: string) => stat(path).then(({ size }) => truncate(path, Math.floor(size / 2))),
      (path: string) => truncate(path, 0),
      async (path: string) => writeFile(path, Buffer.concat([await readFile(path).then((bytes) => bytes.subarray(0, -4)), Buffer.from('XXXX')])),
    ];
    for (const table of streams.flatMap((stream) => stream.tables)) {
      const files = manifest.tables[table.name]!.files;
      expect(files.length, table.name).toBeGreaterThan(0);
      const file = files[Math.floor(files.length / 2)]!;
      await damages[damaged.length % damages.length]!(join(sinkPath, file.path));
      damaged.push(file.path);
    }
    const line = expectRefused(await run('sync', pipeline));
    expect(line).toMatch(
      new RegExp(`^chain-etl: Parquet file ${join(sinkPath, damaged[0]!)} is damaged \\(\\d+ bytes, the manifest recorded \\d+\\) \\(and ${damaged.length - 1} more: .+\\): ` +
        'run chain-etl repair with this pipeline; it moves damaged files to _damaged/ and fetches their rows again$'),
    );

    const repaired = await run('repair', pipeline);
    expectOk(repaired);
    for (const path of damaged) await expect(stat(join(sinkPath, '_damaged', path)), path).resolves.toBeDefined();
    const after = await readWarehouse('parquet', sinkPath, { glob: false });
    expect(after.checkpoints).toEqual(before.checkpoints);
    expect(after.covered).toEqual(before.covered);
    await expectEqualsTruth('parquet', sinkPath, chain);
    expect(after.runs.map((r) => [r.command, r.status])).toContainEqual(['repair', 'ok']);
  });

  it('a reader holding the manifest file list keeps reading through a sync that supersedes its files (10 minutes of grace)', async () => {
    const { pipeline, sinkPath } = await syncedWarehouse('parquet', 'reader', { retainSupersededMinutes: 10 });
    const first = (await readManifest(sinkPath))!;
    const reader = await readerOf(sinkPath, first);
    try {
      const counts = await reader.count();
      // Every sync re-reads the actions overlap and rewrites the files of the traces it finds.
      expectOk(await run('sync', pipeline));
      const second = (await readManifest(sinkPath))!;
      const oldFiles = Object.values(first.tables).flatMap((entry) => entry.files.map((file) => file.path));
      const retired = new Set(second.retired.map((file) => file.path));
      const superseded = oldFiles.filter((path) => retired.has(path));
      expect(superseded.filter((path) => path.startsWith('actions/'))).toHaveLength(1);
      for (const path of superseded) await expect(stat(join(sinkPath, path)), path).resolves.toBeDefined();
      expect(await reader.count()).toEqual(counts);
      // With no grace the same sync deletes what the reader's list names.
      await writeFile(pipeline, (await readFile(pipeline, 'utf8')).replace('retain_superseded_minutes: 10', 'retain_superseded_minutes: 0'));
      expectOk(await run('sync', pipeline));
      await expect(reader.count()).rejects.toThrow(/No files found|No such file|IO Error/);
    } finally {
      reader.close();
    }
  });
});

describe('DuckDB: repair has no files to set aside', () => {
  it('exits 0 and the warehouse still equals the chain', async () => {
    const { pipeline, sinkPath } = await syncedWarehouse('duckdb', 'repair');
    expectOk(await run('repair', pipeline));
    await expectEqualsTruth('duckdb', sinkPath);
  });
});
