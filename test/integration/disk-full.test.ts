/**
 * A full disk from the user's side, for both sinks: the warehouse on a tmpfs smaller than the
 * chain's rows (mounted in a private mount namespace by `unshare`, so nothing outlives the test), the
 * first sync fails with one line naming the file and the room left, leaves only committed data,
 * and once the tmpfs is grown the same command completes to the devnet's truth.
 *
 * `unshare -rm` needs user namespaces; where they are missing the test is skipped with the reason,
 * unless `CHAIN_ETL_REQUIRE_TMPFS=1` (set by .ci/run), which makes it fail instead.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { BIN } from '../support/build.js';
import { childEnv } from '../support/cli.js';
import { messageLines } from '../support/cli-result.js';
import { expectCoveredEqualsTruth } from '../support/expect-truth.js';
import { KEY, KEY_ENV } from '../support/test-key.js';
import { readWarehouse } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';

const run = promisify(execFile);
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

interface Attempt {
  readonly code: number;
  readonly stderr: string;
}

interface DiskFullRun {
  readonly first: Attempt;
  readonly second: Attempt;
  /** Copies of the warehouse folder after the failed sync and after the rerun. */
  readonly afterFailure: string;
  readonly afterRerun: string;
  /** Where the warehouse lived on the small disk. */
  readonly sinkPath: string;
}

/** `sync` on a tmpfs of `bytes`, then the tmpfs grown to 512 MB and `sync` again, in one private mount namespace. */
async function syncOnSmallDisk(kind: SinkKind, bytes: number): Promise<DiskFullRun> {
  const disk = join(work.dir, `${kind}-disk`);
  const out = join(work.dir, `${kind}-out`);
  await mkdir(disk);
  await mkdir(out);
  const sinkPath = join(disk, kind === 'duckdb' ? 'warehouse.duckdb' : 'warehouse');
  const pipeline = await work.pipeline({ url: devnet.url, kind, sinkPath, name: `${kind}-small.yaml` });
  const script = [
    'set -u',
    'mount -t tmpfs -o "size=$SIZE" tmpfs "$DISK" || exit 97',
    '"$NODE" "$BIN" sync "$PIPELINE" 2>"$OUT/first.err"; echo $? >"$OUT/first.code"',
    'mkdir "$OUT/after-failure" && cp -a "$DISK/." "$OUT/after-failure/"',
    'mount -o remount,size=512m "$DISK" || exit 98',
    '"$NODE" "$BIN" sync "$PIPELINE" 2>"$OUT/second.err"; echo $? >"$OUT/second.code"',
    'mkdir "$OUT/after-rerun" && cp -a "$DISK/." "$OUT/after-rerun/"',
  ].join('\n');
  const env = childEnv({ SIZE: String(bytes), DISK: disk, OUT: out, NODE: process.execPath, BIN, PIPELINE: pipeline, [KEY_ENV]: KEY, NO_COLOR: '1' });
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn('unshare', ['-rm', 'sh', '-c', script], { env, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', resolve);
  });
  expect(code, 'the namespace script').toBe(0);
  const attempt = async (name: string): Promise<Attempt> => ({
    code: Number(await readFile(join(out, `${name}.code`), 'utf8')),
    stderr: await readFile(join(out, `${name}.err`), 'utf8'),
  });
  const inCopy = (copy: string): string => join(out, copy, sinkPath.slice(disk.length + 1));
  return { first: await attempt('first'), second: await attempt('second'), afterFailure: inCopy('after-failure'), afterRerun: inCopy('after-rerun'), sinkPath };
}

/** Bytes of a whole synced warehouse of this kind on a roomy disk. */
async function wholeWarehouseBytes(kind: SinkKind): Promise<number> {
  const sinkPath = work.sinkPath(kind, 'roomy');
  const pipeline = await work.pipeline({ url: devnet.url, kind, sinkPath, name: `${kind}-roomy.yaml` });
  // Asynchronously: the devnet answering the sync runs in this process.
  await run(process.execPath, [BIN, 'sync', pipeline], { env: childEnv({ [KEY_ENV]: KEY, NO_COLOR: '1' }) });
  return kind === 'duckdb' ? (await stat(sinkPath)).size : Number((await run('du', ['-sb', sinkPath])).stdout.split('\t')[0]);
}

describe.skipIf(skip)(`a full disk${skip ? ` (skipped: ${mountUnavailable})` : ''}`, () => {
  for (const kind of ['parquet', 'duckdb'] as const) {
    it(`${kind}: the sync fails with one line naming the file and the room left; with space, the same command reaches the truth`, async () => {
      expect(mountUnavailable, 'unshare -rm with a tmpfs mount').toBeUndefined();
      const whole = await wholeWarehouseBytes(kind);
      const small = await syncOnSmallDisk(kind, Math.floor(whole * DISK_SHARE[kind]));
      expect(small.first.code, small.first.stderr).toBe(1);
      const lines = messageLines(small.first.stderr);
      expect(lines, small.first.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^chain-etl: the disk is full: writing ${small.sinkPath}\\S* failed with [\\d.]+ (bytes|KB|MB) free on its file system, and the commit needed more: ` +
            'free some space or move sink\\.path to a larger disk; then run the same command again: every committed page is kept and nothing half-written stays$',
        ),
      );
      if (kind === 'parquet') {
        const { files } = await readWarehouse(kind, small.afterFailure, { glob: false, partial: true });
        expect(files!.onDisk, 'data files on disk after the failure are those the manifest lists').toEqual([...files!.listed].sort());
      }
      const committed = await expectCoveredEqualsTruth(devnet, kind, small.afterFailure, { whole: false });
      expect(small.second.code, small.second.stderr).toBe(0);
      expect(small.second.stderr).toBe('');
      const all = await expectCoveredEqualsTruth(devnet, kind, small.afterRerun, { whole: true });
      expect(all).toBeGreaterThan(2000);
      expect(committed, 'the failed sync stopped short of the whole chain').toBeLessThan(all);
    }, 120_000);
  }
});

/** Why a tmpfs cannot be mounted in a private namespace here, or undefined when it can. */
function tmpfsUnavailable(): string | undefined {
  try {
    execFileSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=1m tmpfs /mnt 2>&1 || mount -t tmpfs -o size=1m tmpfs /tmp'], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return `unshare -rm cannot mount a tmpfs: ${String((error as { stderr?: Buffer }).stderr ?? error).trim().split('\n')[0]}`;
  }
}
