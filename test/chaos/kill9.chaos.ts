/**
 * Chaos: 20 kill -9 at seeded moments of one backfill per sink (both sinks at once, each with its
 * own devnet), each followed by a restart. The moments take turns: a time after the start
 * (300–2500 ms: while the process starts, opens the warehouse, plans or pages), 0–40 ms after the
 * n-th page of data left the devnet (the page is being parsed or committed), and the sink's first
 * commit write after a page (DuckDB's WAL, the Parquet manifest's temp file: inside a commit).
 * Each run gets a page budget below the pages the rest of the backfill needs (so it is killed before
 * it can finish, whatever the machine's speed), about an even share of them; at concurrency 1 the
 * checkpoint moves with every page, so the kills spread over the whole range. Then 16 kills per sink
 * of a sync taking snapshots (every snapshot stream of the registry), followed by a rerun
 * (test/chaos/scenarios/snapshot-kills.ts).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';
import { snapshotStreams } from '../../src/streams/index.js';
import { runKillScenario, type KillScenario } from './scenarios/kills.js';
import { runSnapshotKillScenario, type SnapshotKillScenario } from './scenarios/snapshot-kills.js';
import { drawMoment, type Moment } from './support/cli.js';
import { printLocalTable } from './support/table.js';

let work: Workspace;

beforeAll(async () => {
  work = await makeWorkspace('chaos-kill9');
});

afterAll(async () => {
  await work?.remove();
  printLocalTable('kill -9');
});

const SCENARIO: KillScenario = {
  name: 'kill -9 ×20 during backfill, restart',
  seed: 777,
  blocks: 260,
  rangeBlocks: 250,
  kills: 20,
  momentSeed: 0x5eed,
  rate: { rps: 50, concurrency: 1 },
  latencyMs: 10,
};

/**
 * 16 kills per sink of a sync taking snapshots, the moments taking turns: a time after the start, a
 * seeded page and 0–40 ms after it, inside the commit after a seeded page (page 0: the run's first
 * commit), and inside a seeded stream's final commit (the one after its last page's).
 */
const SNAPSHOT_SCENARIO: SnapshotKillScenario = {
  name: 'kill -9 ×16 mid-snapshot, rerun',
  seed: 777,
  blocks: 200,
  growBy: 200,
  moments: (pages, random) => {
    const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
    const kinds = ['after-ms', 'after-page', 'in-commit', 'final-commit'] as const;
    return Array.from({ length: 16 }, (_, index): Moment => {
      const kind = kinds[index % kinds.length]!;
      if (kind === 'after-ms') return drawMoment(kind, pages.total, random);
      if (kind === 'after-page') return drawMoment(kind, int(1, pages.total), random);
      if (kind === 'in-commit') return drawMoment(kind, int(0, pages.total), random);
      return { kind: 'in-commit', pages: pages.pageOf(snapshotStreams[int(0, snapshotStreams.length - 1)]!, -1), after: 1 };
    });
  },
  momentSeed: 0x5a9,
  latencyMs: 10,
};

describe('kill -9 during a backfill', () => {
  it('20 kills at seeded moments per sink, each followed by a restart: a consistent prefix after every kill, the truth at the end', async () => {
    const sinks: SinkKind[] = ['duckdb', 'parquet'];
    const outcomes = await Promise.allSettled(sinks.map((kind, index) => runKillScenario(work, SCENARIO, kind, index)));
    for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
  });
});

describe('kill -9 while a sync takes snapshots', () => {
  it('16 kills at seeded moments per sink, then a rerun: consistent after every kill, each snapshot table equals the state at the end', async () => {
    const sinks: SinkKind[] = ['duckdb', 'parquet'];
    const outcomes = await Promise.allSettled(sinks.map((kind, index) => runSnapshotKillScenario(work, SNAPSHOT_SCENARIO, kind, index)));
    for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
  });
});
