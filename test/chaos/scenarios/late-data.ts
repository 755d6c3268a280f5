/**
 * Late data: actions appear only `classifyDelay` blocks after their trace completed, traces complete
 * after the sync that stored their first transactions, and the indexer re-classifies old traces
 * (their action_id changes). Sync, grow, sync, re-classify, grow, sync: after each sync the warehouse
 * equals the truth up to the checkpoints; the late actions arrive below the old checkpoint; the
 * re-classified traces' old action_ids are gone from actions and action_accounts and the new ones
 * are there.
 */
import { expect } from 'vitest';
import { describeResult } from '../../support/cli-result.js';
import type { Snapshot } from '../../support/warehouse-snapshot.js';
import { readVerified } from '../support/read.js';
import type { SinkKind, Workspace } from '../../support/workspace.js';
import { chaosPipeline, runLogged } from '../support/cli.js';
import { startChaosDevnet } from '../support/devnet.js';
import { ExitLog, recordScenario } from '../support/table.js';
import { CLEAN, faults, syncedBounds, tableRow, verifyWarehouse, type Verdict } from '../support/verify.js';

export interface LateDataScenario {
  readonly name: string;
  readonly seed: number;
  readonly blocks: number;
  readonly classifyDelay: number;
  /** Blocks grown between the first and the second sync (more than `classifyDelay`). */
  readonly growBy: number;
  /** Traces re-classified between the second and the third sync. */
  readonly reclassify: number;
}

export async function runLateDataScenario(work: Workspace, scenario: LateDataScenario, kind: SinkKind): Promise<void> {
  const { devnet } = await startChaosDevnet({ seed: scenario.seed, blocks: scenario.blocks, classifyDelay: scenario.classifyDelay });
  try {
    const sinkPath = work.sinkPath(kind, `late-${scenario.seed}`);
    const pipeline = await chaosPipeline(work, { url: devnet.url, kind, sinkPath, name: `late-${scenario.seed}-${kind}.yaml` });
    const exits = new ExitLog();
    const problems: string[] = [];
    const sync = async (step: string): Promise<{ snapshot: Snapshot; verdict: Verdict }> => {
      const result = await runLogged(exits, ['sync', pipeline], { cwd: work.dir });
      if (result.code !== 0) problems.push(`${step}: ${describeResult(result)}`);
      const snapshot = await readVerified(kind, sinkPath);
      const verdict = verifyWarehouse(devnet, snapshot, syncedBounds(devnet, snapshot));
      problems.push(...verdict.problems.map((problem) => `${step}: ${problem}`));
      return { snapshot, verdict };
    };
    const actionIds = (snapshot: Snapshot, table: 'actions' | 'action_accounts'): Set<string> =>
      new Set(snapshot.tables.get(table)!.map((row) => String(row.action_id)));

    const first = await sync('first sync');
    const checkpoint = first.snapshot.checkpoints.get('actions')!;
    const before = actionIds(first.snapshot, 'actions');

    devnet.grow(scenario.growBy);
    const second = await sync('second sync');
    const late = [...actionIds(second.snapshot, 'actions')].filter((id) => !before.has(id));
    const lateBelow = second.snapshot.tables.get('actions')!.filter((row) => !before.has(String(row.action_id)) && (row.trace_end_lt as bigint) <= checkpoint);

    const traces = new Set(devnet.reclassify(scenario.reclassify));
    const oldIds = second.snapshot.tables.get('actions')!.filter((row) => traces.has(String(row.trace_id))).map((row) => String(row.action_id));
    devnet.grow(2);
    const newIds = devnet
      .truth('actions')
      .filter((action) => traces.has(String(action.trace_id)))
      .map((action) => String(action.action_id));
    const third = await sync('third sync');
    const stillThere = {
      actions: oldIds.filter((id) => actionIds(third.snapshot, 'actions').has(id)),
      action_accounts: oldIds.filter((id) => actionIds(third.snapshot, 'action_accounts').has(id)),
    };
    const absent = {
      actions: newIds.filter((id) => !actionIds(third.snapshot, 'actions').has(id)),
      action_accounts: newIds.filter((id) => !actionIds(third.snapshot, 'action_accounts').has(id)),
    };

    recordScenario(
      tableRow(scenario.name, kind, third.verdict, exits.exits(), [
        `classify delay ${scenario.classifyDelay}; after sync 2: ${lateBelow.length} late actions below sync 1's checkpoint (of ${late.length} new)`,
        `reclassified ${traces.size} traces: ${oldIds.length} old action_ids, ${stillThere.actions.length + stillThere.action_accounts.length} left; ${newIds.length} new, ${absent.actions.length + absent.action_accounts.length} absent`,
        `syncs 1–2 mismatches: ${first.verdict.missing + first.verdict.extra + first.verdict.changed + first.verdict.duplicated}, ${second.verdict.missing + second.verdict.extra + second.verdict.changed + second.verdict.duplicated}`,
      ]),
    );
    expect(problems).toEqual([]);
    expect(faults(third.verdict), third.verdict.problems.join('\n')).toEqual(CLEAN);
    expect(lateBelow.length, 'actions of traces that completed or were classified after the first sync, below its checkpoint').toBeGreaterThan(0);
    expect(traces.size).toBe(scenario.reclassify);
    expect(oldIds.length, 'the re-classified traces were in the warehouse').toBeGreaterThanOrEqual(scenario.reclassify);
    expect(new Set(newIds).size).toBe(newIds.length);
    expect(newIds.filter((id) => oldIds.includes(id)), 'the action_ids changed').toEqual([]);
    expect(stillThere).toEqual({ actions: [], action_accounts: [] });
    expect(absent).toEqual({ actions: [], action_accounts: [] });
  } finally {
    await devnet.close();
  }
}
