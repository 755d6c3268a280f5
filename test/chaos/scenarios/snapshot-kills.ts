/**
 * kill -9 of `sync` while it takes snapshots (every snapshot stream of the registry), then a rerun.
 * A first sync takes a complete snapshot; the chain grows (balances and owners change, items leave a
 * scope), and each killed run reads the new state, one stream after another (concurrency 1), killed
 * at its moment: inside its first commit (before any snapshot page), between two pages of a stream,
 * inside a stream's final commit (the one deleting the other snapshots' rows), or at seeded times.
 * After every kill each snapshot table holds the last complete snapshot and the pages committed
 * since, each row equal to the state its snapshot read and nothing of the complete one lost
 * (test/chaos/support/snapshot-state.ts); the rerun completes, and each table equals the new state
 * of its scope with no row of a half-taken snapshot left, both through the manifest and the raw
 * glob for Parquet, whose folder then holds exactly the manifest's files.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { expect } from 'vitest';
import type { SnapshotDefinition } from '../../../src/core/stream.js';
import type { Devnet } from '../../../src/devnet/index.js';
import { DEFAULT_PAGE_LIMIT } from '../../../src/run/runner.js';
import { snapshotStreams } from '../../../src/streams/index.js';
import { runCliInProcess } from '../../support/cli-in-process.js';
import { describeResult } from '../../support/cli-result.js';
import { describeDiff, diffRows, mismatch, type RowDiff } from '../../support/row-diff.js';
import { seededRandom } from '../../support/seeded-random.js';
import { snapshotRowsOf } from '../../support/snapshot-truth.js';
import { readVerified } from '../support/read.js';
import type { SinkKind, Workspace } from '../../support/workspace.js';
import { chaosPipeline, describeMoment, spawnAndSignal, type Moment } from '../support/cli.js';
import { isDataPage, startChaosDevnet } from '../support/devnet.js';
import { leftScope, progressOf, scopeState, snapshotProblems, streamsYaml, wholeScope, type ScopeState, type SnapshotScope } from '../support/snapshot-state.js';
import { ExitLog, recordScenario } from '../support/table.js';

/** The data pages of one run in the order the devnet sends them: its block lookups, then each stream's pages in turn. */
export interface RunPages {
  /** Every data page of a run. */
  readonly total: number;
  /** The pages of a stream's read. */
  pagesOf(stream: SnapshotDefinition): number;
  /** The number, within a run, of a stream's n-th page (negative: from its last, -1 the last). */
  pageOf(stream: SnapshotDefinition, n: number): number;
}

export interface SnapshotKillScenario {
  readonly name: string;
  readonly seed: number;
  /** Chain length at the first, complete snapshot. */
  readonly blocks: number;
  /** Blocks the chain grows by before the killed runs, so that they read another state. */
  readonly growBy: number;
  /** Where each run is killed, given a run's pages; a rerun follows the last kill. */
  moments(pages: RunPages, random: () => number): readonly Moment[];
  /** Seed of `random` (per sink: `momentSeed + index of the sink`). */
  readonly momentSeed: number;
  readonly latencyMs: number;
}

/**
 * Every snapshot stream of the registry over the whole service, but `nft_items` over half the owners
 * holding items now: as the chain grows their items go to other owners and leave the scope, so the
 * final commit has rows to delete (the whole service's lists only grow on the devnet).
 */
export function snapshotScopes(devnet: Devnet): SnapshotScope[] {
  return snapshotStreams.map((stream) => {
    if (stream.name !== 'nft_items') return wholeScope(stream);
    const owners = [...new Set(devnet.truth('nft_items').map((item) => String(item.owner_address)))].sort().filter((_owner, index) => index % 2 === 0);
    const kept = new Set(owners);
    return { stream, filters: `{ owner_addresses: [${owners.map((owner) => JSON.stringify(owner)).join(', ')}] }`, keep: (raw) => kept.has(String(raw.owner_address)) };
  });
}

/** Pages of a snapshot read of `count` items: full pages overlap by one item, and a short page ends it. */
function readPages(count: number, limit: number): number {
  let pages = 1;
  let seen = Math.min(count, limit);
  let last = seen;
  while (last === limit) {
    last = Math.min(limit, count - seen + 1);
    seen += last - 1;
    pages += 1;
  }
  return pages;
}

function runPages(scopes: readonly SnapshotScope[], state: ScopeState, lookups: number): RunPages {
  const first = new Map<string, number>();
  const count = new Map<string, number>();
  let total = lookups;
  for (const { stream } of scopes) {
    first.set(stream.name, total + 1);
    count.set(stream.name, readPages(state.get(stream.name)!.length, DEFAULT_PAGE_LIMIT));
    total += count.get(stream.name)!;
  }
  return {
    total,
    pagesOf: (stream) => count.get(stream.name)!,
    pageOf: (stream, n) => first.get(stream.name)! + (n > 0 ? n - 1 : count.get(stream.name)! + n),
  };
}

/** `4 after-ms, 4 after-page, 4 in-commit, 4 in a later commit` */
function countKinds(moments: readonly Moment[]): string {
  const counts = new Map<string, number>();
  for (const moment of moments) {
    const kind = moment.kind === 'in-commit' && (moment.after ?? 0) > 0 ? 'in a later commit' : moment.kind;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].map(([kind, count]) => `${count} ${kind}`).join(', ');
}

function isClean(diff: RowDiff): boolean {
  const counts = mismatch(diff);
  return counts.missing + counts.extra + counts.changed + counts.duplicates === 0;
}

export async function runSnapshotKillScenario(work: Workspace, scenario: SnapshotKillScenario, kind: SinkKind, sinkIndex: number): Promise<void> {
  const { devnet, log } = await startChaosDevnet({ seed: scenario.seed, blocks: scenario.blocks, latencyMs: scenario.latencyMs });
  try {
    const scopes = snapshotScopes(devnet);
    const tables = scopes.flatMap((scope) => scope.stream.tables);
    const snapshotPaths = new Set(scopes.map((scope) => scope.stream.endpoint));
    const sinkPath = work.sinkPath(kind, `snapshots-killed-${scenario.seed}`);
    const pipeline = await chaosPipeline(work, { url: devnet.url, kind, sinkPath, rate: { rps: 50, concurrency: 1 }, streams: [], name: `snapshots-killed-${scenario.seed}-${kind}.yaml` });
    await writeFile(pipeline, (await readFile(pipeline, 'utf8')).replace('streams: []', streamsYaml(scopes)));
    const exits = new ExitLog();
    const read = (glob: boolean) => readVerified(kind, sinkPath, { tables, partial: true, glob });

    // The first snapshot, complete, of the chain as it is now; it counts the run's block lookups.
    let lookups = 0;
    const stop = log.listen((info) => {
      if (isDataPage(info) && !snapshotPaths.has(info.path)) lookups += 1;
    });
    const first = await runCliInProcess(['sync', pipeline]);
    stop();
    exits.add(first);
    expect(first.code, describeResult(first)).toBe(0);
    const before = scopeState(devnet, scopes);
    const afterFirst = await read(false);
    const firstTimes = new Map(scopes.map(({ stream }) => [stream.name, progressOf(afterFirst, stream).complete]));

    devnet.grow(scenario.growBy);
    const now = scopeState(devnet, scopes);
    const stateAt = (stream: string, time: number): readonly Record<string, unknown>[] => (firstTimes.get(stream) === time ? before : now).get(stream)!;
    const left = leftScope(before, now, scopes);
    const pages = runPages(scopes, now, lookups);

    const problems: string[] = [];
    /** Per stream: the kills that left it with a snapshot half-taken (its rows mixed with the complete one's). */
    const halfTaken = new Map(scopes.map(({ stream }) => [stream.name, 0]));
    let leftHalfTaken = 0;
    let finishedEarly = 0;
    const random = seededRandom(scenario.momentSeed + sinkIndex);
    const moments = scenario.moments(pages, random);
    for (const [index, moment] of moments.entries()) {
      const { result } = await spawnAndSignal(['sync', pipeline], { cwd: work.dir, timeoutMs: 120_000 }, 'SIGKILL', moment, { log, kind, sinkPath });
      exits.add(result);
      if (result.signal !== 'SIGKILL') {
        finishedEarly += 1;
        problems.push(`kill ${index + 1} (${describeMoment(moment)}) came after the run ended: ${describeResult(result)}`);
      }
      const snapshot = await read(false);
      for (const problem of snapshotProblems(snapshot.tables, snapshot, scopes, stateAt)) problems.push(`after kill ${index + 1} (${describeMoment(moment)}): ${problem}`);
      const pending = scopes.filter(({ stream }) => progressOf(snapshot, stream).pending.length > 0).map(({ stream }) => stream.name);
      for (const stream of pending) halfTaken.set(stream, halfTaken.get(stream)! + 1);
      if (pending.length > 0) leftHalfTaken += 1;
    }

    const rerun = await runCliInProcess(['sync', pipeline]);
    exits.add(rerun);
    const snapshot = await read(true);
    const sources = snapshot.glob === undefined ? [snapshot.tables] : [snapshot.tables, snapshot.glob];
    for (const source of sources) for (const problem of snapshotProblems(source, snapshot, scopes, stateAt)) problems.push(`after the rerun${source === snapshot.glob ? ' (parquet glob)' : ''}: ${problem}`);
    const diffs = scopes.flatMap(({ stream }) => {
      const expected = snapshotRowsOf(stream, now.get(stream.name)!, Number(snapshot.checkpoints.get(stream.name)));
      return stream.tables.map((table) => diffRows(table, expected.get(table.name)!, snapshot.tables.get(table.name)!));
    });
    const stillPending = scopes.filter(({ stream }) => progressOf(snapshot, stream).pending.length > 0).map(({ stream }) => stream.name);
    const listed = new Set(snapshot.files?.listed ?? []);
    const unlisted = (snapshot.files?.onDisk ?? []).filter((file) => !listed.has(file));
    const sum = (pick: (diff: RowDiff) => number): number => diffs.reduce((total, diff) => total + pick(diff), 0);
    recordScenario({
      scenario: scenario.name,
      sink: kind,
      expected: sum((diff) => diff.expected),
      found: sum((diff) => diff.actual),
      missing: sum((diff) => diff.missing),
      extra: sum((diff) => diff.extra),
      duplicated: sum((diff) => diff.duplicates),
      changed: sum((diff) => diff.changed),
      exits: exits.exits(),
      notes: [
        `${scopes.length} snapshot streams, ${pages.total} data pages a run`,
        `left their scope as the chain grew: ${[...left].map(([stream, count]) => `${stream} ${count}`).join(', ')}`,
        `kills: ${countKinds(moments)}`,
        `${leftHalfTaken} left a snapshot half-taken (${[...halfTaken].map(([stream, count]) => `${stream} ${count}`).join(', ')})`,
        `consistent after each kill: ${problems.length === 0 ? 'yes' : `NO (${problems.length} problems)`}`,
        ...(kind === 'parquet' ? [`${unlisted.length} files outside the manifest after the rerun`] : []),
      ].join('; '),
    });
    expect(rerun.code, describeResult(rerun)).toBe(0);
    expect(finishedEarly, 'every kill landed while the run ran').toBe(0);
    expect(problems).toEqual([]);
    for (const diff of diffs) expect(isClean(diff), describeDiff(diff)).toBe(true);
    expect(stillPending, 'no snapshot left pending after the rerun').toEqual([]);
    expect(unlisted, 'files outside the manifest after the rerun').toEqual([]);
    // The scenario proves something: the final commit had rows to delete, and some kill left a snapshot half-taken.
    expect([...left.values()].some((count) => count > 0), 'items left a scope as the chain grew').toBe(true);
    expect(leftHalfTaken, 'kills that left a snapshot half-taken').toBeGreaterThan(0);
  } finally {
    await devnet.close();
  }
}
