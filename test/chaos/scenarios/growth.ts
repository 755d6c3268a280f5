/**
 * The chain grows while syncs run: the devnet appends a masterchain block every `growMs` while
 * `sync --follow` runs for a while (then SIGTERM) and while plain syncs run; then the indexer is
 * frozen (the devnet's `stallIndexer`: the chain goes on growing, the indexed view stands still) and
 * a final sync must leave the warehouse equal to the truth up to the checkpoints, at the frozen tip.
 */
import { expect } from 'vitest';
import { streams } from '../../../src/streams/index.js';
import { tipBlock, tipPositionOf } from '../../support/chain-points.js';
import { spawnCli } from '../../support/cli.js';
import { describeResult, messageLines } from '../../support/cli-result.js';
import { sleep } from '../../support/sleep.js';
import { readVerified } from '../support/read.js';
import type { SinkKind, Workspace } from '../../support/workspace.js';
import { chaosPipeline, runLogged } from '../support/cli.js';
import { startChaosDevnet } from '../support/devnet.js';
import { ExitLog, recordScenario } from '../support/table.js';
import { CLEAN, faults, syncedBounds, tableRow, verifyWarehouse } from '../support/verify.js';

export interface GrowthScenario {
  readonly name: string;
  readonly seed: number;
  readonly blocks: number;
  readonly growMs: number;
  /** How long `sync --follow --interval 0.5` runs at least before SIGTERM (and until it started its third sync). */
  readonly followMs: number;
  /** Plain syncs while the chain grows, after the follow. */
  readonly syncs: number;
}

export async function runGrowthScenario(work: Workspace, scenario: GrowthScenario, kind: SinkKind): Promise<void> {
  const { devnet, log } = await startChaosDevnet({ seed: scenario.seed, blocks: scenario.blocks, growMs: scenario.growMs });
  try {
    const label = `growth-${kind}`;
    const sinkPath = work.sinkPath(kind, label);
    const pipeline = await chaosPipeline(work, { url: devnet.url, kind, sinkPath, name: `${label}.yaml` });
    const exits = new ExitLog();
    const startSeqno = devnet.view.indexedSeqno;

    // Every sync starts by reading the indexer's head: the third read means two syncs are done.
    let heads = 0;
    const stop = log.listen((info) => {
      if (info.path === '/api/v3/masterchainInfo' && info.status === 200) heads += 1;
    });
    const follow = spawnCli(['sync', pipeline, '--follow', '--interval', '0.5'], { cwd: work.dir, timeoutMs: scenario.followMs + 120_000 });
    await sleep(scenario.followMs);
    for (let waited = 0; heads < 3 && waited < 60_000; waited += 100) await sleep(100);
    stop();
    follow.child.kill('SIGTERM');
    const followed = await follow.done;
    exits.add(followed);
    const afterFollow = await readVerified(kind, sinkPath);
    const followRuns = afterFollow.runs.length;

    const plain = [];
    for (let i = 0; i < scenario.syncs; i++) plain.push(await runLogged(exits, ['sync', pipeline], { cwd: work.dir }));

    devnet.stallIndexer();
    const frozenAt = devnet.view.indexedSeqno;
    const final = await runLogged(exits, ['sync', pipeline], { cwd: work.dir });
    const snapshot = await readVerified(kind, sinkPath);
    const verdict = verifyWarehouse(devnet, snapshot, syncedBounds(devnet, snapshot));
    const tip = tipBlock(devnet);
    const atTip = streams.filter((stream) => snapshot.checkpoints.get(stream.name) === tipPositionOf(tip, stream)).length;
    const statuses = snapshot.runs.map((run) => run.status);
    recordScenario(
      tableRow(scenario.name, kind, verdict, exits.exits(), [
        `a block every ${scenario.growMs} ms: chain ${startSeqno} → ${frozenAt} (frozen for the final sync)`,
        `--follow: ${followRuns} runs, then SIGTERM`,
        `runs: ${statuses.filter((s) => s === 'ok').length} ok, ${statuses.filter((s) => s !== 'ok').join(', ') || 'no other'}`,
        `${atTip}/${streams.length} checkpoints at the final tip`,
      ]),
    );
    expect(followed.code, describeResult(followed)).toBe(143);
    expect(messageLines(followed.stderr)).toEqual(['chain-etl: interrupted by SIGTERM: every committed page is kept; run the same command again to resume']);
    expect(followRuns, 'sync --follow synced more than once').toBeGreaterThan(1);
    for (const result of [...plain, final]) expect(result.code, describeResult(result)).toBe(0);
    expect(frozenAt - startSeqno, 'the chain grew while syncing').toBeGreaterThan(10);
    expect(atTip).toBe(streams.length);
    expect(faults(verdict), verdict.problems.join('\n')).toEqual(CLEAN);
  } finally {
    await devnet.close();
  }
}
