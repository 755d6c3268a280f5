/**
 * Chaos: late data. Actions appear 8 blocks after their trace completed, traces complete after the
 * sync that stored their first transactions, and 3 traces are re-classified between syncs (their
 * action_ids change): the old action_ids leave actions and action_accounts, the new ones arrive.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';
import { runLateDataScenario } from './scenarios/late-data.js';
import { printLocalTable } from './support/table.js';

let work: Workspace;

beforeAll(async () => {
  work = await makeWorkspace('chaos-late');
});

afterAll(async () => {
  await work?.remove();
  printLocalTable('late data');
});

describe.each<SinkKind>(['duckdb', 'parquet'])('late data into %s', (kind) => {
  it('classify delay 8, traces completing after the first sync, reclassify(3) between syncs: equal to the truth after every sync', async () => {
    await runLateDataScenario(work, { name: 'late data: classify delay 8, reclassify(3)', seed: 8080, blocks: 120, classifyDelay: 8, growBy: 12, reclassify: 3 }, kind);
  });
});
