/**
 * The fast subset of the chaos suite, part of `npm test` (the whole suite: `npm run test:chaos`):
 * small chains, one sink each. Faults (every kind, the stall past a 2 s client timeout),
 * kill -9 at three moments (one inside a commit) with restarts, kill -9 of a sync taking snapshots
 * (in its first commit, between two pages of a stream, in the last stream's final commit) with a
 * rerun, and SIGTERM mid-sync with a resume: each ends equal to the devnet truth. Lagging replicas
 * are the generated cases' (test/property/, a regression of a lag below the replica's among them) and
 * test/chaos/indexer.chaos.ts's.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { snapshotStreams } from '../../src/streams/index.js';
import { makeWorkspace, type Workspace } from '../support/workspace.js';
import { issueProfile, runFaultsScenario } from './scenarios/faults.js';
import { runKillScenario } from './scenarios/kills.js';
import { runSignalScenario } from './scenarios/signals.js';
import { runSnapshotKillScenario } from './scenarios/snapshot-kills.js';
import { startChaosDevnet } from './support/devnet.js';
import { printLocalTable } from './support/table.js';

let work: Workspace;

beforeAll(async () => {
  work = await makeWorkspace('chaos-fast');
});

afterAll(async () => {
  await work?.remove();
  printLocalTable('chaos suite, fast subset (npm run test:chaos runs all of it)');
});

describe('chaos, fast subset', () => {
  // Seed 1054093 puts malformed JSON, a truncated body, unknown enums, a 3 s stall (past the
  // pipeline's 2 s timeout), a reset and a 5xx in the devnet's first 8 answers (the n-th answer's
  // faults depend on the seed only; a sync of 80 blocks makes 8 requests before retries).
  it('faults: sync exits 0 and equals the truth', { timeout: 120_000 }, async () => {
    await runFaultsScenario(work, {
      name: 'faults: profile with a 3 s stall past a 2 s timeout (fast)',
      seed: 1054093,
      blocks: 80,
      growBy: 0,
      profile: issueProfile({ rate: 0.02, ms: 3_000 }, 0.15),
      httpTimeoutSeconds: 2,
      sinks: ['duckdb'],
      mustSee: ['http5xx', 'reset', 'stall', 'truncate', 'malformedJson', 'unknownEnum'],
      timeoutMs: 90_000,
    });
  });

  it('kill -9 at three moments of a backfill, restarts: the truth, no file outside the manifest', { timeout: 120_000 }, async () => {
    await runKillScenario(
      work,
      { name: 'kill -9 ×3 during backfill (fast)', seed: 777, blocks: 110, rangeBlocks: 100, kills: 3, momentSeed: 0xfa57, rate: { rps: 50, concurrency: 1 }, latencyMs: 10 },
      'parquet',
      0,
    );
  });

  it('kill -9 mid-snapshot (first commit, between two pages, a final commit), rerun: each snapshot table equals the state, nothing half-taken left', { timeout: 120_000 }, async () => {
    await runSnapshotKillScenario(
      work,
      {
        name: 'kill -9 ×3 mid-snapshot, rerun (fast)',
        seed: 777,
        blocks: 200,
        growBy: 200,
        moments: (pages) => {
          const longest = [...snapshotStreams].sort((a, b) => pages.pagesOf(b) - pages.pagesOf(a))[0]!;
          return [
            { kind: 'in-commit', pages: 0 },
            { kind: 'in-commit', pages: pages.pageOf(longest, 1), after: 1 },
            { kind: 'in-commit', pages: pages.total, after: 1 },
          ];
        },
        momentSeed: 0,
        latencyMs: 10,
      },
      'parquet',
      0,
    );
  });

  it('SIGTERM mid-sync exits 143 with one line; the next sync resumes to the truth', { timeout: 120_000 }, async () => {
    const chaos = await startChaosDevnet({ seed: 4712, blocks: 80, latencyMs: 20 });
    try {
      await runSignalScenario(
        work,
        chaos,
        { name: 'SIGTERM mid-sync, resume (fast)', command: 'sync', signal: 'SIGTERM', moment: { kind: 'in-commit', pages: 2 }, rangeBlocks: 70, rate: { rps: 20, concurrency: 4 } },
        'duckdb',
      );
    } finally {
      await chaos.devnet.close();
    }
  });
});
