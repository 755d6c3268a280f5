/**
 * The snapshot streams (every one in the registry) synced by `chain-etl sync` against a devnet, for
 * both sinks: after a sync each table equals the devnet's current state, every row stamped with the
 * snapshot time the run recorded; the chain grows and the next snapshot equals the new state exactly;
 * a row the service no longer lists is deleted; `refresh` skips a stream until it is due, and status
 * shows the last snapshot. Under 5xx answers, resets, truncated and malformed bodies and unknown
 * fields on the snapshot endpoints themselves, a sync still ends equal to the state.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDevnetApi, type Devnet } from '../../src/devnet/index.js';
import { truthRows } from '../../src/devnet/truth.js';
import { snapshotStreams } from '../../src/streams/index.js';
import { nftCollectionsStream } from '../../src/streams/nft-collections.js';
import { nftItemsStream } from '../../src/streams/nft-items.js';
import { runCliInProcess, runInProcess } from '../support/cli-in-process.js';
import { KEY, KEY_ENV } from '../support/test-key.js';
import { startChaosDevnet } from '../chaos/support/devnet.js';
import { describeResult } from '../support/cli-result.js';
import { NO_MISMATCH, canonical, describeDiff, diffRows, mismatch } from '../support/row-diff.js';
import { expectedSnapshotRows } from '../support/snapshot-truth.js';
import { startTestDevnet } from '../support/test-devnet.js';
import { openWarehouse } from '../support/warehouse-reader.js';
import { readWarehouse, type Snapshot } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';

const SEED = 4242;
const BLOCKS = 120;
const tables = snapshotStreams.flatMap((stream) => stream.tables);
const names = snapshotStreams.map((stream) => stream.name);

describe.each<SinkKind>(['duckdb', 'parquet'])('snapshot streams into %s', (kind) => {
  let devnet: Devnet;
  let work: Workspace;
  let pipeline: string;
  let sinkPath: string;

  const sync = async (file = pipeline): Promise<{ snapshot: Snapshot; before: number; after: number; stderr: string }> => {
    const before = Math.floor(Date.now() / 1000);
    const result = await runCliInProcess(['sync', file, '--log-level', 'info']);
    expect(result.code, describeResult(result)).toBe(0);
    const after = Math.floor(Date.now() / 1000);
    return { snapshot: await readWarehouse(kind, sinkPath, { tables }), before, after, stderr: result.stderr };
  };

  /** Every snapshot table equals the devnet's state, stamped with the time its stream's checkpoint records; returns those times. */
  const expectEqualsState = (snapshot: Snapshot): Map<string, number> => {
    const times = new Map<string, number>();
    for (const stream of snapshotStreams) {
      const time = Number(snapshot.checkpoints.get(stream.name));
      times.set(stream.name, time);
      for (const [table, rows] of expectedSnapshotRows(devnet, stream, time)) {
        expect(rows.length, `${table}: the devnet has state to compare`).toBeGreaterThan(0);
        const sources = snapshot.glob === undefined ? [snapshot.tables] : [snapshot.tables, snapshot.glob];
        for (const source of sources) {
          const diff = diffRows(stream.tables.find((t) => t.name === table)!, rows, source.get(table)!);
          expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
        }
      }
    }
    expect(snapshot.rejects).toBe(0);
    return times;
  };

  beforeAll(async () => {
    devnet = await startTestDevnet({ seed: SEED, blocks: BLOCKS });
    work = await makeWorkspace(`snapshots-${kind}`);
    sinkPath = work.sinkPath(kind);
    pipeline = await work.pipeline({ url: devnet.url, kind, sinkPath, streams: ['jetton_transfers', ...names] });
  });

  afterAll(async () => {
    await devnet?.close();
    await work?.remove();
  });

  it('first sync: every snapshot table equals the devnet state, stamped with the snapshot time the run records', async () => {
    const { snapshot, before, after } = await sync();
    const times = expectEqualsState(snapshot);
    for (const [name, time] of times) {
      expect(time, name).toBeGreaterThanOrEqual(before);
      expect(time, name).toBeLessThanOrEqual(after);
    }
    const recorded = JSON.parse(String(snapshot.runs[0]!.rows)) as { snapshot_time: Record<string, string> };
    expect(recorded.snapshot_time).toEqual(Object.fromEntries([...times].map(([name, time]) => [name, new Date(time * 1000).toISOString().replace('.000Z', 'Z')])));
  });

  it('jetton_transfers_readable shows each transfer\'s symbol and decimals and its amount scaled exactly, as DECIMAL(38,18)', async () => {
    const masters = new Map(devnet.truth('jetton_masters').map((m) => [String(m.address), m.metadata as { token_info: { symbol: string; extra: { decimals: string } }[] }]));
    const scaled = (amount: bigint, decimals: number): string => {
      const text = amount.toString().padStart(decimals + 1, '0');
      return `${text.slice(0, text.length - decimals)}.${text.slice(text.length - decimals).padEnd(18, '0')}`;
    };
    const reader = await openWarehouse(kind, sinkPath);
    try {
      // A Parquet warehouse defines its analysts' views in views.sql, as a notebook reads them.
      if (kind === 'parquet') await reader.connection.run(await readFile(join(sinkPath, 'views.sql'), 'utf8'));
      const types = new Map((await reader.query('DESCRIBE SELECT * FROM jetton_transfers_readable')).map((row) => [row.column_name, row.column_type]));
      expect([types.get('amount'), types.get('amount_tokens'), types.get('decimals')]).toEqual(['DECIMAL(38,0)', 'DECIMAL(38,18)', 'INTEGER']);
      const rows = await reader.query('SELECT jetton_master, symbol, decimals, amount::VARCHAR AS amount, amount_tokens::VARCHAR AS amount_tokens FROM jetton_transfers_readable');
      expect(rows.length).toBeGreaterThan(0);
      const symbols = new Set<string>();
      for (const row of rows) {
        const info = masters.get(String(row.jetton_master))!.token_info[0]!;
        const decimals = Number(info.extra.decimals);
        expect([row.symbol, row.decimals]).toEqual([info.symbol, decimals]);
        expect(row.amount_tokens, String(row.amount)).toBe(scaled(BigInt(String(row.amount)), decimals));
        symbols.add(String(row.symbol));
      }
      // GIGA's 18 decimals and amounts above 2^100 are among them.
      expect([...symbols].sort()).toEqual(['GIGA', 'NOT', 'USD₮']);
    } finally {
      reader.close();
    }
  });

  it('the chain grows: the next snapshot has a later time and equals the new state exactly', async () => {
    const first = await readWarehouse(kind, sinkPath, { tables });
    devnet.grow(60);
    const { snapshot } = await sync();
    const times = expectEqualsState(snapshot);
    for (const [name, time] of times) expect(time, name).toBeGreaterThan(Number(first.checkpoints.get(name)));
    // The state did change: some rows differ in more than their snapshot time.
    const withoutTime = (rows: readonly Record<string, unknown>[]): string[] => rows.map(({ snapshot_time: _time, ...row }) => canonical(row)).sort();
    // The devnet's collections have no transactions: their state never changes (the equality above still holds).
    const changing = tables.filter((table) => table.name !== 'nft_collections');
    for (const table of changing) expect(withoutTime(snapshot.tables.get(table.name)!), table.name).not.toEqual(withoutTime(first.tables.get(table.name)!));
  });

  it.runIf(kind === 'duckdb')('a row the service no longer lists is deleted by the next snapshot', async () => {
    const instance = await DuckDBInstance.create(sinkPath);
    const connection = await instance.connect();
    for (const table of tables) {
      const key = table.primaryKey[0]!;
      // A copy of a stored row under a key the service does not list, as a destroyed contract leaves it.
      await connection.run(
        `INSERT INTO "${table.name}" SELECT * REPLACE ('0:' || repeat('F', 64) AS "${key}") FROM "${table.name}" LIMIT 1`,
      );
    }
    connection.closeSync();
    instance.closeSync();
    const ghosts = await readWarehouse(kind, sinkPath, { tables });
    for (const table of tables) expect(ghosts.tables.get(table.name)!.some((row) => row[table.primaryKey[0]!] === `0:${'F'.repeat(64)}`), table.name).toBe(true);
    const { snapshot } = await sync();
    expectEqualsState(snapshot);
  });

  it('with refresh.every, a sync before it is due skips the stream, says so, and changes nothing; status shows the last snapshot', async () => {
    const refreshing = await work.pipeline({ url: devnet.url, kind, sinkPath, streams: [], name: `refresh-${kind}.yaml` });
    const text = (await readFile(refreshing, 'utf8')).replace('streams: []', `streams: { ${names.map((name) => `${name}: { refresh: { every: 1h } }`).join(', ')} }`);
    await writeFile(refreshing, text);
    const before = await readWarehouse(kind, sinkPath, { tables });
    devnet.grow(20);
    const { snapshot, stderr } = await sync(refreshing);
    for (const name of names) expect(stderr).toContain(`${name}: its last snapshot is younger than its refresh interval: skipped until it is due`);
    expect(snapshot.checkpoints).toEqual(before.checkpoints);
    for (const table of tables) expect(mismatch(diffRows(table, before.tables.get(table.name)!, snapshot.tables.get(table.name)!))).toEqual(NO_MISMATCH);

    const status = await runCliInProcess(['status', refreshing, '--json', '--offline']);
    expect(status.code, describeResult(status)).toBe(0);
    const report = JSON.parse(status.stdout) as { streams: Record<string, unknown>[] };
    for (const name of names) {
      const last = Number(snapshot.checkpoints.get(name));
      expect(report.streams.find((s) => s.stream === name)).toEqual({
        stream: name,
        axis: 'snapshot',
        last_snapshot: new Date(last * 1000).toISOString().replace('.000Z', 'Z'),
        incomplete: false,
        refresh_seconds: 3600,
        next_due: new Date((last + 3600) * 1000).toISOString().replace('.000Z', 'Z'),
      });
    }
  });
});

describe.each<SinkKind>(['duckdb', 'parquet'])('nft_items of one owner into %s', (kind) => {
  const GROW = 300;
  let devnet: Devnet;
  let work: Workspace;
  let sinkPath: string;
  let pipeline: string;
  let owner: string;
  const ownedBy = (items: readonly Record<string, unknown>[]): Set<string> => new Set(items.filter((item) => item.owner_address === owner).map((item) => String(item.address)));

  beforeAll(async () => {
    devnet = await startTestDevnet({ seed: SEED, blocks: BLOCKS });
    // The same chain GROW blocks later: an owner who holds an item now and has sent it away by then.
    const later = truthRows(buildDevnetApi({ seed: SEED, blocks: BLOCKS + GROW }), 'nft_items');
    const now = devnet.truth('nft_items');
    const ownerLater = new Map(later.map((item) => [String(item.address), item.owner_address]));
    owner = String(now.find((item) => ownerLater.get(String(item.address)) !== item.owner_address)!.owner_address);
    work = await makeWorkspace(`nft-owner-${kind}`);
    sinkPath = work.sinkPath(kind);
    const file = await work.pipeline({ url: devnet.url, kind, sinkPath, streams: [] });
    await writeFile(file, (await readFile(file, 'utf8')).replace('streams: []', `streams: { nft_items: { owner_addresses: [${JSON.stringify(owner)}] } }`));
    pipeline = file;
  });

  afterAll(async () => {
    await devnet?.close();
    await work?.remove();
  });

  const expectOwnerState = async (): Promise<Set<string>> => {
    const result = await runCliInProcess(['sync', pipeline]);
    expect(result.code, describeResult(result)).toBe(0);
    const snapshot = await readWarehouse(kind, sinkPath, { tables: nftItemsStream.tables });
    const time = Number(snapshot.checkpoints.get('nft_items'));
    const expected = expectedSnapshotRows(devnet, nftItemsStream, time, (item) => item.owner_address === owner).get('nft_items')!;
    for (const source of snapshot.glob === undefined ? [snapshot.tables] : [snapshot.tables, snapshot.glob]) {
      const diff = diffRows(nftItemsStream.tables[0]!, expected, source.get('nft_items')!);
      expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
    }
    return new Set(snapshot.tables.get('nft_items')!.map((row) => String(row.nft_item)));
  };

  it('holds what the owner holds; after the owner sent an item away, the next snapshot no longer has it', async () => {
    const before = await expectOwnerState();
    expect(before).toEqual(ownedBy(devnet.truth('nft_items')));
    devnet.grow(GROW);
    const after = await expectOwnerState();
    const gone = [...before].filter((item) => !after.has(item));
    expect(gone.length).toBeGreaterThan(0);
    expect(after).toEqual(ownedBy(devnet.truth('nft_items')));
  });
});

describe.each<SinkKind>(['duckdb', 'parquet'])('nft_collections of one address into %s', (kind) => {
  it('holds that collection alone, equal to the state, its next_item_index exact (-1 for TON DNS)', async () => {
    const devnet = await startTestDevnet({ seed: SEED, blocks: 30 });
    const work = await makeWorkspace(`nft-collections-${kind}`);
    try {
      const dns = devnet.truth('nft_collections').find((collection) => collection.next_item_index === '-1')!;
      const sinkPath = work.sinkPath(kind);
      const file = await work.pipeline({ url: devnet.url, kind, sinkPath, streams: [] });
      await writeFile(file, (await readFile(file, 'utf8')).replace('streams: []', `streams: { nft_collections: { addresses: [${JSON.stringify(dns.address)}] } }`));
      const result = await runCliInProcess(['sync', file]);
      expect(result.code, describeResult(result)).toBe(0);
      const snapshot = await readWarehouse(kind, sinkPath, { tables: nftCollectionsStream.tables });
      const time = Number(snapshot.checkpoints.get('nft_collections'));
      const expected = expectedSnapshotRows(devnet, nftCollectionsStream, time, (collection) => collection.address === dns.address).get('nft_collections')!;
      expect(expected.map((row) => [row.collection, row.next_item_index])).toEqual([[dns.address, -1n]]);
      for (const source of snapshot.glob === undefined ? [snapshot.tables] : [snapshot.tables, snapshot.glob]) {
        const diff = diffRows(nftCollectionsStream.tables[0]!, expected, source.get('nft_collections')!);
        expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
      }
    } finally {
      await devnet.close();
      await work.remove();
    }
  });
});

describe.each<SinkKind>(['duckdb', 'parquet'])('snapshot streams under faults into %s', (kind) => {
  it('5xx, resets, truncated and malformed bodies, unknown fields on the snapshot endpoints: the sync exits 0 and each table equals the state', async () => {
    const snapshotPaths = new Set(snapshotStreams.map((stream) => stream.endpoint));
    const { devnet, log } = await startChaosDevnet({
      seed: SEED + 1,
      blocks: 60,
      faults: { http5xx: 0.4, reset: 0.15, truncate: 0.15, malformedJson: 0.15, unknownFields: 0.5 },
    });
    const faulted = new Set<string>();
    const stop = log.listen((info) => {
      if (snapshotPaths.has(info.path)) for (const fault of info.faults) faulted.add(fault);
    });
    const work = await makeWorkspace(`snapshot-faults-${kind}`);
    try {
      const sinkPath = work.sinkPath(kind);
      const file = await work.pipeline({ url: devnet.url, kind, sinkPath, streams: names });
      const result = await runInProcess(['sync', file, '--log-level', 'silent'], { [KEY_ENV]: KEY });
      expect(result.code, describeResult(result)).toBe(0);
      stop();
      // The faults reached the snapshot reads themselves, or the test proves nothing about them.
      expect(faulted.size, `faults on the snapshot endpoints: ${[...faulted].join(', ')}`).toBeGreaterThanOrEqual(3);
      const snapshot = await readWarehouse(kind, sinkPath, { tables });
      for (const stream of snapshotStreams) {
        for (const [table, rows] of expectedSnapshotRows(devnet, stream, Number(snapshot.checkpoints.get(stream.name)))) {
          const diff = diffRows(stream.tables.find((t) => t.name === table)!, rows, snapshot.tables.get(table)!);
          expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
        }
      }
      expect(snapshot.rejects).toBe(0);
    } finally {
      stop();
      await devnet.close();
      await work.remove();
    }
  });
});
