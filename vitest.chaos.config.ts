import { defineConfig } from 'vitest/config';

/**
 * `npm run test:chaos`: the slow chaos scenarios (test/chaos/*.chaos.ts), one file at a time (each
 * drives the CLI as a child process against an in-process devnet, and kill moments are timed), then
 * the scenario table. The fast subset (test/chaos/*.test.ts) runs in `npm test`.
 */
export default defineConfig({
  test: {
    include: ['test/chaos/**/*.chaos.ts'],
    globalSetup: ['test/chaos/global-setup.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
