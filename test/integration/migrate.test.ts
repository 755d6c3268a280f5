/**
 * A warehouse of the previous release (test/fixtures/previous-release: schema version 1, synced from
 * the devnet in test/integration/previous-release.ts) brought to this release's layout in place, for
 * both sinks: `chain-etl migrate` makes every table equal to what a fresh sync of this release writes
 * from the same devnet (rows, column names, order and types), keeps the checkpoints, and has nothing
 * to do a second time; a sync migrates on its own with one warning and then fetches what a fresh
 * warehouse's next sync fetches (nothing of the range it holds); status on the old warehouse names
 * the way. kill -9 in the middle of a migration (the old warehouse stays whole, the next migration
 * gives what an uninterrupted one gives) runs in `npm run test:chaos` (test/chaos/migrate-kill.chaos.ts).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult } from '../support/cli-result.js';
import { NO_MISMATCH, describeDiff, diffSnapshots, mismatch } from '../support/row-diff.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import type { Snapshot } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';
import { BLOCKS, CHANGED, SEED, STREAMS, copyFixture, layout, read, tables } from './previous-release.js';

function expectSameRows(expected: Snapshot, actual: Snapshot): void {
  for (const diff of diffSnapshots(expected.tables, actual.tables).filter((d) => tables.some((table) => table.name === d.table))) {
    expect(diff.expected, `${diff.table}: the fresh warehouse has rows`).toBeGreaterThan(0);
    expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
  }
  expect(actual.checkpoints).toEqual(expected.checkpoints);
  expect(actual.covered).toEqual(expected.covered);
}

/** Requests per stream of the warehouse's latest run. */
function lastRequests(snapshot: Snapshot): unknown {
  const latest = [...snapshot.runs].sort((a, b) => Number(a.started_at) - Number(b.started_at)).at(-1)!;
  return JSON.parse(String(latest.requests));
}

describe.each<SinkKind>(['duckdb', 'parquet'])('a %s warehouse of the previous release', (kind) => {
  let devnet: TestDevnet;
  let work: Workspace;
  let fresh: Snapshot;
  let freshLayout: Record<string, string[]>;

  const sync = async (pipeline: string): Promise<void> => {
    const result = await runCliInProcess(['sync', pipeline, '--log-level', 'warn']);
    expect(result.code, describeResult(result)).toBe(0);
  };

  /** A copy of the fixture in the workspace and a pipeline writing to it. */
  const previousRelease = async (label: string): Promise<{ path: string; pipeline: string }> => {
    const path = work.sinkPath(kind, label);
    await copyFixture(kind, path);
    return { path, pipeline: await work.pipeline({ url: devnet.url, kind, sinkPath: path, streams: STREAMS, name: `${label}.yaml` }) };
  };

  beforeAll(async () => {
    devnet = await startTestDevnet({ seed: SEED, blocks: BLOCKS });
    work = await makeWorkspace(`migrate-${kind}`);
    const path = work.sinkPath(kind, 'fresh');
    await sync(await work.pipeline({ url: devnet.url, kind, sinkPath: path, streams: STREAMS, name: 'fresh.yaml' }));
    fresh = await read(kind, path);
    freshLayout = await layout(kind, path);
  });

  afterAll(async () => {
    await devnet?.close();
    await work?.remove();
  });

  it('chain-etl migrate: every table equals a fresh sync of this release, checkpoints kept; a second migrate has nothing to do', async () => {
    const { path, pipeline } = await previousRelease('migrated');
    const result = await runCliInProcess(['migrate', pipeline]);
    expect(result.code, describeResult(result)).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^migrated ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} from schema version 1 to 4 in \\d+\\.\\d s: ${CHANGED}\\n$`));
    expect(result.stderr).toBe('');
    expectSameRows(fresh, await read(kind, path));
    expect(await layout(kind, path)).toEqual(freshLayout);
    // The previous release's run counted replaced rows among its rows: status says they are unknown.
    const status = await runCliInProcess(['status', pipeline, '--offline']);
    const lines = status.stdout.trimEnd().split('\n');
    const runs = lines.slice(lines.indexOf('last runs') + 1);
    expect(runs.length, describeResult(status)).toBeGreaterThan(0);
    for (const run of runs) expect(run).toMatch(/ new rows \{.*\} replaced unknown$/);

    const again = await runCliInProcess(['migrate', pipeline]);
    expect([again.code, again.stdout, again.stderr]).toEqual([0, `${path} is at schema version 4: nothing to migrate\n`, '']);
  });

  it('a sync migrates on its own with one warning, then fetches only what a fresh warehouse\'s next sync fetches', async () => {
    const { path, pipeline } = await previousRelease('synced');
    const result = await runCliInProcess(['sync', pipeline, '--log-level', 'warn']);
    expect(result.code, describeResult(result)).toBe(0);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 40,
      path,
      from: 1,
      to: 4,
      tables: CHANGED.split(', '),
      msg: 'migrated the warehouse from schema version 1 to 4: columns renamed as docs/design.md §9 lists (tx_hash, tx_time, block_date, …)',
    });
    const migrated = await read(kind, path);
    expectSameRows(fresh, migrated);

    const freshAgain = work.sinkPath(kind, 'fresh');
    await sync(join(work.dir, 'fresh.yaml'));
    expect(lastRequests(migrated)).toEqual(lastRequests(await read(kind, freshAgain)));
  });

  it('status on it names the way to migrate (exit 2) and changes nothing', async () => {
    const { path, pipeline } = await previousRelease('status');
    const stored = (): Promise<Buffer> => readFile(kind === 'duckdb' ? path : join(path, '_manifest.json'));
    const before = await stored();
    const result = await runCliInProcess(['status', pipeline, '--offline']);
    expect([result.code, result.stderr]).toEqual([
      2,
      `chain-etl: Warehouse ${path} has schema version 1, this chain-etl reads version 4: ` +
        'run chain-etl migrate with this pipeline (or its next sync or backfill) to migrate it in place\n',
    ]);
    expect((await stored()).equals(before), 'unchanged').toBe(true);
  });
});
