/**
 * A full disk from the user's side, for both sinks: the warehouse on a tmpfs smaller than the
 * chain's rows (test/support/small-disk.ts), the first sync fails with one line naming the file and
 * the room left, leaves only committed data, and once the tmpfs is grown the same command completes
 * to the devnet's truth. `npm run test:chaos` runs it at many more disk sizes (disk-full.chaos.ts).
 *
 * `unshare -rm` needs user namespaces; where they are missing the test is skipped with the reason,
 * unless `CHAIN_ETL_REQUIRE_TMPFS=1` (set by .ci/run), which makes it fail instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { expectDiskFullRecovers, syncOnSmallDisk, tmpfsUnavailable, wholeWarehouseBytes } from '../support/small-disk.js';
import { KEY } from '../support/test-key.js';
import { makeWorkspace, type Workspace } from '../support/workspace.js';

const SEED = 4711;
const BLOCKS = 60;
/** Share of a whole warehouse's bytes the small disk holds: the first sync fails mid-way (a DuckDB file starts at about 1.5 MB). */
const DISK_SHARE = { parquet: 0.45, duckdb: 0.3 } as const;

const mountUnavailable = tmpfsUnavailable();
const skip = mountUnavailable !== undefined && process.env.CHAIN_ETL_REQUIRE_TMPFS !== '1';

let work: Workspace;
let devnet: Devnet;

beforeAll(async () => {
  work = await makeWorkspace('disk-full');
  devnet = await startDevnet({ seed: SEED, blocks: BLOCKS, keys: new Map([[KEY, 'mainnet']]), keyRps: 1000 });
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

describe.skipIf(skip)(`a full disk${skip ? ` (skipped: ${mountUnavailable})` : ''}`, () => {
  for (const kind of ['parquet', 'duckdb'] as const) {
    it(`${kind}: the sync fails with one line naming the file and the room left; with space, the same command reaches the truth`, async () => {
      expect(mountUnavailable, 'unshare -rm with a tmpfs mount').toBeUndefined();
      const whole = await wholeWarehouseBytes(work, devnet, kind);
      const { committed, all } = await expectDiskFullRecovers(devnet, kind, await syncOnSmallDisk(work, devnet, kind, Math.floor(whole * DISK_SHARE[kind])));
      expect(all).toBeGreaterThan(2000);
      expect(committed, 'the failed sync stopped short of the whole chain').toBeLessThan(all);
    }, 120_000);
  }
});
