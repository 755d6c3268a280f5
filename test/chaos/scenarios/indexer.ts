/**
 * An indexer that misbehaves in time: a lagging replica behind the load balancer (every other v3
 * request is answered by a replica `replicaLag` blocks behind, so the head moves backwards between
 * requests), and an indexer that stalls while the chain goes on, then resumes.
 */
import { expect } from 'vitest';
import { streams } from '../../../src/streams/index.js';
import { tipBlock, tipPositionOf } from '../../support/chain-points.js';
import { describeResult, messageLines } from '../../support/cli-result.js';
import { describeDiff, diffSnapshots } from '../../support/row-diff.js';
import type { Snapshot } from '../../support/warehouse-snapshot.js';
import { readVerified } from '../support/read.js';
import type { SinkKind, Workspace } from '../../support/workspace.js';
import { chaosPipeline, runLogged } from '../support/cli.js';
import { startChaosDevnet } from '../support/devnet.js';
import { ExitLog, recordScenario } from '../support/table.js';
import { CLEAN, faults, syncedBounds, tableRow, verifyWarehouse, type Verdict } from '../support/verify.js';

/** The verdict of a warehouse no sync got to fill. */
const NOTHING_SYNCED: Verdict = { expected: 0, found: 0, missing: 0, extra: 0, duplicated: 0, changed: 0, missingByTable: {}, changedByTable: {}, unknownEnum: 0, problems: [], notes: [] };

export interface ReplicaScenario {
  readonly name: string;
  readonly seed: number;
  readonly blocks: number;
  readonly replicaLag: number;
  /** The pipeline's `lag.mc_blocks`. */
  readonly lagMcBlocks: number;
  /** Growth before each sync after the first. */
  readonly grows: readonly number[];
  /**
   * What must hold: the truth after every sync; the truth but for late actions (actions the replica
   * had not classified yet are missing after a sync, their traces still `unclassified`, and both come
   * right with a later sync's overlap re-scan: nothing else is ever missing, extra or changed); or every sync refused (exit 1, naming replicas
   * out of step) with nothing written.
   * @default 'equal after every sync'
   */
  readonly outcome?: 'equal after every sync' | 'equal but for late actions' | 'refused';
}

/** Where a replica behind in classification leaves rows missing until a later overlap re-scan. */
const LATE_TABLES = new Set(['actions', 'action_accounts']);
/** Where it leaves rows stale until then: a trace's `classification_state` still `unclassified` (the only column a re-read changes). */
const LATE_CHANGES = new Set(['traces']);

const OUT_OF_STEP = /^chain-etl: the index reports masterchain block \d+ as its newest, but \/api\/v3\/blocks does not show block \d+ \(lag\.mc_blocks \d+ below it\): the service answers from replicas that are out of step; raise lag\.mc_blocks above the lag between them$/;

/** Syncs a chain served through a lagging replica; the warehouse must match the scenario's `outcome` against the truth up to its checkpoints. */
export async function runReplicaScenario(work: Workspace, scenario: ReplicaScenario, kind: SinkKind): Promise<Verdict> {
  const { devnet } = await startChaosDevnet({ seed: scenario.seed, blocks: scenario.blocks, replicaLag: scenario.replicaLag });
  try {
    const label = `replica-${scenario.replicaLag}-lag-${scenario.lagMcBlocks}-${kind}`;
    const sinkPath = work.sinkPath(kind, label);
    const pipeline = await chaosPipeline(work, { url: devnet.url, kind, sinkPath, lagMcBlocks: scenario.lagMcBlocks, name: `${label}.yaml` });
    const exits = new ExitLog();
    const codes: (number | null)[] = [];
    const perSync: string[] = [];
    const perSyncProblems: string[] = [];
    let snapshot: Snapshot | undefined;
    let verdict: Verdict | undefined;
    const messages = new Set<string>();
    const outcome = scenario.outcome ?? 'equal after every sync';
    let lateOnly = true;
    for (const [index, grow] of [0, ...scenario.grows].entries()) {
      devnet.grow(grow);
      const result = await runLogged(exits, ['sync', pipeline], { cwd: work.dir });
      codes.push(result.code);
      if (result.code !== 0) {
        if (outcome !== 'refused') throw new Error(`sync ${index + 1}: ${describeResult(result)}`);
        for (const line of messageLines(result.stderr)) messages.add(line);
        perSync.push(`sync failed (exit ${result.code})`);
        continue;
      }
      snapshot = await readVerified(kind, sinkPath);
      verdict = verifyWarehouse(devnet, snapshot, syncedBounds(devnet, snapshot));
      const missing = Object.entries(verdict.missingByTable).map(([table, count]) => `${table} ${count}`);
      perSync.push(missing.length === 0 ? 'none' : missing.join(' '));
      perSyncProblems.push(...verdict.problems.map((problem) => `sync ${index + 1}: ${problem}`));
      lateOnly &&=
        Object.keys(verdict.missingByTable).every((table) => LATE_TABLES.has(table)) &&
        Object.keys(verdict.changedByTable).every((table) => LATE_CHANGES.has(table)) &&
        verdict.problems.flatMap((problem) => problem.split('\n')).filter((line) => line.includes(' ≠ ')).every((line) => /^\s*changed \[[^\]]*\]: classification_state "unclassified" ≠ expected "[^"]+"$/.test(line)) &&
        verdict.extra + verdict.duplicated === 0;
    }
    verdict ??= NOTHING_SYNCED;
    recordScenario(
      tableRow(scenario.name, kind, verdict, exits.exits(), [
        `missing after each sync: ${perSync.join('; ')}`,
        ...[...messages].slice(0, 1).map((message) => `stderr: ${JSON.stringify(`${message.slice(0, 150)}…`)}`),
        `must hold: ${outcome}`,
      ]),
    );
    if (outcome === 'refused') {
      expect(codes.every((code) => code === 1)).toBe(true);
      expect([...messages].every((line) => OUT_OF_STEP.test(line)), [...messages].join('\n')).toBe(true);
      expect(snapshot).toBeUndefined();
      const left = await readVerified(kind, sinkPath, { partial: true });
      expect([...left.tables.values()].flat()).toEqual([]);
    } else {
      expect(codes.every((code) => code === 0)).toBe(true);
      if (outcome === 'equal after every sync') {
        expect(perSyncProblems).toEqual([]);
        expect(faults(verdict), verdict.problems.join('\n')).toEqual(CLEAN);
      } else {
        expect(lateOnly, perSyncProblems.join('\n')).toBe(true);
      }
    }
    return verdict;
  } finally {
    await devnet.close();
  }
}

export interface StallScenario {
  readonly name: string;
  readonly seed: number;
  readonly blocks: number;
  /** Blocks the chain grows while the indexer stands still. */
  readonly growWhileStalled: number;
}

/** Sync; the indexer stalls and the chain grows; sync (exit 0, nothing new); the indexer resumes; sync (caught up, the truth). */
export async function runStallScenario(work: Workspace, scenario: StallScenario, kind: SinkKind): Promise<void> {
  const { devnet } = await startChaosDevnet({ seed: scenario.seed, blocks: scenario.blocks });
  try {
    const label = `stalled-${kind}`;
    const sinkPath = work.sinkPath(kind, label);
    const pipeline = await chaosPipeline(work, { url: devnet.url, kind, sinkPath, name: `${label}.yaml` });
    const exits = new ExitLog();
    const first = await runLogged(exits, ['sync', pipeline], { cwd: work.dir });
    const before = await readVerified(kind, sinkPath);

    devnet.stallIndexer();
    const stalledAt = devnet.view.indexedSeqno;
    devnet.grow(scenario.growWhileStalled);
    const stalled = await runLogged(exits, ['sync', pipeline], { cwd: work.dir });
    const during = await readVerified(kind, sinkPath);
    const changes = diffSnapshots(before.tables, during.tables).filter((diff) => diff.missing + diff.extra + diff.changed + diff.duplicates > 0);
    const stalledRun = during.runs.find((run) => !before.runs.some((old) => old.run_id === run.run_id));
    const newRows = stalledRun === undefined ? undefined : (JSON.parse(stalledRun.rows) as Record<string, number>);

    devnet.resumeIndexer();
    const resumed = await runLogged(exits, ['sync', pipeline], { cwd: work.dir });
    const after = await readVerified(kind, sinkPath);
    const verdict = verifyWarehouse(devnet, after, syncedBounds(devnet, after));
    const tip = tipBlock(devnet);
    const atTip = streams.filter((stream) => after.checkpoints.get(stream.name) === tipPositionOf(tip, stream)).length;
    recordScenario(
      tableRow(scenario.name, kind, verdict, exits.exits(), [
        `indexer stalled at ${stalledAt} while the chain grew ${scenario.growWhileStalled} blocks`,
        `sync while stalled: ${changes.length === 0 ? 'no row changed' : `${changes.length} tables changed`}, rows ${JSON.stringify(newRows)}`,
        `after resume: ${atTip}/${streams.length} checkpoints at the new tip ${tip.seqno}`,
      ]),
    );
    for (const result of [first, stalled, resumed]) expect(result.code, describeResult(result)).toBe(0);
    expect(changes.map(describeDiff)).toEqual([]);
    expect(during.checkpoints).toEqual(before.checkpoints);
    // No new row: the overlaps re-read (actions, traces) count as replaced rows, not new ones.
    expect(newRows).toEqual(Object.fromEntries(streams.map((stream) => [stream.name, 0])));
    expect(tip.seqno).toBe(stalledAt + scenario.growWhileStalled);
    expect(atTip).toBe(streams.length);
    expect(faults(verdict), verdict.problems.join('\n')).toEqual(CLEAN);
  } finally {
    await devnet.close();
  }
}
