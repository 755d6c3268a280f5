/**
 * `chain-etl sync` against a devnet, for both sinks: the warehouse equals the devnet truth over the
 * synced range (positions from the pipeline's start up to each stream's checkpoint), a re-run changes
 * nothing, growth is picked up exactly, big amounts stay exact, ties are complete, and actions of
 * traces classified late arrive through the actions overlap re-scan. The command runs in process
 * (what the binary itself does is judged in cli.test.ts and backfill.test.ts).
 */
import { appendFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Devnet } from '../../src/devnet/index.js';
import type { StreamDefinition } from '../../src/core/stream.js';
import { streams } from '../../src/streams/index.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { addressProblems } from '../support/address-check.js';
import { mcBlock, positionAt, tipBlock, tipPositionOf } from '../support/chain-points.js';
import { describeResult } from '../support/cli-result.js';
import { expectTablesEqual } from '../support/expect-truth.js';
import { expectedWarehouse } from '../support/expected-rows.js';
import { NO_MISMATCH, describeDiff, diffRows, diffSnapshots, keyOf, mismatch, tableNamed } from '../support/row-diff.js';
import { FIRST_MC, startTestDevnet } from '../support/test-devnet.js';
import { openWarehouse } from '../support/warehouse-reader.js';
import { readWarehouse, type Snapshot } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';

const SEED = 4242;
const BLOCKS = 100;
/**
 * `actions_overlap.mc_blocks`, below the default 150 so that a chain of BLOCKS (+ 10) still has rows
 * below the re-scan that a sync must not read again.
 */
const OVERLAP = 50;
const CLASSIFY_DELAY = 5;
const TWO_POW_100 = 2n ** 100n;
/** Tables whose rows come only from positions above the checkpoint (no overlap re-scan). */
const APPEND_ONLY = ['transactions', 'messages', 'jetton_transfers', 'validator_events'] as const;

describe.each<SinkKind>(['duckdb', 'parquet'])('sync into %s', (kind) => {
  let devnet: Devnet;
  let work: Workspace;
  let pipeline: string;
  let sinkPath: string;
  /** Snapshots after each sync, in order. */
  const snapshots: Snapshot[] = [];

  const sync = async (): Promise<Snapshot> => {
    const result = await runCliInProcess(['sync', pipeline]);
    expect(result.code, describeResult(result)).toBe(0);
    const snapshot = await readWarehouse(kind, sinkPath);
    snapshots.push(snapshot);
    return snapshot;
  };

  /** The warehouse must equal the truth from the start block up to each stream's stored checkpoint. */
  const expectEqualsTruth = (snapshot: Snapshot): void => {
    const first = mcBlock(devnet, FIRST_MC);
    const expected = expectedWarehouse(devnet, (stream) => ({ from: positionAt(first, stream), to: snapshot.checkpoints.get(stream.name)! }));
    expectTablesEqual(expected, snapshot);
    const addresses = snapshot.tables.get('addresses')!;
    expect(addresses.length).toBeGreaterThan(0);
    expect(addressProblems(devnet, addresses)).toEqual([]);
    if (snapshot.glob !== undefined) expect(mismatch(diffRows(tableNamed('addresses'), addresses, snapshot.glob.get('addresses')!))).toEqual(NO_MISMATCH);
    expect(snapshot.rejects).toBe(0);
  };

  /**
   * The rows and rows_replaced of the latest run, by stream: what it took the place of is the stored
   * rows of `before` that the overlap re-scan read again (positions from `actions_overlap` masterchain
   * blocks below the previous checkpoint's block, which was the tip then); every other row is new.
   */
  const expectRunCounts = (before: Snapshot, after: Snapshot, previousTip: number): void => {
    const rescanFrom = mcBlock(devnet, Math.max(FIRST_MC, previousTip - OVERLAP)).startLt;
    // The cycles whose complaints may still change at the previous run's tip are read again from the first of them.
    const tipTime = mcBlock(devnet, previousTip).utime;
    const open = before.tables.get('validator_cycles')!.filter((row) => (row.cycle_end_time as number) + (row.stake_held_for as number) > tipTime);
    const reopenedFrom = Math.min(...open.map((row) => row.cycle_start_time as number));
    const expected = (stream: StreamDefinition): [number, number] => {
      let added = 0;
      let reread = 0;
      for (const table of stream.tables) {
        const stored = new Set(before.tables.get(table.name)!.map((row) => keyOf(table, row)));
        for (const row of after.tables.get(table.name)!) {
          if (!stored.has(keyOf(table, row))) added += 1;
          else if (stream.rescansOverlap && (row[table.clusterBy!] as bigint) >= rescanFrom) reread += 1;
          else if (stream.openUntil !== undefined && (row.cycle_start_time as number) >= reopenedFrom) reread += 1;
        }
      }
      return [added, reread];
    };
    const run = after.runs.find((latest) => !before.runs.some((earlier) => earlier.run_id === latest.run_id))!;
    const [rows, replaced] = [JSON.parse(run.rows) as Record<string, number>, JSON.parse(run.rows_replaced!) as Record<string, number>];
    expect(Object.fromEntries(streams.map((stream) => [stream.name, [rows[stream.name], replaced[stream.name]]]))).toEqual(
      Object.fromEntries(streams.map((stream) => [stream.name, expected(stream)])),
    );
    expect(replaced.actions, 'the overlap re-read').toBeGreaterThan(0);
  };

  /** Each stream's checkpoint is the last position of the current settled tip. */
  const expectCheckpointsAtTip = (snapshot: Snapshot): void => {
    const tip = tipBlock(devnet);
    for (const stream of streams) expect(snapshot.checkpoints.get(stream.name), stream.name).toBe(tipPositionOf(tip, stream));
  };

  beforeAll(async () => {
    devnet = await startTestDevnet({ seed: SEED, blocks: BLOCKS, classifyDelay: CLASSIFY_DELAY });
    work = await makeWorkspace(`sync-${kind}`);
    sinkPath = work.sinkPath(kind);
    pipeline = await work.pipeline({ url: devnet.url, kind, sinkPath });
    await appendFile(pipeline, `actions_overlap: { mc_blocks: ${OVERLAP} }\n`);
  });

  afterAll(async () => {
    await devnet?.close();
    await work?.remove();
  });

  it('first sync: every table equals the devnet truth up to the checkpoints; addresses render as the devnet does', async () => {
    const snapshot = await sync();
    expect(tipBlock(devnet).seqno).toBe(FIRST_MC + BLOCKS - 1);
    expectCheckpointsAtTip(snapshot);
    expectEqualsTruth(snapshot);
    expect(snapshot.runs.map((run) => [run.command, run.status])).toEqual([['sync', 'ok']]);
  });

  it('deploys, external messages and their transactions fill init_state_hash, msg_hash_norm, credit_first and compute_gas_credit', () => {
    const snapshot = snapshots[0]!;
    const messages = snapshot.tables.get('messages')!;
    const externalIn = messages.filter((m) => m.source === null && m.direction === 'in');
    expect(externalIn.length).toBeGreaterThan(0);
    expect(externalIn.filter((m) => m.msg_hash_norm === null)).toEqual([]);
    expect(messages.filter((m) => m.msg_hash_norm !== null && m.source !== null)).toEqual([]);
    const deploys = messages.filter((m) => m.init_state_hash !== null);
    expect(deploys.length).toBeGreaterThan(0);
    // A jetton wallet's transfers carry the receiving wallet's StateInit; an undeployed wallet's external its own.
    expect(deploys.filter((m) => m.decoded_opcode !== 'jetton_internal_transfer' && m.source !== null)).toEqual([]);
    expect(deploys.some((m) => m.source === null)).toBe(true);
    const externalTxs = new Set(externalIn.map((m) => String(m.tx_hash)));
    const transactions = snapshot.tables.get('transactions')!;
    const ofExternals = transactions.filter((tx) => externalTxs.has(String(tx.tx_hash)));
    expect(ofExternals.length).toBe(externalTxs.size);
    expect(ofExternals.filter((tx) => tx.credit_first !== true || tx.compute_gas_credit !== 10_000n)).toEqual([]);
    expect(transactions.filter((tx) => tx.compute_gas_credit !== null && !externalTxs.has(String(tx.tx_hash)))).toEqual([]);
  });

  it('lt ties across accounts exist among the synced transactions and every transaction at a tied lt is there', () => {
    const snapshot = snapshots[0]!;
    const accountsAt = new Map<bigint, Set<string>>();
    for (const row of snapshot.tables.get('transactions')!) {
      const lt = row.tx_lt as bigint;
      accountsAt.set(lt, (accountsAt.get(lt) ?? new Set()).add(String(row.account)));
    }
    const tied = [...accountsAt].filter(([, accounts]) => accounts.size >= 2).map(([lt]) => lt);
    expect(tied.length).toBeGreaterThan(0);
    const tiedSet = new Set(tied);
    const truthAtTies = devnet.truth('transactions').filter((tx) => tiedSet.has(BigInt(String(tx.lt))));
    const stored = new Set(snapshot.tables.get('transactions')!.map((row) => String(row.tx_hash)));
    expect(truthAtTies.filter((tx) => !stored.has(String(tx.hash))).map((tx) => tx.hash)).toEqual([]);
    expect(truthAtTies.length).toBeGreaterThanOrEqual(2 * tied.length);
  });

  it('jetton transfers sharing one lt exist and all of them are there', () => {
    const snapshot = snapshots[0]!;
    const checkpoint = snapshot.checkpoints.get('jetton_transfers')!;
    const byLt = new Map<string, string[]>();
    for (const transfer of devnet.truth('jetton_transfers')) {
      if (BigInt(String(transfer.transaction_lt)) > checkpoint) continue;
      const lt = String(transfer.transaction_lt);
      byLt.set(lt, [...(byLt.get(lt) ?? []), String(transfer.transaction_hash)]);
    }
    const ties = [...byLt.values()].filter((hashes) => hashes.length >= 2).flat();
    expect(ties.length).toBeGreaterThan(0);
    const stored = new Set(snapshot.tables.get('jetton_transfers')!.map((row) => String(row.tx_hash)));
    expect(ties.filter((hash) => !stored.has(hash))).toEqual([]);
  });

  it('jetton amounts above 2^100 are stored exactly, as DECIMAL(38,0)', async () => {
    const snapshot = snapshots[0]!;
    const checkpoint = snapshot.checkpoints.get('jetton_transfers')!;
    const giga = devnet
      .truth('jetton_transfers')
      .filter((t) => BigInt(String(t.transaction_lt)) <= checkpoint && BigInt(String(t.amount)) > TWO_POW_100)
      .map((t) => [String(t.transaction_hash), String(t.amount)] as const)
      .sort();
    expect(giga.length).toBeGreaterThan(0);
    // They are all transfers of the GIGA jetton.
    const population = devnet.generator.chain.population;
    const gigaMaster = [...population.byRaw].find(([, index]) => population.accountAt(index).token?.symbol === 'GIGA')![0];
    const masters = new Set(snapshot.tables.get('jetton_transfers')!.filter((row) => (row.amount as bigint) > TWO_POW_100).map((row) => row.jetton_master));
    expect([...masters]).toEqual([gigaMaster]);
    const fromRows = snapshot.tables
      .get('jetton_transfers')!
      .filter((row) => (row.amount as bigint) > TWO_POW_100)
      .map((row) => [String(row.tx_hash), (row.amount as bigint).toString()] as const)
      .sort();
    expect(fromRows).toEqual(giga);

    const reader = await openWarehouse(kind, sinkPath);
    try {
      const relations = kind === 'duckdb' ? [reader.relation('jetton_transfers')] : [reader.relation('jetton_transfers'), 'jetton_transfers'];
      for (const relation of relations) {
        const rows = await reader.query(
          `SELECT tx_hash, amount::VARCHAR AS amount FROM ${relation} WHERE amount > CAST('${TWO_POW_100}' AS DECIMAL(38,0)) ORDER BY tx_hash`,
        );
        expect(rows.map((row) => [String(row.tx_hash), String(row.amount)]), relation).toEqual(giga.map(([h, a]) => [h, a]).sort());
        const types = new Map((await reader.query(`DESCRIBE SELECT * FROM ${relation}`)).map((row) => [row.column_name, row.column_type]));
        expect([types.get('amount'), types.get('forward_ton_amount')], relation).toEqual(['DECIMAL(38,0)', 'DECIMAL(38,0)']);
      }
    } finally {
      reader.close();
    }
  });

  it('a re-run right away changes nothing and records a second ok run: 0 new rows, the overlap re-read as replaced', async () => {
    const before = snapshots[0]!;
    const after = await sync();
    expectRunCounts(before, after, tipBlock(devnet).seqno);
    for (const diff of diffSnapshots(before.tables, after.tables)) expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
    if (kind === 'parquet') for (const diff of diffSnapshots(before.glob!, after.glob!)) expect(mismatch(diff), `glob ${describeDiff(diff)}`).toEqual(NO_MISMATCH);
    expect(after.checkpoints).toEqual(before.checkpoints);
    expect(after.runs.map((run) => [run.command, run.status])).toEqual([
      ['sync', 'ok'],
      ['sync', 'ok'],
    ]);
  });

  it('late actions: after the first syncs, traces completed near the tip have no actions yet; 10 blocks later a sync adds them below the old checkpoint', async () => {
    const before = snapshots.at(-1)!;
    const checkpoint = before.checkpoints.get('actions')!;
    const table = tableNamed('actions');
    const storedActions = new Set(before.tables.get('actions')!.map((row) => keyOf(table, row)));
    const storedTraces = new Set(before.tables.get('actions')!.map((row) => String(row.trace_id)));
    const syncedTxTraces = new Set(before.tables.get('transactions')!.map((row) => String(row.trace_id)));
    const visibleBefore = new Set(devnet.truth('actions').map((a) => String(a.action_id)));

    devnet.grow(10);
    const late = devnet
      .truth('actions')
      .filter((a) => !visibleBefore.has(String(a.action_id)) && BigInt(String(a.trace_end_lt)) <= checkpoint);
    // Such traces exist: their transactions are in the warehouse, their actions are not.
    expect(late.length).toBeGreaterThan(0);
    for (const action of late) {
      expect(storedActions.has(keyOf(table, { action_id: action.action_id })), String(action.action_id)).toBe(false);
      expect(storedTraces.has(String(action.trace_id)), String(action.trace_id)).toBe(false);
      expect(syncedTxTraces.has(String(action.trace_id)), String(action.trace_id)).toBe(true);
    }

    const after = await sync();
    expectCheckpointsAtTip(after);
    expectEqualsTruth(after);
    const added = after.tables.get('actions')!.filter((row) => !storedActions.has(keyOf(table, row)));
    const addedBelow = added.filter((row) => (row.trace_end_lt as bigint) <= checkpoint);
    expect(addedBelow.map((row) => String(row.action_id)).sort()).toEqual(late.map((a) => String(a.action_id)).sort());
    for (const row of addedBelow) expect(row.trace_end_lt as bigint).toBeLessThanOrEqual(checkpoint);
    expect(after.checkpoints.get('actions')!).toBeGreaterThan(checkpoint);
    expect(after.runs.filter((run) => run.status === 'ok')).toHaveLength(3);
  });

  it('after the chain grows by 40 blocks, a sync adds exactly the new rows and advances the checkpoints', async () => {
    const before = snapshots.at(-1)!;
    const previousTip = tipBlock(devnet).seqno;
    devnet.grow(40);
    expect(tipBlock(devnet).seqno).toBe(FIRST_MC + BLOCKS + 10 + 40 - 1);
    const after = await sync();
    expectRunCounts(before, after, previousTip);
    expectCheckpointsAtTip(after);
    for (const stream of streams) expect(after.checkpoints.get(stream.name)!, stream.name).toBeGreaterThan(before.checkpoints.get(stream.name)!);
    expectEqualsTruth(after);
    // Exactly the rows above the previous checkpoint were added; the rows below it are unchanged.
    const first = mcBlock(devnet, FIRST_MC);
    const grown = expectedWarehouse(devnet, (stream) => ({
      from: before.checkpoints.get(stream.name)! + 1n,
      to: after.checkpoints.get(stream.name)!,
    }));
    const old = expectedWarehouse(devnet, (stream) => ({ from: positionAt(first, stream), to: before.checkpoints.get(stream.name)! }));
    for (const name of APPEND_ONLY) {
      const table = tableNamed(name);
      const oldKeys = new Set(before.tables.get(name)!.map((row) => keyOf(table, row)));
      const added = after.tables.get(name)!.filter((row) => !oldKeys.has(keyOf(table, row)));
      const diff = diffRows(table, grown.get(name)!, added);
      expect(diff.expected, `${name}: new rows in the grown range`).toBeGreaterThan(0);
      expect(mismatch(diff), `new ${describeDiff(diff)}`).toEqual(NO_MISMATCH);
      const kept = diffRows(table, before.tables.get(name)!, after.tables.get(name)!.filter((row) => oldKeys.has(keyOf(table, row))));
      expect(mismatch(kept), `old ${describeDiff(kept)}`).toEqual(NO_MISMATCH);
      expect(before.tables.get(name)!.length, name).toBe(old.get(name)!.length);
    }
    expect(after.runs.filter((run) => run.status === 'ok')).toHaveLength(4);
  });
});
