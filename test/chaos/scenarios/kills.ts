/**
 * kill -9 at seeded moments of a backfill, each followed by a restart of the same command: after
 * every kill the warehouse holds a consistent prefix (nothing beyond the truth, nothing missing
 * below a checkpoint, no manifest entry without its file); the last restart finishes, and the
 * warehouse equals the truth for the range. Parquet: after that last open the folder holds exactly
 * the manifest's files and the raw glob (`read_parquet(…, hive_partitioning = true)`) has no orphan
 * or duplicate row; every killed run that recorded itself is marked abandoned.
 */
import { existsSync } from 'node:fs';
import { expect } from 'vitest';
import { parseItems } from '../../../src/api/wire.js';
import { ABANDONED_RUN_ERROR } from '../../../src/run/abandoned-runs.js';
import type { StreamDefinition } from '../../../src/core/stream.js';
import type { Devnet } from '../../../src/devnet/index.js';
import { MIN_WINDOW, estimatePagesLeft, splitWindows, windowsFor } from '../../../src/run/windows.js';
import { streams } from '../../../src/streams/index.js';
import { mcBlock, positionAt, type Bounds } from '../../support/chain-points.js';
import { describeResult } from '../../support/cli-result.js';
import { expectedWarehouse } from '../../support/expected-rows.js';
import { seededRandom } from '../../support/seeded-random.js';
import { FIRST_MC } from '../../support/test-devnet.js';
import type { SinkKind, Workspace } from '../../support/workspace.js';
import { truthDatasetOf } from '../../support/truth-dataset.js';
import { chaosPipeline, describeMoment, drawMoment, runLogged, spawnAndSignal, type MomentKind } from '../support/cli.js';
import { startChaosDevnet } from '../support/devnet.js';
import { readCommitted, readVerified } from '../support/read.js';
import { ExitLog, recordScenario } from '../support/table.js';
import { CLEAN, faults, prefixProblems, tableRow, verifyWarehouse } from '../support/verify.js';

export interface KillScenario {
  readonly name: string;
  readonly seed: number;
  readonly blocks: number;
  /** The backfill is `--from mc:FIRST_MC --to mc:FIRST_MC + rangeBlocks`. */
  readonly rangeBlocks: number;
  readonly kills: number;
  /** Seed of the kill moments (per sink: `momentSeed + index of the sink`). */
  readonly momentSeed: number;
  readonly rate: { readonly rps: number; readonly concurrency: number };
  readonly latencyMs: number;
}

/** The range's bounds on each axis: [start of block FIRST_MC, start of block `to` − 1]. */
export function rangeBounds(devnet: Devnet, toMc: number): (stream: StreamDefinition) => Bounds {
  const from = mcBlock(devnet, FIRST_MC);
  const to = mcBlock(devnet, toMc);
  return (stream) => ({ from: positionAt(from, stream), to: positionAt(to, stream) - 1n });
}

/** Positions of every truth item per stream, per devnet (the chain does not change during a kill scenario). */
const positionsCache = new WeakMap<Devnet, Map<string, bigint[]>>();

function positionsOf(devnet: Devnet, stream: StreamDefinition): bigint[] {
  let cache = positionsCache.get(devnet);
  if (cache === undefined) positionsCache.set(devnet, (cache = new Map()));
  let positions = cache.get(stream.name);
  if (positions === undefined) {
    const { ok } = parseItems(stream.item, devnet.truth(truthDatasetOf(stream)));
    cache.set(stream.name, (positions = ok.map((item) => stream.position(item))));
  }
  return positions;
}

/**
 * The fewest pages of data a backfill of `bounds` takes: the runner reads each stream's range as one
 * window first; when that page is full, it splits the rest (from the page's last position) into as
 * many windows as the runner does, and a window needs one page per 1000 items (more at page edges).
 */
export function fewestPages(devnet: Devnet, bounds: (stream: StreamDefinition) => Bounds, concurrency: number): number {
  let pages = 0;
  for (const stream of streams) {
    const { from, to } = bounds(stream);
    if (from > to) continue;
    const positions = positionsOf(devnet, stream)
      .filter((position) => position >= from && position <= to)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    pages += 1;
    if (positions.length < 1000) continue;
    // The first page keeps the items before its last position and restarts at it.
    const restart = positions[999]!;
    const kept = positions.filter((position) => position < restart).length;
    const count = Math.min(windowsFor(concurrency), estimatePagesLeft({ from, to }, kept, restart - 1n, 1000));
    for (const window of splitWindows(restart, to, count, MIN_WINDOW[stream.axis])) {
      const items = positions.filter((position) => position >= window.from && position <= window.to).length;
      pages += Math.max(1, Math.ceil(items / 1000));
    }
  }
  return pages;
}

export async function runKillScenario(work: Workspace, scenario: KillScenario, kind: SinkKind, sinkIndex: number): Promise<void> {
  const { devnet, log } = await startChaosDevnet({ seed: scenario.seed, blocks: scenario.blocks, latencyMs: scenario.latencyMs });
  try {
    const toMc = FIRST_MC + scenario.rangeBlocks;
    const range = ['--from', `mc:${FIRST_MC}`, '--to', `mc:${toMc}`];
    const bounds = rangeBounds(devnet, toMc);
    const sinkPath = work.sinkPath(kind, `killed-${scenario.seed}`);
    const pipeline = await chaosPipeline(work, { url: devnet.url, kind, sinkPath, rate: scenario.rate, name: `killed-${scenario.seed}-${kind}.yaml` });
    const args = ['backfill', pipeline, ...range];
    const exits = new ExitLog();
    const random = seededRandom(scenario.momentSeed + sinkIndex);
    const kinds: MomentKind[] = ['after-ms', 'after-page', 'in-commit'];
    /** Checkpoints after the last kill: the next run plans from them. */
    let reachedBy = (stream: StreamDefinition): bigint | undefined => {
      void stream;
      return undefined;
    };
    const problems: string[] = [];
    const landed = new Map<string, number>();
    let orphansSeen = 0;
    let finishedEarly = 0;
    /** Per kill: how far the backfill had got (the share of the range's rows below the checkpoints), `-` before the warehouse existed. */
    const progress: string[] = [];
    const totalRows = [...expectedWarehouse(devnet, bounds).values()].reduce((sum, rows) => sum + rows.length, 0);

    for (let index = 0; index < scenario.kills; index++) {
      // The fewest pages the next run needs (it splits what is left into windows afresh); its page
      // budget stays below that, so it is killed before it can finish, and is about an even share of
      // it, so the kills spread over the whole range.
      const left = fewestPages(devnet, (stream) => ({ from: (reachedBy(stream) ?? bounds(stream).from - 1n) + 1n, to: bounds(stream).to }), scenario.rate.concurrency);
      const share = Math.max(1, Math.round((left / (scenario.kills - index + 1)) * (0.5 + random())));
      const moment = drawMoment(kinds[index % kinds.length]!, Math.min(share + 1, left - 1), random);
      const { result, sent } = await spawnAndSignal(args, { cwd: work.dir, timeoutMs: 120_000 }, 'SIGKILL', moment, { log, kind, sinkPath });
      exits.add(result);
      if (result.signal !== 'SIGKILL') {
        finishedEarly += 1;
        problems.push(`kill ${index + 1} (${describeMoment(moment)}) came after the run ended: ${describeResult(result)}`);
      } else if (sent) {
        landed.set(moment.kind, (landed.get(moment.kind) ?? 0) + 1);
      }
      if (!existsSync(sinkPath)) {
        progress.push('-');
        continue;
      }
      // What the sink counts as committed (a kill may land while the first run creates the warehouse: what is missing reads as empty).
      const snapshot = await readCommitted(kind, sinkPath);
      reachedBy = (stream) => snapshot.checkpoints.get(stream.name);
      for (const problem of prefixProblems(devnet, snapshot, bounds)) problems.push(`after kill ${index + 1} (${describeMoment(moment)}): ${problem}`);
      if (snapshot.files !== undefined) {
        const listed = new Set(snapshot.files.listed);
        orphansSeen += snapshot.files.onDisk.filter((file) => !listed.has(file)).length;
      }
      const below = expectedWarehouse(devnet, (stream) => ({ from: bounds(stream).from, to: reachedBy(stream) ?? bounds(stream).from - 1n }));
      progress.push(String(Math.round((100 * [...below.values()].reduce((sum, rows) => sum + rows.length, 0)) / totalRows)));
    }

    const final = await runLogged(exits, args, { cwd: work.dir, timeoutMs: 120_000 });
    const snapshot = await readVerified(kind, sinkPath);
    const verdict = verifyWarehouse(devnet, snapshot, bounds);
    for (const stream of streams) {
      if (snapshot.checkpoints.get(stream.name) !== bounds(stream).to) problems.push(`${stream.name}: checkpoint ${snapshot.checkpoints.get(stream.name)}, range ends at ${bounds(stream).to}`);
    }
    const listed = new Set(snapshot.files?.listed ?? []);
    const unlisted = (snapshot.files?.onDisk ?? []).filter((file) => !listed.has(file)).length;
    const landedKinds = [...landed].map(([kind, count]) => `${count} ${kind}`).join(', ');
    recordScenario(
      tableRow(scenario.name, kind, verdict, exits.exits(), [
        `kills: ${landedKinds}`,
        `% of the range committed after each: ${progress.join(' ')}`,
        `consistent prefix after each kill: ${problems.length === 0 ? 'yes' : `NO (${problems.length} problems)`}`,
        ...(kind === 'parquet' ? [`${orphansSeen} orphan files seen between kills, ${unlisted} after the last open`] : []),
      ]),
    );
    expect(final.code, describeResult(final)).toBe(0);
    expect(finishedEarly, 'every kill landed while the backfill ran').toBe(0);
    expect(problems).toEqual([]);
    expect(faults(verdict), verdict.problems.join('\n')).toEqual(CLEAN);
    expect(snapshot.runs.filter((run) => run.status === 'ok')).toHaveLength(1);
    // Each killed run that got to record itself was marked abandoned by the next one.
    expect(snapshot.runs.filter((run) => run.status !== 'ok').map((run) => [run.status, run.error])).toEqual(
      snapshot.runs.filter((run) => run.status !== 'ok').map(() => ['abandoned', ABANDONED_RUN_ERROR]),
    );
  } finally {
    await devnet.close();
  }
}
