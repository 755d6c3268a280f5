/**
 * A sync's own checks of what it committed, from the user's side, both sinks: a proxy in front of
 * the devnet leaves one transaction out of every page that lists it during the first sync, so the
 * block that holds it lists one transaction more than the warehouse stores. That sync commits and
 * exits 1 naming the block and the backfill that mends it; the next sync, with the service healthy,
 * refuses before it fetches anything and writes nothing; the mend line runs; a sync then succeeds
 * and `verify` finds the warehouse consistent, the left-out transaction stored. Two backfills of
 * separate ranges pass their checks: the hole between them is no loss. A hole the service keeps
 * serving is kept with `--accept-inconsistent`, each inconsistency logged.
 */
import { describe, expect, it } from 'vitest';
import { transactionsTable } from '../../src/streams/transactions.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult, messageLines } from '../support/cli-result.js';
import type { MisbehavingServer } from '../support/misbehaving-server.js';
import { useProxiedDevnet } from '../support/proxied-devnet.js';
import { FIRST_MC } from '../support/test-devnet.js';
import { readWarehouse } from '../support/warehouse-snapshot.js';
import type { SinkKind, Workspace } from '../support/workspace.js';

let work: Workspace;
let proxy: MisbehavingServer;
useProxiedDevnet('committed-checks', { seed: 5151, blocks: 40 }, (setup) => ({ work, proxy } = setup));

/** Passes the devnet's answers through, leaving the transaction `hash` (the first page's third, once chosen) out of every transactions list. */
function leavingOneOut(): { readonly hash: () => string | undefined } {
  let hash: string | undefined;
  proxy.behave((request) => {
    if (new URL(request.url, proxy.origin).pathname !== '/api/v3/transactions') return { kind: 'proxy' };
    return { kind: 'proxy', change: (answer) => {
      const transactions = answer['transactions'] as { hash: string }[];
      hash ??= transactions[2]?.hash;
      return { ...answer, transactions: transactions.filter((transaction) => transaction.hash !== hash) };
    } };
  });
  return { hash: () => hash };
}

describe.each<SinkKind>(['duckdb', 'parquet'])('a sync whose commits the chain contradicts, into %s', (kind) => {
  it('exits 1 naming the mend, and no sync builds on it until the mend has run', async () => {
    const sinkPath = work.sinkPath(kind, 'checked');
    const pipeline = await work.pipeline({ url: proxy.url, kind, sinkPath, name: `checked-${kind}.yaml`, streams: ['blocks', 'transactions'] });
    const left = leavingOneOut();
    const first = await runCliInProcess(['sync', pipeline]);
    expect(first.code, describeResult(first)).toBe(1);
    const [head, ...found] = messageLines(first.stderr);
    expect(head).toMatch(/^chain-etl: the rows this run committed contradict the chain \(\d+ inconsistenc(y|ies)\); they stay, and every sync refuses to build on them until the mend lines below have run \(if a mend ends the same way, --accept-inconsistent keeps them\)$/);
    const block = found.find((line) => line.startsWith('block-transactions, transactions: block '));
    expect(block, first.stderr).toMatch(/ lists (\d+) transactions, (\d+) are stored; mend: chain-etl backfill .+ --refetch --from lt:\d+ --to lt:\d+$/);
    const [, listed, stored] = / lists (\d+) transactions, (\d+) are stored/.exec(block!)!;
    expect(Number(listed) - Number(stored)).toBe(1);
    const before = await readWarehouse(kind, sinkPath, { glob: false, partial: true, tables: [transactionsTable] });
    expect(before.tables.get('transactions')!.some((row) => row['tx_hash'] === left.hash())).toBe(false);

    proxy.behave(() => ({ kind: 'proxy' }));
    const refused = await runCliInProcess(['sync', pipeline]);
    expect(refused.code, describeResult(refused)).toBe(1);
    const [refusal, ...again] = messageLines(refused.stderr);
    expect(refusal).toMatch(/^chain-etl: the rows an earlier run committed contradict the chain \(\d+ inconsistenc(y|ies)\), so this sync fetches nothing: run the mend lines below, then sync again \(if a mend ends the same way, --accept-inconsistent keeps them\)$/);
    expect(again).toEqual(found);
    const after = await readWarehouse(kind, sinkPath, { glob: false, partial: true, tables: [transactionsTable] });
    expect([after.checkpoints, after.runs]).toEqual([before.checkpoints, before.runs]);

    for (const line of found) {
      const mend = / mend: chain-etl (.+)$/.exec(line)![1]!.split(' ');
      const result = await runCliInProcess(mend);
      expect(result.code, describeResult(result)).toBe(0);
    }
    const synced = await runCliInProcess(['sync', pipeline]);
    expect(synced.code, describeResult(synced)).toBe(0);
    const verified = await runCliInProcess(['verify', pipeline]);
    expect([verified.code, verified.stdout], describeResult(verified)).toEqual([0, expect.stringMatching(/^consistent: /)]);
    const mended = await readWarehouse(kind, sinkPath, { glob: false, tables: [transactionsTable] });
    expect(mended.tables.get('transactions')!.filter((row) => row['tx_hash'] === left.hash())).toHaveLength(1);
  });
});

describe.each<SinkKind>(['duckdb', 'parquet'])('a hole the service keeps serving, into %s', (kind) => {
  it('no mend fixes it; --accept-inconsistent keeps the rows, logging each, and later syncs go on', async () => {
    const sinkPath = work.sinkPath(kind, 'kept');
    const pipeline = await work.pipeline({ url: proxy.url, kind, sinkPath, name: `kept-${kind}.yaml`, streams: ['blocks', 'transactions'] });
    leavingOneOut();
    const first = await runCliInProcess(['sync', pipeline]);
    expect(first.code, describeResult(first)).toBe(1);
    const found = messageLines(first.stderr).slice(1);
    const mend = await runCliInProcess(/ mend: chain-etl (.+)$/.exec(found[0]!)![1]!.split(' '));
    expect(mend.code, describeResult(mend)).toBe(1);
    const accepted = await runCliInProcess(['sync', pipeline, '--accept-inconsistent']);
    expect(accepted.code, describeResult(accepted)).toBe(0);
    const warned = accepted.stderr.split('\n').filter((line) => line.includes('"level":40')).map((line) => (JSON.parse(line) as { inconsistency: string }).inconsistency);
    expect(warned).toEqual(found);
    const next = await runCliInProcess(['sync', pipeline]);
    expect(next.code, describeResult(next)).toBe(0);
  });
});

describe.each<SinkKind>(['duckdb', 'parquet'])('two backfills of separate ranges, into %s', (kind) => {
  it('pass their own checks and verify: the hole between them is no loss', async () => {
    const sinkPath = work.sinkPath(kind, 'apart');
    const pipeline = await work.pipeline({ url: proxy.url, kind, sinkPath, name: `apart-${kind}.yaml`, streams: ['blocks', 'transactions'] });
    proxy.behave(() => ({ kind: 'proxy' }));
    for (const [from, to] of [[0, 10], [25, 39]]) {
      const result = await runCliInProcess(['backfill', pipeline, '--from', `mc:${FIRST_MC + from!}`, '--to', `mc:${FIRST_MC + to!}`]);
      expect(result.code, describeResult(result)).toBe(0);
    }
    const verified = await runCliInProcess(['verify', pipeline, '--offline']);
    expect(verified.code, describeResult(verified)).toBe(0);
    expect(verified.stdout.split('\n').filter((line) => line.startsWith('not covered: ')).map((line) => line.split(' ')[2]).sort()).toEqual(['blocks', 'transactions']);
  });
});

