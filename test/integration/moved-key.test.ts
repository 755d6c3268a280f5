/**
 * A key the service lists again at another position, from the user's side: a first backfill stores
 * transaction X; during a second backfill of a later range, a proxy in front of the devnet serves
 * another transaction Y under X's hash. The warehouse keeps X once, as read last (at Y's lt), in both
 * sinks, and the run counts the stored row it dropped as replaced. A second backfill that fails after
 * committing such a page (its next page answers 500) leaves X once too: a failed run sweeps what it
 * committed.
 */
import { appendFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { transactionsTable } from '../../src/streams/transactions.js';
import type { Devnet } from '../../src/devnet/index.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult, messageLines } from '../support/cli-result.js';
import type { MisbehavingServer } from '../support/misbehaving-server.js';
import { useProxiedDevnet } from '../support/proxied-devnet.js';
import { FIRST_MC } from '../support/test-devnet.js';
import { readWarehouse } from '../support/warehouse-snapshot.js';
import type { SinkKind, Workspace } from '../support/workspace.js';

const SEED = 6161;
const BLOCKS = 100;
const MID = FIRST_MC + 20;
const TO = FIRST_MC + 39;
/** The end of a range of two pages of transactions (about 1,700). */
const LONG_TO = FIRST_MC + 99;

interface ApiTransaction {
  hash: string;
  lt: string;
}

let work: Workspace;
let devnet: Devnet;
let proxy: MisbehavingServer;
useProxiedDevnet('moved-key', { seed: SEED, blocks: BLOCKS }, (setup) => ({ work, devnet, proxy } = setup));

/** Passes the devnet's answers through, each transactions list given to `see` (which may change it). */
function watchingTransactions(see: (transactions: ApiTransaction[]) => void): void {
  proxy.behave((request) => {
    if (new URL(request.url, proxy.origin).pathname !== '/api/v3/transactions') return { kind: 'proxy' };
    return { kind: 'proxy', change: (answer) => {
      see(answer['transactions'] as ApiTransaction[]);
      return answer;
    } };
  });
}

describe.each<SinkKind>(['duckdb', 'parquet'])('a key listed again at another position, into %s', (kind) => {
  it('is stored once, where it was read last; the dropped row counts as replaced', async () => {
    const sinkPath = work.sinkPath(kind, 'moved');
    const pipeline = await work.pipeline({ url: proxy.url, kind, sinkPath, name: `moved-${kind}.yaml`, streams: ['transactions'] });
    let moved: ApiTransaction | undefined;
    watchingTransactions((transactions) => {
      moved ??= transactions[0];
    });
    const first = await runCliInProcess(['backfill', pipeline, '--from', `mc:${FIRST_MC}`, '--to', `mc:${MID}`]);
    expect(first.code, describeResult(first)).toBe(0);
    expect(moved, 'a transaction of the first range').toBeDefined();
    // The runs in order by which backfill made them: two runs may start in the same second.
    const firstRuns = new Set((await readWarehouse(kind, sinkPath, { glob: false, partial: true, tables: [] })).runs.map((row) => row.run_id));

    let taker: ApiTransaction | undefined;
    watchingTransactions((transactions) => {
      for (const transaction of transactions) {
        taker ??= { ...transaction };
        if (transaction.hash === taker.hash) transaction.hash = moved!.hash;
      }
    });
    const second = await runCliInProcess(['backfill', pipeline, '--from', `mc:${MID}`, '--to', `mc:${TO}`]);
    expect(taker, 'a transaction of the second range').toBeDefined();
    // The moved key breaks the chain's links where it left and where it landed: the run's own checks say so.
    expect(second.code, describeResult(second)).toBe(1);
    const [head, ...found] = messageLines(second.stderr);
    expect(head).toMatch(/^chain-etl: the rows this run committed contradict the chain \(2 inconsistencies\)/);
    expect(found.map((line) => line.split(':')[0])).toEqual(['transaction-links, transactions', 'transaction-links, transactions']);
    expect(found.every((line) => line.includes(moved!.hash))).toBe(true);

    const snapshot = await readWarehouse(kind, sinkPath, { glob: false, partial: true, tables: [transactionsTable] });
    const rows = snapshot.tables.get('transactions')!;
    const hashes = rows.map((row) => row['tx_hash'] as string);
    expect(hashes.length - new Set(hashes).size, 'keys stored twice').toBe(0);
    expect(rows.filter((row) => row['tx_hash'] === moved!.hash).map((row) => String(row['tx_lt']))).toEqual([taker!.lt]);
    expect(rows.filter((row) => row['tx_hash'] === taker!.hash), "the taker's own key").toEqual([]);
    const byBackfill = (row: { run_id: string }): number => (firstRuns.has(row.run_id) ? 0 : 1);
    const replaced = [...snapshot.runs].sort((a, b) => byBackfill(a) - byBackfill(b)).map((row) => [row.status, JSON.parse(row.rows_replaced!) as unknown]);
    expect(replaced).toEqual([['ok', { transactions: 0 }], ['failed', { transactions: 1 }]]);
  });

  it('is stored once when the run fails after committing it: a failed run sweeps what it committed', async () => {
    const sinkPath = work.sinkPath(kind, 'moved-failed');
    const pipeline = await work.pipeline({ url: proxy.url, kind, sinkPath, name: `moved-failed-${kind}.yaml`, streams: ['transactions'] });
    await appendFile(pipeline, 'http: { retries: 1 }\n');
    let moved: ApiTransaction | undefined;
    watchingTransactions((transactions) => {
      moved ??= transactions[0];
    });
    const first = await runCliInProcess(['backfill', pipeline, '--from', `mc:${FIRST_MC}`, '--to', `mc:${MID}`]);
    expect(first.code, describeResult(first)).toBe(0);

    // The second range's first page lists Y under X's hash and commits; every later page fails.
    let taker: ApiTransaction | undefined;
    let pages = 0;
    proxy.behave((request) => {
      if (new URL(request.url, proxy.origin).pathname !== '/api/v3/transactions') return { kind: 'proxy' };
      if (pages++ > 0) return { kind: 'reply', status: 500, body: '{"error":"timeout: context deadline exceeded"}' };
      return { kind: 'proxy', change: (answer) => {
        const transactions = answer['transactions'] as ApiTransaction[];
        taker = { ...transactions[0]! };
        transactions[0]!.hash = moved!.hash;
        return answer;
      } };
    });
    const second = await runCliInProcess(['backfill', pipeline, '--from', `mc:${MID}`, '--to', `mc:${LONG_TO}`]);
    expect(second.code, describeResult(second)).toBe(1);
    expect(messageLines(second.stderr)).toEqual([expect.stringMatching(/^chain-etl: .*500/)]);

    const rows = (await readWarehouse(kind, sinkPath, { glob: false, partial: true, tables: [transactionsTable] })).tables.get('transactions')!;
    expect(rows.filter((row) => row['tx_hash'] === moved!.hash).map((row) => String(row['tx_lt'])), 'X, stored where it was read last').toEqual([taker!.lt]);
    const hashes = rows.map((row) => row['tx_hash'] as string);
    expect(hashes.length - new Set(hashes).size, 'keys stored twice').toBe(0);
  });
});
