/**
 * A warehouse on a disk too small for it: a tmpfs of a given size, mounted in a private mount
 * namespace by `unshare -rm` (nothing outlives the run), where `sync` runs, then the tmpfs is grown
 * and the same `sync` runs again; copies of the warehouse after each are kept for reading. Needs
 * user namespaces (`tmpfsUnavailable` says why not).
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { Devnet } from '../../src/devnet/index.js';
import { BIN } from './build.js';
import { childEnv } from './cli.js';
import { messageLines } from './cli-result.js';
import { expectCoveredEqualsTruth } from './expect-truth.js';
import { KEY, KEY_ENV } from './test-key.js';
import { readWarehouse } from './warehouse-snapshot.js';
import type { SinkKind, Workspace } from './workspace.js';

const run = promisify(execFile);

interface Attempt {
  readonly code: number;
  readonly stderr: string;
}

export interface DiskFullRun {
  readonly first: Attempt;
  readonly second: Attempt;
  /** Copies of the warehouse after the failed sync and after the rerun. */
  readonly afterFailure: string;
  readonly afterRerun: string;
  /** Where the warehouse lived on the small disk. */
  readonly sinkPath: string;
}

/** `sync` on a tmpfs of `bytes`, then the tmpfs grown to 512 MB and `sync` again, in one private mount namespace; `label` names its folders. */
export async function syncOnSmallDisk(work: Workspace, devnet: Devnet, kind: SinkKind, bytes: number, label: string = kind): Promise<DiskFullRun> {
  const disk = join(work.dir, `${label}-disk`);
  const out = join(work.dir, `${label}-out`);
  await mkdir(disk);
  await mkdir(out);
  const sinkPath = join(disk, kind === 'duckdb' ? 'warehouse.duckdb' : 'warehouse');
  const pipeline = await work.pipeline({ url: devnet.url, kind, sinkPath, name: `${label}-small.yaml` });
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
export async function wholeWarehouseBytes(work: Workspace, devnet: Devnet, kind: SinkKind): Promise<number> {
  const sinkPath = work.sinkPath(kind, 'roomy');
  const pipeline = await work.pipeline({ url: devnet.url, kind, sinkPath, name: `${kind}-roomy.yaml` });
  // Asynchronously: the devnet answering the sync runs in this process.
  await run(process.execPath, [BIN, 'sync', pipeline], { env: childEnv({ [KEY_ENV]: KEY, NO_COLOR: '1' }) });
  return kind === 'duckdb' ? (await stat(sinkPath)).size : Number((await run('du', ['-sb', sinkPath])).stdout.split('\t')[0]);
}

/**
 * What a sync on a full disk must leave: exit 1 with one line naming the file and the room left,
 * only committed data (equal to the truth where covered, `verify`'s checks finding nothing; Parquet:
 * no file the manifest does not list), and a rerun with space that reaches the truth. Returns the
 * rows committed before the failure and after the rerun.
 */
export async function expectDiskFullRecovers(devnet: Devnet, kind: SinkKind, small: DiskFullRun): Promise<{ committed: number; all: number }> {
  expect(small.first.code, small.first.stderr).toBe(1);
  const lines = messageLines(small.first.stderr);
  expect(lines, small.first.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(
    new RegExp(
      `^chain-etl: the disk is full: writing ${small.sinkPath}\\S* failed with [\\d.]+ (bytes|KB|MB) free on its file system, and the commit needed more: ` +
        'free some space or move sink\\.path to a larger disk; then run the same command again: every committed page is kept and nothing half-written stays$',
    ),
  );
  const failed = await readWarehouse(kind, small.afterFailure, { glob: false, partial: true, verify: true });
  expect(failed.inconsistencies, 'verify after the failure').toEqual([]);
  if (kind === 'parquet') expect(failed.files!.onDisk, 'data files on disk after the failure are those the manifest lists').toEqual([...failed.files!.listed].sort());
  const committed = await expectCoveredEqualsTruth(devnet, kind, small.afterFailure, { whole: false });
  expect(small.second.code, small.second.stderr).toBe(0);
  expect(small.second.stderr).toBe('');
  const all = await expectCoveredEqualsTruth(devnet, kind, small.afterRerun, { whole: true });
  expect((await readWarehouse(kind, small.afterRerun, { glob: false, verify: true })).inconsistencies, 'verify after the rerun').toEqual([]);
  return { committed, all };
}

/** Why a tmpfs cannot be mounted in a private namespace here, or undefined when it can. */
export function tmpfsUnavailable(): string | undefined {
  try {
    execFileSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=1m tmpfs /mnt 2>&1 || mount -t tmpfs -o size=1m tmpfs /tmp'], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return `unshare -rm cannot mount a tmpfs: ${String((error as { stderr?: Buffer }).stderr ?? error).trim().split('\n')[0]}`;
  }
}
