/**
 * Chaos: the chain grows (a masterchain block every 200 ms) while `sync --follow` and plain syncs
 * run; a final sync with the indexer frozen equals the truth.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';
import { runGrowthScenario } from './scenarios/growth.js';
import { printLocalTable } from './support/table.js';

let work: Workspace;

beforeAll(async () => {
  work = await makeWorkspace('chaos-growth');
});

afterAll(async () => {
  await work?.remove();
  printLocalTable('growth');
});

describe.each<SinkKind>(['duckdb', 'parquet'])('a growing chain, %s', (kind) => {
  it('sync --follow (three syncs) and another sync while a block is added every 200 ms, then a final sync: the truth', async () => {
    await runGrowthScenario(work, { name: 'growth every 200 ms: --follow, sync', seed: 6161, blocks: 60, growMs: 200, followMs: 4000, syncs: 1 }, kind);
  });
});
