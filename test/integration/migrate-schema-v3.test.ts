/**
 * A warehouse of schema version 3 (test/fixtures/schema-v3: traces and the snapshot tables, whose lt
 * columns that release declared uint64, DECIMAL(20,0) in Parquet) brought to this release's layout in
 * place, for both sinks: `chain-etl migrate` keeps every lt value and every other column of every row,
 * gives each table the layout a fresh sync of this release has (Parquet: the lt columns INT64), keeps
 * the checkpoints and has nothing to do a second time; a sync migrates on its own with one warning;
 * status on the old warehouse names the way. Values beyond 2^53 (the devnet's lt are below 2^47):
 * test/load/schema-v4-migration.test.ts; kill -9 in the middle of a migration: test/chaos/migrate-kill.chaos.ts.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult } from '../support/cli-result.js';
import { NO_MISMATCH, describeDiff, diffRows, mismatch } from '../support/row-diff.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import type { Snapshot } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';
import { BLOCKS, FIXTURES, SEED, copyFixture, layout, read, storedText } from './previous-release.js';

const { streams: STREAMS, tables: TABLES } = FIXTURES['schema-v3'];
/** Each table's columns that version 3 declared uint64. */
const RETYPED: ReadonlyMap<string, readonly string[]> = new Map([
  ['traces', ['start_lt', 'end_lt']],
  ['jetton_masters', ['last_tx_lt']],
  ['jetton_wallets', ['last_tx_lt']],
  ['nft_items', ['last_tx_lt']],
  ['nft_collections', ['last_tx_lt']],
]);
const REWRITTEN = { duckdb: 'no table needed writing again', parquet: 'traces, jetton_masters, jetton_wallets, nft_items, nft_collections' };
const SNAPSHOT_STREAMS = STREAMS.filter((name) => name !== 'traces');

/** Every table's rows as stored, every column, read as text (the fixture's lt columns are DECIMAL in Parquet). */
async function storedRows(kind: SinkKind, path: string): Promise<Map<string, Map<string, string[]>>> {
  return new Map(await Promise.all(TABLES.map(async (table) => [table.name, await storedText(kind, path, table, table.columnNames)] as const)));
}

/** The rows of `actual` equal `expected`'s, snapshot tables without the time their snapshot was taken. */
function expectSameRows(expected: Snapshot, actual: Snapshot): void {
  for (const table of TABLES) {
    const withoutSnapshotTime = (rows: readonly Record<string, unknown>[]) => rows.map(({ snapshot_time: _taken, ...row }) => row);
    const diff = diffRows(table, withoutSnapshotTime(expected.tables.get(table.name)!), withoutSnapshotTime(actual.tables.get(table.name)!));
    expect(diff.expected, `${table.name}: the fresh warehouse has rows`).toBeGreaterThan(0);
    expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
  }
  expect(actual.checkpoints.get('traces')).toEqual(expected.checkpoints.get('traces'));
  expect(actual.covered.get('traces')).toEqual(expected.covered.get('traces'));
}

describe.each<SinkKind>(['duckdb', 'parquet'])('a %s warehouse of schema version 3', (kind) => {
  let devnet: TestDevnet;
  let work: Workspace;
  let fresh: Snapshot;
  let freshLayout: Record<string, string[]>;
  let stored: Map<string, Map<string, string[]>>;

  /** A copy of the fixture in the workspace and a pipeline writing to it. */
  const schemaV3 = async (label: string): Promise<{ path: string; pipeline: string }> => {
    const path = work.sinkPath(kind, label);
    await copyFixture(kind, path, 'schema-v3');
    return { path, pipeline: await work.pipeline({ url: devnet.url, kind, sinkPath: path, streams: STREAMS, name: `${label}.yaml` }) };
  };

  beforeAll(async () => {
    devnet = await startTestDevnet({ seed: SEED, blocks: BLOCKS });
    work = await makeWorkspace(`migrate-v3-${kind}`);
    const path = work.sinkPath(kind, 'fresh');
    const result = await runCliInProcess(['sync', await work.pipeline({ url: devnet.url, kind, sinkPath: path, streams: STREAMS, name: 'fresh.yaml' }), '--log-level', 'warn']);
    expect(result.code, describeResult(result)).toBe(0);
    fresh = await read(kind, path, TABLES);
    freshLayout = await layout(kind, path, TABLES);
    const fixture = work.sinkPath(kind, 'fixture');
    await copyFixture(kind, fixture, 'schema-v3');
    stored = await storedRows(kind, fixture);
  });

  afterAll(async () => {
    await devnet?.close();
    await work?.remove();
  });

  it('chain-etl migrate: every value kept, the layout of a fresh sync of this release, checkpoints kept; a second migrate has nothing to do', async () => {
    const { path, pipeline } = await schemaV3('migrated');
    const before = await layout(kind, path, TABLES);
    const result = await runCliInProcess(['migrate', pipeline]);
    expect(result.code, describeResult(result)).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^migrated ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} from schema version 3 to 4 in \\d+\\.\\d s: ${REWRITTEN[kind]}\\n$`));
    expect(result.stderr).toBe('');

    expect(await storedRows(kind, path)).toEqual(stored);
    for (const [table, columns] of RETYPED) {
      const lts = [...(await storedText(kind, path, TABLES.find((t) => t.name === table)!, columns)).values()].flat();
      expect(lts.length, `${table} has rows`).toBeGreaterThan(0);
      expect(lts.filter((lt) => !/^(0|[1-9]\d*)$/.test(lt)), `${table}: every lt an integer`).toEqual([]);
    }
    const after = await layout(kind, path, TABLES);
    expect(after).toEqual(freshLayout);
    // The fixture was that release's: in Parquet, DECIMAL(20,0) where this release writes BIGINT; in DuckDB, the same UBIGINT.
    const ltTypes = (tables: Record<string, string[]>) => tables.traces!.filter((line) => /^(start|end)_lt /.test(line));
    expect(ltTypes(after)).toEqual(kind === 'duckdb' ? ['start_lt UBIGINT NOT NULL', 'end_lt UBIGINT NOT NULL'] : ['start_lt BIGINT', 'end_lt BIGINT']);
    expect(ltTypes(before)).toEqual(kind === 'duckdb' ? ltTypes(after) : ['start_lt DECIMAL(20,0)', 'end_lt DECIMAL(20,0)']);
    const migrated = await read(kind, path, TABLES);
    expectSameRows(fresh, migrated);
    for (const stream of SNAPSHOT_STREAMS) expect(migrated.checkpoints.has(stream), stream).toBe(true);

    const again = await runCliInProcess(['migrate', pipeline]);
    expect([again.code, again.stdout, again.stderr]).toEqual([0, `${path} is at schema version 4: nothing to migrate\n`, '']);
  });

  it('a sync migrates on its own with one warning, then holds what a fresh sync holds', async () => {
    const { path, pipeline } = await schemaV3('synced');
    const result = await runCliInProcess(['sync', pipeline, '--log-level', 'warn']);
    expect(result.code, describeResult(result)).toBe(0);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 40,
      path,
      from: 3,
      to: 4,
      tables: kind === 'duckdb' ? [] : REWRITTEN.parquet.split(', '),
      msg: 'migrated the warehouse from schema version 3 to 4: the lt columns of traces and the snapshot tables are INT64 in Parquet, as every other lt (were DECIMAL(20,0)); DuckDB tables unchanged',
    });
    expectSameRows(fresh, await read(kind, path, TABLES));
    expect(await layout(kind, path, TABLES)).toEqual(freshLayout);
  });

  it('status on it names the way to migrate (exit 2) and changes nothing', async () => {
    const { path, pipeline } = await schemaV3('status');
    const file = (): Promise<Buffer> => readFile(kind === 'duckdb' ? path : join(path, '_manifest.json'));
    const before = await file();
    const result = await runCliInProcess(['status', pipeline, '--offline']);
    expect([result.code, result.stderr]).toEqual([
      2,
      `chain-etl: Warehouse ${path} has schema version 3, this chain-etl reads version 4: ` +
        'run chain-etl migrate with this pipeline (or its next sync or backfill) to migrate it in place\n',
    ]);
    expect((await file()).equals(before), 'unchanged').toBe(true);
  });
});
