/**
 * A Parquet warehouse of the previous release (lt stored as UINT_64, no `parquetTypes` in the
 * manifest) is read as it is, and the first open for writing rewrites its files through the manifest
 * into signed INT64, rows unchanged, before the next commit appends to it.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tableRows } from '../../src/core/stream.js';
import type { AnyTable } from '../../src/core/table.js';
import { readRows } from '../../src/load/engine/read.js';
import { MANIFEST_FILE, PARQUET_TYPES, readManifest, type Manifest } from '../../src/load/parquet/manifest.js';
import { ParquetSink } from '../../src/load/parquet/sink.js';
import { manifestViewsSql } from '../../src/load/parquet/views.js';
import { byHash, withReader } from './read-back.js';
import { MAX_LT, action, actions, firstBatch, transfer, transfers } from './tables.js';
import { useTempDir } from './temp-dir.js';

const tempDir = useTempDir('parquet-upgrade');
const NOW = 1_700_000_000;
const TABLES: readonly AnyTable[] = [transfers, actions];

async function openSink(root: string): Promise<ParquetSink> {
  const sink = new ParquetSink({ path: root, now: () => NOW });
  await sink.open(TABLES);
  return sink;
}

/** Rewrites every listed file with its lt columns as UBIGINT and drops `parquetTypes`: what the previous release left. */
async function asPreviousRelease(root: string): Promise<void> {
  const manifest = (await readManifest(root))!;
  for (const entry of Object.values(manifest.tables)) delete entry.parquetTypes;
  await withReader(async (connection) => {
    for (const table of TABLES) {
      const entry = manifest.tables[table.name]!;
      const unsigned = table.columnNames.filter((name) => table.columns[name]!.kind === 'logicalTime');
      for (const file of entry.files) {
        const path = join(root, file.path);
        const casts = unsigned.map((name) => `CAST(${name} AS UBIGINT) AS ${name}`).join(', ');
        await connection.run(`COPY (SELECT * REPLACE (${casts}) FROM read_parquet('${path}', hive_partitioning = false)) TO '${path}.old' (FORMAT parquet)`);
        await connection.run(`COPY (SELECT * FROM read_parquet('${path}.old', hive_partitioning = false)) TO '${path}' (FORMAT parquet, PRESERVE_ORDER true)`);
        file.bytes = (await stat(path)).size;
      }
    }
  });
  await writeFile(join(root, MANIFEST_FILE), JSON.stringify(manifest));
}

/** Each listed file's lt columns as DuckDB reads their Parquet type (`UINT_64`, `INT_64`). */
async function ltTypes(root: string, manifest: Manifest): Promise<string[]> {
  return withReader(async (connection) => {
    const types: string[] = [];
    for (const entry of Object.values(manifest.tables)) {
      for (const file of entry.files) {
        const reader = await connection.runAndReadAll(
          `SELECT converted_type FROM parquet_schema('${join(root, file.path)}') WHERE name IN ('lt', 'trace_end_lt')`,
        );
        types.push(...reader.getRows().map(([type]) => String(type)));
      }
    }
    return types;
  });
}

async function viewRows(root: string, table: AnyTable) {
  const manifest = (await readManifest(root))!;
  return withReader(async (connection) => {
    await connection.run(manifestViewsSql(root, manifest, [table]));
    return readRows(connection, table, table.name);
  });
}

describe('a Parquet warehouse of the previous release (lt as UINT_64)', () => {
  it('reads as it is, then the first open for writing rewrites its files as INT64 with the same rows and appends to it', async () => {
    const root = await tempDir();
    const first = await openSink(root);
    await first.commitAll([firstBatch]);
    await first.close();
    const before = [byHash(await viewRows(root, transfers)), await viewRows(root, actions)];
    await asPreviousRelease(root);
    const old = (await readManifest(root))!;
    expect(await ltTypes(root, old)).toEqual(Array(3).fill('UINT_64'));
    expect([byHash(await viewRows(root, transfers)), await viewRows(root, actions)]).toEqual(before);
    expect(before[0]!.map((row) => row['lt'])).toContain(MAX_LT);

    const sink = await openSink(root);
    const upgraded = (await readManifest(root))!;
    expect(upgraded.generation).toBe(old.generation + 1);
    expect(Object.values(upgraded.tables).map((entry) => entry.parquetTypes)).toEqual(Array(4).fill(PARQUET_TYPES));
    expect(await ltTypes(root, upgraded)).toEqual(Array(3).fill('INT_64'));
    expect(upgraded.checkpoints).toEqual(old.checkpoints);
    expect([byHash(await viewRows(root, transfers)), await viewRows(root, actions)]).toEqual(before);
    for (const file of Object.values(old.tables).flatMap((entry) => entry.files)) {
      await expect(readFile(join(root, file.path)), `${file.path} is retired and deleted`).rejects.toThrow(/ENOENT/);
    }

    await sink.commitAll([{
      stream: 'transfers',
      rows: new Map([tableRows(transfers, [transfer(1, { comment: 'again' }), transfer(5)]), tableRows(actions, [action(3, 'a')])]),
      checkpoint: '{"lt":"1000005"}',
    }]);
    await sink.close();
    const after = byHash(await viewRows(root, transfers));
    expect(after.map((row) => [row.tx_hash, row.comment])).toEqual(
      byHash([...before[0]!.filter((row) => row['tx_hash'] !== transfer(1).tx_hash), transfer(1, { comment: 'again' }), transfer(5)])
        .map((row) => [row['tx_hash'], row['comment']]),
    );
    expect(await ltTypes(root, (await readManifest(root))!)).not.toContain('UINT_64');

    const generation = (await readManifest(root))!.generation;
    const again = await openSink(root);
    await again.close();
    expect((await readManifest(root))!.generation, 'a warehouse already upgraded is not rewritten again').toBe(generation);
  });
});
