/**
 * Jetton masters named by transfers and burns are read by address (docs/design.md §2), for both
 * sinks: a pipeline scoping jetton_masters to one master but syncing every transfer and burn ends
 * with every named master in jetton_masters, equal to the devnet's state, and no transfer without
 * its symbol in jetton_transfers_readable; the by-address requests name each missing master once, in
 * batches within the service's limits (addresses, URL length). When the snapshot is not due, a sync
 * reads only the masters the table lacks, into the last snapshot. Under 5xx answers, resets,
 * truncated and malformed bodies and unknown fields, the same pipeline still ends with every named
 * master.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Devnet } from '../../src/devnet/index.js';
import { jettonMastersStream } from '../../src/streams/jetton-masters.js';
import { runCliInProcess, runInProcess } from '../support/cli-in-process.js';
import { describeResult } from '../support/cli-result.js';
import { startChaosDevnet } from '../chaos/support/devnet.js';
import { KEY, KEY_ENV } from '../support/test-key.js';
import { startOutageProxy, type OutageProxy } from '../support/outage-proxy.js';
import { NO_MISMATCH, describeDiff, diffRows, mismatch } from '../support/row-diff.js';
import { expectedSnapshotRows } from '../support/snapshot-truth.js';
import { startTestDevnet } from '../support/test-devnet.js';
import { openWarehouse } from '../support/warehouse-reader.js';
import { readWarehouse } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';

const SEED = 4242;
const BLOCKS = 120;
/** The service's limit on addresses in one request; the URL's length keeps a batch far below it. */
const ADDRESS_LIMIT = 1024;

describe.each<SinkKind>(['duckdb', 'parquet'])('jetton masters named by transfers and burns into %s', (kind) => {
  let devnet: Devnet;
  let proxy: OutageProxy;
  let work: Workspace;
  let sinkPath: string;
  let scoped: string;
  let named: Set<string>;

  /** The /jetton/masters requests since `from` that named addresses, as sorted lists; the scope's own listing left out. */
  const byAddress = (from: number): string[][] =>
    proxy
      .urls()
      .slice(from)
      .filter((url) => url.pathname === '/api/v3/jetton/masters')
      .map((url) => {
        const addresses = url.searchParams.getAll('address');
        expect(addresses.length, url.search).toBeLessThanOrEqual(ADDRESS_LIMIT);
        expect(url.search.length, url.search).toBeLessThan(8 * 1024);
        expect(Number(url.searchParams.get('limit')), url.search).toBeGreaterThanOrEqual(addresses.length);
        return addresses.sort();
      })
      .filter((addresses) => !(addresses.length === 1 && addresses[0] === scoped));

  const pipelineWith = async (name: string, masters: string): Promise<string> => {
    const file = await work.pipeline({ url: proxy.url, kind, sinkPath, streams: [], name });
    const streams = `streams: { jetton_transfers: {}, jetton_burns: {}, jetton_masters: { ${masters} } }`;
    await writeFile(file, (await readFile(file, 'utf8')).replace('streams: []', streams));
    return file;
  };

  const sync = async (file: string): Promise<void> => {
    const result = await runCliInProcess(['sync', file]);
    expect(result.code, describeResult(result)).toBe(0);
  };

  /** jetton_masters holds exactly the named masters as the devnet lists them now, stamped with the stream's snapshot time. */
  const expectNamedMasters = async (): Promise<number> => {
    const snapshot = await readWarehouse(kind, sinkPath, { tables: jettonMastersStream.tables });
    const time = Number(snapshot.checkpoints.get('jetton_masters'));
    const expected = expectedSnapshotRows(devnet, jettonMastersStream, time, (master) => named.has(String(master.address))).get('jetton_masters')!;
    expect(expected.length).toBe(named.size);
    for (const source of snapshot.glob === undefined ? [snapshot.tables] : [snapshot.tables, snapshot.glob]) {
      const diff = diffRows(jettonMastersStream.tables[0]!, expected, source.get('jetton_masters')!);
      expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
    }
    expect(snapshot.rejects).toBe(0);
    return time;
  };

  beforeAll(async () => {
    devnet = await startTestDevnet({ seed: SEED, blocks: BLOCKS });
    proxy = await startOutageProxy(devnet.url);
    work = await makeWorkspace(`masters-by-key-${kind}`);
    sinkPath = work.sinkPath(kind);
    const transfers = [...devnet.truth('jetton_transfers'), ...devnet.truth('jetton_burns')];
    named = new Set(transfers.map((row) => String(row.jetton_master)));
    scoped = [...named].sort()[0]!;
  });

  afterAll(async () => {
    await proxy?.close();
    await devnet?.close();
    await work?.remove();
  });

  it('a pipeline scoping jetton_masters to one master ends with every master a transfer or burn names, equal to the state, and a symbol for every transfer; --dry-run says so', async () => {
    // The scope alone would miss some: the test proves nothing unless masters outside it are named.
    expect(named.size).toBeGreaterThanOrEqual(2);
    const file = await pipelineWith(`${kind}.yaml`, `addresses: [${JSON.stringify(scoped)}]`);
    const dry = await runCliInProcess(['sync', file, '--dry-run']);
    expect(dry.code, describeResult(dry)).toBe(0);
    const lines = dry.stdout.split('\n');
    const at = lines.findIndex((line) => line.startsWith('jetton_masters '));
    expect(lines.slice(at, at + 2)).toEqual([
      `${'jetton_masters'.padEnd(20)} ${'snapshot of 1 rows'.padEnd(93)} ${'1'.padStart(10)}`,
      `${''.padEnd(20)} + by address, what jetton_transfers and jetton_burns name outside its scope and it lacks: up to 93 a request (not counted: known once they are fetched)`,
    ]);
    const before = proxy.urls().length;
    await sync(file);
    await expectNamedMasters();
    // Each master outside the scope asked for by address once, in one request (they are fewer than a batch).
    expect(byAddress(before)).toEqual([[...named].filter((master) => master !== scoped).sort()]);

    const reader = await openWarehouse(kind, sinkPath);
    try {
      if (kind === 'parquet') await reader.connection.run(await readFile(join(sinkPath, 'views.sql'), 'utf8'));
      const [counts] = await reader.query('SELECT count(*)::INTEGER AS transfers, count(*) FILTER (WHERE symbol IS NULL OR decimals IS NULL)::INTEGER AS without FROM jetton_transfers_readable');
      expect(counts!.transfers).toBeGreaterThan(0);
      expect(counts!.without).toBe(0);
    } finally {
      reader.close();
    }
  });

  it('the chain grows: the next snapshot holds the named masters again, and deletes nothing they still need', async () => {
    devnet.grow(60);
    named = new Set([...devnet.truth('jetton_transfers'), ...devnet.truth('jetton_burns')].map((row) => String(row.jetton_master)));
    const before = proxy.urls().length;
    await sync(join(work.dir, `${kind}.yaml`));
    await expectNamedMasters();
    expect(byAddress(before)).toEqual([[...named].filter((master) => master !== scoped).sort()]);
  });

  it('before jetton_masters is due, a sync reads by address only the masters its table lacks, into its last snapshot', async () => {
    const refreshing = await pipelineWith(`refresh-${kind}.yaml`, `addresses: [${JSON.stringify(scoped)}], refresh: { every: 1h }`);
    let before = proxy.urls().length;
    await sync(refreshing);
    // All are held: not one request to /jetton/masters.
    expect(proxy.urls().slice(before).filter((url) => url.pathname === '/api/v3/jetton/masters')).toEqual([]);
    if (kind !== 'duckdb') return;
    const lost = [...named].filter((master) => master !== scoped).sort()[0]!;
    const instance = await DuckDBInstance.create(sinkPath);
    const connection = await instance.connect();
    await connection.run(`DELETE FROM jetton_masters WHERE jetton_master = '${lost}'`);
    connection.closeSync();
    instance.closeSync();
    before = proxy.urls().length;
    const last = Number((await readWarehouse(kind, sinkPath, { tables: jettonMastersStream.tables })).checkpoints.get('jetton_masters'));
    await sync(refreshing);
    expect(byAddress(before)).toEqual([[lost]]);
    expect(await expectNamedMasters()).toBe(last);
  });
});

describe.each<SinkKind>(['duckdb', 'parquet'])('jetton masters named by transfers and burns under faults into %s', (kind) => {
  it('5xx, resets, truncated and malformed bodies, unknown fields: the sync exits 0 with every named master, equal to the state', async () => {
    const { devnet, log } = await startChaosDevnet({
      seed: SEED + 1,
      blocks: 60,
      faults: { http5xx: 0.4, reset: 0.15, truncate: 0.15, malformedJson: 0.15, unknownFields: 0.5 },
    });
    const proxy = await startOutageProxy(devnet.url);
    const work = await makeWorkspace(`masters-by-key-faults-${kind}`);
    try {
      const named = new Set([...devnet.truth('jetton_transfers'), ...devnet.truth('jetton_burns')].map((row) => String(row.jetton_master)));
      const scoped = [...named].sort()[0]!;
      expect(named.size).toBeGreaterThanOrEqual(2);
      const sinkPath = work.sinkPath(kind);
      const file = await work.pipeline({ url: proxy.url, kind, sinkPath, streams: [] });
      const streams = `streams: { jetton_transfers: {}, jetton_burns: {}, jetton_masters: { addresses: [${JSON.stringify(scoped)}] } }`;
      await writeFile(file, (await readFile(file, 'utf8')).replace('streams: []', streams));
      const result = await runInProcess(['sync', file, '--log-level', 'silent'], { [KEY_ENV]: KEY });
      expect(result.code, describeResult(result)).toBe(0);
      // The faults reached the run, and the by-address read came after everything else.
      expect(log.faults.size, log.describeFaults()).toBeGreaterThanOrEqual(3);
      const last = proxy.urls().at(-1)!;
      expect([last.pathname, last.searchParams.getAll('address').sort()]).toEqual(['/api/v3/jetton/masters', [...named].filter((m) => m !== scoped).sort()]);
      const snapshot = await readWarehouse(kind, sinkPath, { tables: jettonMastersStream.tables });
      const time = Number(snapshot.checkpoints.get('jetton_masters'));
      const expected = expectedSnapshotRows(devnet, jettonMastersStream, time, (master) => named.has(String(master.address))).get('jetton_masters')!;
      const diff = diffRows(jettonMastersStream.tables[0]!, expected, snapshot.tables.get('jetton_masters')!);
      expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
      expect(snapshot.rejects).toBe(0);
    } finally {
      await proxy.close();
      await devnet.close();
      await work.remove();
    }
  });
});
