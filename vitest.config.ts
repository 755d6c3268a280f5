import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Test files share their worker's module cache instead of each importing vitest, DuckDB and the
    // sources anew (CPU-s of import summed over the files: 62 with isolation, 22 without). A file leaves
    // no global state behind: nock is switched off after its files (test/api/helpers.ts, useNock),
    // mocks and fake timers are restored where they are made, the in-process CLI restores the
    // environment and cwd it changes (test/support/cli-in-process.ts).
    isolate: false,
    // vitest's default is cores − 1, one worker on a 2-core machine: the integration files wait on
    // devnets, rate limits and child processes, and a second file fills that time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A larger young generation: the files that read warehouses back and diff them spent about a
    // fifth of their CPU in scavenges (sync.test.ts: 41 → 32–37 CPU-s).
    execArgv: ['--max-semi-space-size=64'],
  },
});
