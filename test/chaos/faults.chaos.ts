/**
 * Chaos: the issue's fault profile against both sinks. The devnet draws the faults of its n-th
 * answer from a PRNG seeded by the devnet's seed, whatever the request, so a seed fixes which answers
 * fail. With seed 906870 the first 42 answers of a run hold a truncated body (the 8th answer),
 * malformed JSON (12th), a 16 s stall (16th: past the client's 15 s per-attempt timeout, which the
 * pipeline file cannot change), a connection reset (19th), 5xx (30th, 36th) and a 429 storm (42nd),
 * and the first 90 answers only that one stall. `unknownEnum` is raised from 5% to 15% so that the
 * unknown finality `unknown_3` surely lands on pages of transactions and actions.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ensureBuilt } from '../support/build.js';
import { makeWorkspace, type Workspace } from '../support/etl.js';
import { issueProfile, runFaultsScenario } from './scenarios/faults.js';
import { printLocalTable } from './support/table.js';

let work: Workspace;

beforeAll(async () => {
  ensureBuilt();
  work = await makeWorkspace('chaos-faults');
});

afterAll(async () => {
  await work?.remove();
  printLocalTable('faults');
});

describe('a devnet with faults', () => {
  it('5% 5xx, 429 storms, 16 s stalls, resets, 1% truncated and malformed bodies, heavy-tail latency, unknown fields and enums: sync exits 0 and equals the truth, twice', async () => {
    await runFaultsScenario(work, {
      name: 'faults: full profile, stall 16 s',
      seed: 906870,
      blocks: 150,
      growBy: 30,
      profile: issueProfile({ rate: 0.02, ms: 16_000 }, 0.15),
      sinks: ['duckdb', 'parquet'],
      mustSee: ['http5xx', 'storm429', 'stall', 'reset', 'truncate', 'malformedJson', 'unknownFields', 'unknownEnum'],
      timeoutMs: 180_000,
    });
  });
});
