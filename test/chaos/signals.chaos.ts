/**
 * Chaos: SIGINT and SIGTERM in the middle of a backfill and of a sync, for both sinks (and SIGTERM
 * twice in a row once): exit 130 / 143 with one line, a consistent prefix, and the same command
 * resumes to the truth.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectedWarehouse } from '../support/expected-rows.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';
import { runSignalScenario, type SignalScenario } from './scenarios/signals.js';
import { startChaosDevnet, type ChaosDevnet } from './support/devnet.js';
import { printLocalTable } from './support/table.js';

let work: Workspace;
let chaos: ChaosDevnet;

beforeAll(async () => {
  work = await makeWorkspace('chaos-signals');
  chaos = await startChaosDevnet({ seed: 4711, blocks: 90, latencyMs: 20 });
  // Renders the whole chain once: the devnet keeps what it rendered, so the runs below are served faster.
  expectedWarehouse(chaos.devnet, () => ({ from: 0n, to: 0n }));
});

afterAll(async () => {
  await chaos?.devnet.close();
  await work?.remove();
  printLocalTable('signals');
});

const RATE = { rps: 20, concurrency: 4 };

const CASES: { kind: SinkKind; scenario: SignalScenario }[] = [
  { kind: 'duckdb', scenario: { name: 'SIGINT mid-backfill, resume', command: 'backfill', signal: 'SIGINT', moment: { kind: 'after-page', pages: 3, delayMs: 10 }, rangeBlocks: 80, rate: RATE } },
  { kind: 'parquet', scenario: { name: 'SIGINT mid-backfill, resume', command: 'backfill', signal: 'SIGINT', moment: { kind: 'in-commit', pages: 3 }, rangeBlocks: 80, rate: RATE } },
  { kind: 'duckdb', scenario: { name: 'SIGTERM mid-sync, resume', command: 'sync', signal: 'SIGTERM', moment: { kind: 'in-commit', pages: 4 }, rangeBlocks: 80, rate: RATE } },
  { kind: 'parquet', scenario: { name: 'SIGTERM mid-sync, resume', command: 'sync', signal: 'SIGTERM', moment: { kind: 'after-page', pages: 4, delayMs: 5 }, rangeBlocks: 80, rate: RATE } },
  { kind: 'parquet', scenario: { name: 'SIGTERM twice mid-backfill, resume', command: 'backfill', signal: 'SIGTERM', twiceAfterMs: 20, moment: { kind: 'in-commit', pages: 2 }, rangeBlocks: 80, rate: RATE } },
];

describe('interrupted runs', () => {
  it.each(CASES)('$scenario.name, $kind', async ({ kind, scenario }) => {
    await runSignalScenario(work, chaos, scenario, kind);
  });
});
