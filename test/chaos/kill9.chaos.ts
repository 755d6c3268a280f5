/**
 * Chaos: 20 kill -9 at seeded moments of one backfill per sink (both sinks at once, each with its
 * own devnet), each followed by a restart. The moments take turns: a time after the start
 * (300–2500 ms: while the process starts, opens the warehouse, plans or pages), 0–40 ms after the
 * n-th page of data left the devnet (the page is being parsed or committed), and the sink's first
 * commit write after a page (DuckDB's WAL, the Parquet manifest's temp file: inside a commit).
 * Each run gets a page budget below the pages the rest of the backfill needs (so it is killed before
 * it can finish, whatever the machine's speed), about an even share of them; at concurrency 1 the
 * checkpoint moves with every page, so the kills spread over the whole range.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ensureBuilt } from '../support/build.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';
import { runKillScenario, type KillScenario } from './scenarios/kills.js';
import { printLocalTable } from './support/table.js';

let work: Workspace;

beforeAll(async () => {
  ensureBuilt();
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

describe('kill -9 during a backfill', () => {
  it('20 kills at seeded moments per sink, each followed by a restart: a consistent prefix after every kill, the truth at the end', async () => {
    const sinks: SinkKind[] = ['duckdb', 'parquet'];
    const outcomes = await Promise.allSettled(sinks.map((kind, index) => runKillScenario(work, SCENARIO, kind, index)));
    for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
  });
});
