/**
 * Recovery never destroys data (issue 10, class 6), at the sink: a missing or damaged manifest is
 * refused and nothing in the folder changes; only files of the unpublished next generation and temp
 * files are deleted; damaged listed files are refused by name and can be set aside; superseded files
 * outlive the readers of an older manifest by the retention time.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import type { AnyTable } from '../../src/core/table.js';
import { readRows } from '../../src/load/engine/read.js';
import { readManifest } from '../../src/load/parquet/manifest.js';
import { ParquetSink, type ParquetSinkOptions } from '../../src/load/parquet/sink.js';
import { tableRows } from '../../src/core/stream.js';
import type { StreamCommit } from '../../src/load/sink.js';
import { DAY1, actions, transfer, transfers } from './tables.js';
import { useTempDir } from './temp-dir.js';

const tempDir = useTempDir('parquet-recovery');
const NOW = 1_700_000_000;
const TRANSFER_FILE = 'transfers/date=2024-01-01/part-000000000001-0000.parquet';

function batch(ns: readonly number[], comment = 'c', checkpoint = String(ns.at(-1))): StreamCommit {
  return { stream: 't', rows: new Map([tableRows(transfers, ns.map((n) => transfer(n, { comment })))]), checkpoint };
}

async function openSink(root: string, options: Partial<ParquetSinkOptions> = {}, tables: readonly AnyTable[] = [transfers, actions]): Promise<ParquetSink> {
  const sink = new ParquetSink({ path: root, now: () => NOW, ...options });
  await sink.open(tables);
  return sink;
}

/** A warehouse with one committed file of transfers (rows 1..3, checkpoint 3). */
async function warehouse(): Promise<string> {
  const root = await tempDir();
  const sink = await openSink(root);
  await sink.commitAll([batch([1, 2, 3])]);
  await sink.close();
  return root;
}

/** Every file under `root` with a hash of its bytes: equal snapshots mean nothing was changed. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.startsWith('_writer.lock')) continue;
    const path = join(entry.parentPath, entry.name);
    files[path.slice(root.length + 1)] = createHash('sha256').update(await readFile(path)).digest('hex');
  }
  return files;
}

async function refusal(root: string, options: Partial<ParquetSinkOptions> = {}): Promise<Error> {
  const error = await openSink(root, options).then(() => undefined, (err: unknown) => err);
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as ConfigError).exitCode).toBe(2);
  return error as Error;
}

function capturingLogger(): { logger: pino.Logger; lines: () => Record<string, unknown>[] } {
  const lines: string[] = [];
  const logger = pino({ level: 'warn', base: undefined }, { write: (line: string) => void lines.push(line) });
  return { logger, lines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

async function viewRows(sql: string): Promise<number> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run(sql);
    return (await readRows(connection, transfers)).length;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const WAY_OUT = 'chain-etl changes nothing in the folder: restore _manifest.json from a backup, or point sink.path (or --out) at a new folder and load the data again';

describe('a missing or damaged manifest is refused, never swept', () => {
  it('no manifest beside data files: exit 2 naming a file, and every file stays', async () => {
    const root = await warehouse();
    await rm(join(root, '_manifest.json'));
    const before = await snapshot(root);
    const error = await refusal(root);
    expect(error.message).toBe(
      `Parquet warehouse ${root} holds data files (e.g. ${TRANSFER_FILE}) but no _manifest.json, which alone says which of them are current; ${WAY_OUT}`,
    );
    expect(await snapshot(root)).toEqual(before);
    expect(before).toHaveProperty([TRANSFER_FILE]);
  });

  it('no manifest and no Parquet file (a new folder, or one with other files): a new warehouse', async () => {
    const root = await tempDir();
    await writeFile(join(root, 'README.txt'), 'mine');
    const sink = await openSink(root);
    await sink.close();
    expect(await readFile(join(root, 'README.txt'), 'utf8')).toBe('mine');
    expect((await readManifest(root))?.generation).toBe(0);
  });

  const damaged: readonly [string, (text: string) => string, string][] = [
    ['truncated', (text) => text.slice(0, Math.floor(text.length / 2)), 'is damaged: it is not valid JSON ('],
    ['empty', () => '', 'is damaged: it is empty;'],
    ['not JSON', () => 'garbage{', 'is damaged: it is not valid JSON ('],
    ['of another format', (text) => text.replace('"format": 1', '"format": 2'), 'is not a chain-etl manifest this release reads: ✖ Invalid input: expected 1 → at format;'],
    ['of another shape', (text) => text.replace('"tables"', '"tablez"'), 'is not a chain-etl manifest this release reads: ✖ Invalid input: expected record, received undefined → at tables;'],
    ['listing a file without a path', (text) => text.replace(`"path": "${TRANSFER_FILE}"`, '"path": 7'), 'is not a chain-etl manifest this release reads: ✖ Invalid input: expected string, received number → at tables.transfers.files[0].path;'],
  ];
  for (const [what, damage, says] of damaged) {
    it(`a manifest ${what}: exit 2 naming it, nothing changed`, async () => {
      const root = await warehouse();
      const path = join(root, '_manifest.json');
      await writeFile(path, damage(await readFile(path, 'utf8')));
      const before = await snapshot(root);
      const error = await refusal(root);
      expect(error.message).toContain(`Parquet manifest ${path} ${says}`);
      expect(error.message.endsWith(WAY_OUT)).toBe(true);
      expect(error.message).not.toContain('\n');
      expect(await snapshot(root)).toEqual(before);
    });
  }
});

describe('files chain-etl did not write are left alone', () => {
  it('deletes an interrupted commit (the next generation, temp files), keeps every foreign file and folder, and warns of foreign Parquet', async () => {
    const root = await warehouse();
    const day = join(root, 'transfers/date=2024-01-01');
    const listed = join(root, TRANSFER_FILE);
    const foreign = [
      'transfers/date=2024-01-01/mine.parquet',
      'transfers/mine.parquet',
      'transfers/date=2024-01-01/part-000000000001-0009.parquet', // our name, a generation already published: not provably ours
      'transfers/date=2024-01-01/part-000000000007-0000.parquet', // a generation no crash of this manifest can leave
      'transfers/backup/part-000000000002-0000.parquet', // our name of the next generation, in a folder we never write
      'transfers/date=2024-1-1/part-000000000002-0000.parquet',
      'other/part-000000000002-0000.parquet',
      'mine.parquet',
    ];
    const other = ['transfers/NOTES.txt', 'transfers/date=2024-01-01/.DS_Store', 'transfers/empty/.keep'];
    for (const path of [...foreign, ...other]) {
      await mkdir(join(root, path, '..'), { recursive: true });
      if (path.endsWith('.parquet')) await copyFile(listed, join(root, path));
      else await writeFile(join(root, path), 'mine');
    }
    await copyFile(listed, join(day, 'part-000000000002-0000.parquet'));
    await writeFile(join(day, 'part-000000000002-0001.parquet.tmp'), 'half');
    await writeFile(join(day, 'part-000000000001-0005.parquet.tmp'), 'half');
    await mkdir(join(root, 'transfers/date=2030-01-01'));
    await copyFile(listed, join(root, 'transfers/date=2030-01-01/part-000000000002-0002.parquet'));
    await writeFile(join(root, '_manifest.json.tmp'), '{"half":');

    const { logger, lines } = capturingLogger();
    const sink = await openSink(root, { logger });
    await sink.commitAll([batch([4])]);
    await sink.close();
    const after = await snapshot(root);
    for (const path of [...foreign, ...other]) expect(after, path).toHaveProperty([path]);
    for (const gone of ['part-000000000002-0001.parquet.tmp', 'part-000000000001-0005.parquet.tmp']) expect(after).not.toHaveProperty([`transfers/date=2024-01-01/${gone}`]);
    expect(await readdir(join(root, 'transfers'))).not.toContain('date=2030-01-01');
    expect(after).not.toHaveProperty(['_manifest.json.tmp']);
    // The commit reused the interrupted commit's name for its own rows.
    expect((await readManifest(root))!.tables['transfers']!.files.map((file) => file.path)).toEqual([TRANSFER_FILE, 'transfers/date=2024-01-01/part-000000000002-0000.parquet']);
    const warnings = lines();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      level: 40,
      msg: 'Parquet files chain-etl did not write are in the table folders; they are left alone: the manifest views skip them, a raw glob reads them',
      count: 4,
      files: [
        'transfers/date=2024-01-01/mine.parquet',
        'transfers/date=2024-01-01/part-000000000001-0009.parquet',
        'transfers/date=2024-01-01/part-000000000007-0000.parquet',
        'transfers/mine.parquet',
      ].sort(),
    });
  });
});

describe('the writer lock file', () => {
  it('overwritten: exit 2 saying it holds no data and how to replace it; the data files untouched', async () => {
    const root = await warehouse();
    await writeFile(join(root, '_writer.lock.duckdb'), 'not a database');
    const before = await snapshot(root);
    const error = await refusal(root);
    expect(error.message).toMatch(
      new RegExp(`^The writer lock file ${root}/_writer\\.lock\\.duckdb of this Parquet warehouse does not open \\(.*not a valid DuckDB database file.*\\); ` +
        'it holds no data: delete it \\(and _writer\\.lock\\.duckdb\\.wal, if there\\) when no chain-etl runs on this folder, then run again$'),
    );
    expect(await snapshot(root)).toEqual(before);
    await rm(join(root, '_writer.lock.duckdb'));
    await (await openSink(root)).close();
  });
});

describe('damaged data files are refused by name, and set aside on request', () => {
  const damages: readonly [string, (path: string) => Promise<void>, (bytes: number) => string][] = [
    ['truncated', (path) => stat(path).then(({ size }) => truncate(path, Math.floor(size / 2))), (bytes) => `${Math.floor(bytes / 2)} bytes, the manifest recorded ${bytes}`],
    ['zero bytes', (path) => truncate(path, 0), (bytes) => `0 bytes, the manifest recorded ${bytes}`],
    ['missing', (path) => rm(path), () => 'missing'],
    [
      'with a wrong footer, same size',
      async (path) => {
        const bytes = await readFile(path);
        bytes.write('XXXX', bytes.length - 4, 'latin1');
        await writeFile(path, bytes);
      },
      () => 'no Parquet footer (PAR1)',
    ],
    [
      'with a footer length beyond the file, same size',
      async (path) => {
        const bytes = await readFile(path);
        bytes.writeUInt32LE(bytes.length, bytes.length - 8);
        await writeFile(path, bytes);
      },
      (bytes) => `a Parquet footer of ${bytes} bytes in a file of ${bytes}`,
    ],
    [
      'with a wrong header, same size',
      async (path) => {
        const bytes = await readFile(path);
        bytes.write('XXXX', 0, 'latin1');
        await writeFile(path, bytes);
      },
      () => 'no Parquet header (PAR1)',
    ],
  ];
  for (const [what, damage, problem] of damages) {
    it(`a listed file ${what}: exit 2 naming it and the way out; nothing changed`, async () => {
      const root = await warehouse();
      const path = join(root, TRANSFER_FILE);
      const bytes = (await readManifest(root))!.tables['transfers']!.files[0]!.bytes!;
      expect(bytes).toBe((await stat(path)).size);
      await damage(path);
      const before = await snapshot(root);
      const error = await refusal(root);
      expect(error.message).toBe(
        `Parquet file ${path} is damaged (${problem(bytes)}): run chain-etl repair with this pipeline; it moves damaged files to _damaged/ and fetches their rows again`,
      );
      expect(await snapshot(root)).toEqual(before);
    });
  }

  it('a manifest of an earlier release (no sizes): a truncated file is still found by its missing footer', async () => {
    const root = await warehouse();
    const manifest = join(root, '_manifest.json');
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace(/\s*"bytes": \d+,/g, ''));
    await truncate(join(root, TRANSFER_FILE), 100);
    expect((await refusal(root)).message).toContain(`Parquet file ${join(root, TRANSFER_FILE)} is damaged (no Parquet footer (PAR1))`);
  });

  it('names the first damaged file and counts the others', async () => {
    const root = await tempDir();
    const sink = await openSink(root);
    await sink.commitAll([{ ...batch([1]), rows: new Map([tableRows(transfers, [transfer(1), transfer(30)])]) }]);
    const files = sink.listFiles('transfers');
    await sink.close();
    for (const file of files) await truncate(file.absolutePath, 0);
    expect((await refusal(root)).message).toContain(`(and 1 more: ${files[1]!.path}): run chain-etl repair`);
  });

  it('repair mode: damaged files move to _damaged/, leave the manifest with the given checkpoints, and are remembered', async () => {
    const root = await warehouse();
    const path = join(root, TRANSFER_FILE);
    await truncate(path, 10);
    const truncatedBytes = await readFile(path);
    const sink = await openSink(root, { repair: true });
    expect(sink.damagedFiles()).toEqual([
      expect.objectContaining({ table: 'transfers', path: TRANSFER_FILE, clusterMin: '1000001', clusterMax: '1000003', problem: expect.stringMatching(/^10 bytes, the manifest recorded \d+$/) }),
    ]);
    await sink.setAsideDamaged(new Map([['t', 'hole']]));
    expect(sink.listFiles('transfers')).toEqual([]);
    await sink.close();
    expect(await readFile(join(root, '_damaged', TRANSFER_FILE))).toEqual(truncatedBytes);
    const manifest = (await readManifest(root))!;
    expect(manifest.checkpoints['t']).toEqual({ position: 'hole', updatedAt: NOW });
    expect(manifest.setAside).toEqual([expect.objectContaining({ table: 'transfers', path: TRANSFER_FILE, clusterMin: '1000001', setAsideAt: NOW })]);
    const again = await openSink(root);
    await again.commitAll([batch([1, 2, 3])]);
    expect(again.listFiles('transfers').map((file) => file.rows)).toEqual([3]);
    await again.close();
  });
});

describe('superseded files outlive the readers of an older manifest', () => {
  it('a rewritten file stays on disk, listed as retired, until a commit after the retention time deletes it', async () => {
    const root = await tempDir();
    let now = NOW;
    const sink = await openSink(root, { now: () => now, retainSupersededMinutes: 10 });
    await sink.commitAll([batch([1, 2, 3], 'old')]);
    const readerViews = sink.viewsSql();
    const [first] = sink.listFiles('transfers');
    now += 60;
    await sink.commitAll([batch([2], 'new')]);
    expect(sink.listFiles('transfers').map((file) => file.path)).not.toContain(first!.path);
    expect((await readManifest(root))!.retired).toEqual([{ path: first!.path, retiredAt: NOW + 60 }]);
    expect(await viewRows(readerViews)).toBe(3);
    now += 10 * 60 - 1;
    await sink.commitAll([batch([5])]);
    expect(await viewRows(readerViews)).toBe(3);
    now += 1;
    await sink.commitAll([batch([6])]);
    await expect(stat(first!.absolutePath)).rejects.toThrow(/ENOENT/);
    expect((await readManifest(root))!.retired).toEqual([]);
    expect(await viewRows(sink.viewsSql())).toBe(5);
    await sink.close();
  });

  it('retention 0: deleted by the commit that supersedes it; a retired file that is already gone is no error', async () => {
    const root = await tempDir();
    const sink = await openSink(root, { retainSupersededMinutes: 0 });
    await sink.commitAll([batch([1, 2, 3], 'old')]);
    const [first] = sink.listFiles('transfers');
    await sink.commitAll([batch([2], 'new')]);
    await expect(stat(first!.absolutePath)).rejects.toThrow(/ENOENT/);
    await sink.commitAll([batch([4])]);
    expect((await readManifest(root))!.retired).toEqual([]);
    await sink.close();
  });

  it('a retired file is neither damaged nor a leftover on open', async () => {
    const root = await tempDir();
    const sink = await openSink(root, { retainSupersededMinutes: 10 });
    await sink.commitAll([batch([1, 2, 3], 'old')]);
    await sink.commitAll([{ ...batch([2], 'new'), rows: new Map([tableRows(transfers, [transfer(2, { comment: 'new', utime: DAY1 + 7200 })])]) }]);
    await sink.close();
    const before = await snapshot(root);
    const { logger, lines } = capturingLogger();
    const again = await openSink(root, { retainSupersededMinutes: 10, logger });
    await again.close();
    expect(await snapshot(root)).toEqual(before);
    expect(Object.keys(before).filter((path) => path.endsWith('.parquet'))).toHaveLength(3);
    expect(lines()).toEqual([]);
  });
});
