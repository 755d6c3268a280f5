/**
 * A case's two syncs on a disk too small for its warehouse (`CaseSpec.diskBytes`): the first as a
 * child process on a tmpfs of that size in a private mount namespace (`unshare -rm`, as
 * test/support/small-disk.ts does), the warehouse then copied out for the judge; once the judge has
 * read it and healed the server, the tmpfs grown and the rerun, copied out again. The disk fills
 * during whichever write of whichever commit the size meets: across the generated sizes, every one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BIN } from '../support/build.js';
import { childEnv } from '../support/cli.js';
import { sleep } from '../support/sleep.js';
import { KEY, KEY_ENV } from '../support/test-key.js';
import type { RunResult } from './cli-run.js';

export interface SmallDiskRun {
  readonly run: RunResult;
  /** A copy of the warehouse as the run left it. */
  readonly copy: string;
}

export interface SmallDiskRuns {
  /** The sink path to give the pipeline: on the small disk. */
  readonly sinkPath: string;
  /** Starts the runs with the pipeline file at `pipeline`; resolves once the first has ended and been copied. */
  first(pipeline: string): Promise<SmallDiskRun>;
  /** Grows the disk to 512 MB and runs the same sync again. */
  rerun(): Promise<SmallDiskRun>;
  /** Ends the namespace (without a rerun when none was asked for). */
  close(): Promise<void>;
}

/** `timeout`'s exit when the run outlived its time. */
const TIMED_OUT = 124;

export async function smallDiskRuns(dir: string, bytes: number, warehouseName: string, timeoutMs: number): Promise<SmallDiskRuns> {
  const disk = join(dir, 'disk');
  const out = join(dir, 'out');
  await mkdir(disk);
  await mkdir(out);
  const sinkPath = join(disk, warehouseName);
  const sync = (name: string): string =>
    `timeout -s TERM -k 5 ${Math.ceil(timeoutMs / 1000)} "$NODE" "$BIN" sync "$PIPELINE" --log-level silent 2>"$OUT/${name}.err"; echo $? >"$OUT/${name}.code"; ` +
    `mkdir "$OUT/${name}" && cp -a "$DISK/." "$OUT/${name}/" && touch "$OUT/${name}.done"`;
  const script = [
    'set -u',
    'mount -t tmpfs -o "size=$SIZE" tmpfs "$DISK" || exit 97',
    sync('first'),
    'while [ ! -e "$OUT/go" ]; do sleep 0.02; done',
    '[ -e "$OUT/stop" ] && exit 0',
    'mount -o remount,size=512m "$DISK" || exit 98',
    sync('rerun'),
  ].join('\n');
  let child: ChildProcess | undefined;
  let exited: Promise<number | null> = Promise.resolve(0);
  const ended = async (name: string): Promise<SmallDiskRun> => {
    while (!existsSync(join(out, `${name}.done`))) {
      if (child !== undefined && child.exitCode !== null) throw new Error(`the small disk's namespace ended (exit ${String(child.exitCode)}) before the ${name} run was copied`);
      await sleep(20);
    }
    const exit = Number(await readFile(join(out, `${name}.code`), 'utf8'));
    const message = (await readFile(join(out, `${name}.err`), 'utf8')).trimEnd();
    return { run: { exit, message, hung: exit === TIMED_OUT, timeoutMs }, copy: join(out, name, warehouseName) };
  };
  return {
    sinkPath,
    first: async (pipeline) => {
      const env = childEnv({ SIZE: String(bytes), DISK: disk, OUT: out, NODE: process.execPath, BIN, PIPELINE: pipeline, [KEY_ENV]: KEY, NO_COLOR: '1' });
      const started = spawn('unshare', ['-rm', 'sh', '-c', script], { env, stdio: ['ignore', 'ignore', 'inherit'] });
      child = started;
      exited = new Promise((resolve, reject) => {
        started.on('error', reject);
        started.on('exit', resolve);
      });
      return ended('first');
    },
    rerun: async () => {
      await writeFile(join(out, 'go'), '');
      return ended('rerun');
    },
    close: async () => {
      if (child === undefined) return;
      if (!existsSync(join(out, 'go'))) {
        await writeFile(join(out, 'stop'), '');
        await writeFile(join(out, 'go'), '');
      }
      await exited;
    },
  };
}
