/**
 * Chaos: the indexer's head moves backwards between requests (a replica 3 blocks behind answers
 * every other v3 request) and the indexer stalls while the chain grows, then resumes.
 * With lag.mc_blocks 5 (the replica's 3 blocks plus the devnet's classification delay of 2: the
 * replica has classified 2 blocks fewer) every sync leaves the warehouse equal to the truth. With
 * lag 3, actions the primary has classified but the replica not yet can be missing after a sync (their
 * traces still `unclassified`) and come with a later sync's overlap re-scan; nothing else is ever
 * missing or changed. With a lag below the replica's (2, 0) every sync is
 * refused: the settled tip's block is not on the replica that answers the lookup, and nothing is
 * written (before the lookup ran with lag 0 too, lag 0 lost the rows only the primary had).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';
import { runReplicaScenario, runStallScenario } from './scenarios/indexer.js';
import { printLocalTable } from './support/table.js';

let work: Workspace;

beforeAll(async () => {
  work = await makeWorkspace('chaos-indexer');
});

afterAll(async () => {
  await work?.remove();
  printLocalTable('indexer');
});

describe.each<SinkKind>(['duckdb', 'parquet'])('a lagging replica, %s', (kind) => {
  it('replica lag 3, lag.mc_blocks 5: two syncs with growth, each equal to the truth', async () => {
    await runReplicaScenario(work, { name: 'replica 3 behind, lag.mc_blocks 5', seed: 3131, blocks: 100, replicaLag: 3, lagMcBlocks: 5, grows: [15] }, kind);
  });
});

describe('a lagging replica with a smaller settle lag', () => {
  it('replica lag 3, lag.mc_blocks 3: only late actions are ever missing or stale (they come with a later overlap re-scan)', async () => {
    await runReplicaScenario(work, { name: 'replica 3 behind, lag.mc_blocks 3', seed: 3131, blocks: 100, replicaLag: 3, lagMcBlocks: 3, grows: [15], outcome: 'equal but for late actions' }, 'duckdb');
  });

  it.each([2, 0])('replica lag 3, lag.mc_blocks %i: every sync is refused and nothing is written', async (lag) => {
    await runReplicaScenario(work, { name: `replica 3 behind, lag.mc_blocks ${lag}`, seed: 3131, blocks: 100, replicaLag: 3, lagMcBlocks: lag, grows: [15], outcome: 'refused' }, 'duckdb');
  });
});

describe.each<SinkKind>(['duckdb', 'parquet'])('a stalled indexer, %s', (kind) => {
  it('stall, grow 10, sync: exit 0 and nothing new; resume, sync: caught up to the truth', async () => {
    await runStallScenario(work, { name: 'indexer stalls 10 blocks, resumes', seed: 2929, blocks: 100, growWhileStalled: 10 }, kind);
  });
});
