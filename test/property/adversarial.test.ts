/**
 * Issue 10, class 8 (npm test part): generated adversarial servers on 127.0.0.1, each case judged by
 * test/property/judge.ts with the CLI run in process. A seeded subset here (its size set by
 * measurement to stay within the suite's budget); test/chaos/adversarial.chaos.ts runs 2,000 more.
 * Failures found are kept below as named regression cases; knob kinds whose fix is not on main yet
 * are listed in PENDING and each has an `it.fails` case that shows it is still broken.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseArbitrary, SUBSET } from './cases.js';
import { judgeCase } from './judge.js';
import { PENDING } from './knobs.js';
import { PENDING_CASES, REGRESSIONS, SELF_CHECK } from './regressions.js';

/**
 * Cases per `npm test` (issue 10: a seeded subset; `SUBSET` in cases.ts): 15, down from 200, 100 and
 * then 25 to keep `npm test` under 5 minutes, beside test/schedules/schedules.test.ts's schedules, at the
 * cost per case CONTRIBUTING.md's "Generated cases" states. The chaos run covers 2,000 more, and this seed's
 * first 200.
 */
const { runs: RUNS, seed: SEED } = SUBSET;

describe('adversarial servers: exit 0 means the warehouse equals the truth, any other exit is clean and recoverable', () => {
  it(`holds for ${RUNS} generated cases (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary(), async (spec) => {
        await judgeCase(spec);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }, 900_000);

  for (const { name, spec } of REGRESSIONS) {
    it(`regression: ${name}`, async () => {
      await judgeCase(spec);
    }, 60_000);
  }

  it('the judge catches a row the server silently leaves out', async () => {
    await expect(judgeCase(SELF_CHECK)).rejects.toThrow(/transactions: extra 0, changed 0, duplicate 0, missing 1 /);
  }, 60_000);

  for (const [kind, owner] of Object.entries(PENDING)) {
    const pending = PENDING_CASES[kind as keyof typeof PENDING_CASES];
    if (pending === undefined) continue;
    // Fails (as expected) only the known way: any other outcome, a pass included, shows up as a failure.
    it.fails(`pending ${owner}: ${kind} still breaks the property`, async () => {
      const { spec, symptom, runTimeoutMs } = pending;
      const error: unknown = await judgeCase(spec, { runTimeoutMs }).then(() => undefined, (failure: unknown) => failure);
      if (error instanceof Error && symptom.test(error.message)) throw error;
    }, 60_000);
  }
});
