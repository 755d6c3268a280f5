/**
 * `npm test`'s kill -9 case of test/integration/backfill.test.ts for Parquet (npm test runs it for
 * DuckDB, and kills a Parquet backfill in the fast chaos subset): three seeded kills of a backfill,
 * each followed by a restart; a consistent prefix after each, every file the manifest names on disk;
 * the truth at the end, the killed runs marked abandoned, no file outside the manifest, no duplicate
 * key in the glob.
 */
import { afterAll, beforeAll, it } from 'vitest';
import { expectedWarehouse } from '../support/expected-rows.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { makeWorkspace, type Workspace } from '../support/workspace.js';
import { BLOCKS, SEED, boundsOf, expectKilledBackfillConverges } from '../integration/backfill-range.js';

let devnet: TestDevnet;
let work: Workspace;

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: SEED, blocks: BLOCKS, latencyMs: 30 });
  work = await makeWorkspace('chaos-backfill-kill');
  expectedWarehouse(devnet, boundsOf(devnet));
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

it('kill -9 of a Parquet backfill at three seeded random moments, each followed by a restart, converges to the truth', async () => {
  await expectKilledBackfillConverges(devnet, work, 'parquet');
});
