/**
 * Chaos: the indexer's head moves backwards between requests (a replica 3 blocks behind answers
 * every other v3 request) and the indexer stalls while the chain grows, then resumes.
 * With lag.mc_blocks 5 (the replica's 3 blocks plus the devnet's classification delay of 2: the
 * replica has classified 2 blocks fewer) every sync leaves the warehouse equal to the truth. Three
 * probes only report what happens: lag 3 (actions the primary has classified but the replica not
 * yet are missing after some syncs and come with a later sync's overlap re-scan), lag 2 (the
 * settled tip's block is not on the replica that answers the lookup: the sync fails) and lag 0
 * (rows of the blocks only the primary has are lost for good: the checkpoint passes them).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ensureBuilt } from '../support/build.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/etl.js';
import { runReplicaScenario, runStallScenario } from './scenarios/indexer.js';
import { printLocalTable } from './support/table.js';

let work: Workspace;

beforeAll(async () => {
  ensureBuilt();
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

describe('a lagging replica with a smaller settle lag (probes)', () => {
  it.each([3, 2, 0])('replica lag 3, lag.mc_blocks %i: reports what goes missing', async (lag) => {
    await runReplicaScenario(work, { name: `replica 3 behind, lag.mc_blocks ${lag} (probe)`, seed: 3131, blocks: 100, replicaLag: 3, lagMcBlocks: lag, grows: [15], probe: true }, 'duckdb');
  });
});

describe.each<SinkKind>(['duckdb', 'parquet'])('a stalled indexer, %s', (kind) => {
  it('stall, grow 10, sync: exit 0 and nothing new; resume, sync: caught up to the truth', async () => {
    await runStallScenario(work, { name: 'indexer stalls 10 blocks, resumes', seed: 2929, blocks: 100, growWhileStalled: 10 }, kind);
  });
});
