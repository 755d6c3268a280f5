/**
 * Chaos: the issue's fault profile against both sinks. The devnet draws the faults of its n-th
 * answer from a PRNG seeded by the devnet's seed, whatever the request, so a seed fixes which answers
 * fail. With seed 157343 the first 14 answers of a run hold a truncated body (the 1st answer), 5xx
 * (3rd), a 4 s stall (10th: past the pipeline's `http.timeout_seconds: 3`, so the client abandons it
 * and retries), malformed JSON (11th), a connection reset (13th) and a 429 storm (14th), and only that
 * one stall; the two syncs make about 20 requests before retries. `unknownEnum` is raised from 5% to
 * 25% (its draw does not move the other faults) so that the unknown finality `unknown_3` lands on pages
 * of transactions and actions whatever requests come first.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { makeWorkspace, type Workspace } from '../support/workspace.js';
import { issueProfile, runFaultsScenario } from './scenarios/faults.js';
import { printLocalTable } from './support/table.js';

let work: Workspace;

beforeAll(async () => {
  work = await makeWorkspace('chaos-faults');
});

afterAll(async () => {
  await work?.remove();
  printLocalTable('faults');
});

describe('a devnet with faults', () => {
  it('5% 5xx, 429 storms, stalls past the client timeout, resets, 1% truncated and malformed bodies, heavy-tail latency, unknown fields and enums: sync exits 0 and equals the truth, twice', async () => {
    await runFaultsScenario(work, {
      name: 'faults: full profile, stall 4 s past a 3 s timeout',
      seed: 157343,
      blocks: 150,
      growBy: 30,
      profile: issueProfile({ rate: 0.02, ms: 4_000 }, 0.25),
      httpTimeoutSeconds: 3,
      sinks: ['duckdb', 'parquet'],
      mustSee: ['http5xx', 'storm429', 'stall', 'reset', 'truncate', 'malformedJson', 'unknownFields', 'unknownEnum'],
      timeoutMs: 180_000,
    });
  });
});
