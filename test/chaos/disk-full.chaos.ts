/**
 * Failed commits at every point of a run: the full-disk scenario of test/integration/disk-full.test.ts
 * at many disk sizes, both sinks, so that the disk fills during different writes of different commits
 * (a data file, the manifest, views.sql, DuckDB's WAL and checkpoint). Each must end in the one-line
 * message, leave only committed data that verify's checks find consistent, and reach the truth once
 * there is space. A disk large enough for the whole chain must simply succeed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { expectDiskFullRecovers, syncOnSmallDisk, tmpfsUnavailable, wholeWarehouseBytes } from '../support/small-disk.js';
import { KEY } from '../support/test-key.js';
import { makeWorkspace, type Workspace } from '../support/workspace.js';

/** Shares of a whole warehouse's bytes; below about 0.15 a DuckDB file does not fit its first pages, which is a full disk too. */
const SHARES = [0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85];

const mountUnavailable = tmpfsUnavailable();
const skip = mountUnavailable !== undefined && process.env.CHAIN_ETL_REQUIRE_TMPFS !== '1';

let work: Workspace;
let devnet: Devnet;

beforeAll(async () => {
  work = await makeWorkspace('chaos-disk-full');
  devnet = await startDevnet({ seed: 4712, blocks: 60, keys: new Map([[KEY, 'mainnet']]), keyRps: 1000 });
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

describe.skipIf(skip)(`a full disk at every size${skip ? ` (skipped: ${mountUnavailable})` : ''}`, () => {
  for (const kind of ['parquet', 'duckdb'] as const) {
    it(`${kind}: a sync that runs out of space anywhere leaves committed data only, and the rerun with space reaches the truth`, async () => {
      expect(mountUnavailable, 'unshare -rm with a tmpfs mount').toBeUndefined();
      const whole = await wholeWarehouseBytes(work, devnet, kind);
      const outcomes: string[] = [];
      for (const share of SHARES) {
        const small = await syncOnSmallDisk(work, devnet, kind, Math.floor(whole * share), `${kind}-${share}`);
        if (small.first.code === 0) {
          outcomes.push(`${share}: fits`);
          continue;
        }
        const { committed, all } = await expectDiskFullRecovers(devnet, kind, small);
        outcomes.push(`${share}: ${committed}/${all} rows before the failure`);
      }
      console.log(`${kind} full disks: ${outcomes.join('; ')}`);
      expect(outcomes.filter((outcome) => !outcome.endsWith('fits')).length, outcomes.join('; ')).toBeGreaterThanOrEqual(5);
    }, 600_000);
  }
});
