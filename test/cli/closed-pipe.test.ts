/**
 * A reader that stops early closes the pipe (`chain-etl … | head -3` in a shell): the command ends
 * quietly with status 0, as `git` and `duckdb` do, for each command that prints more than the pipe
 * holds (64 KiB on Linux, so the write after `head` left really fails).
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../support/build.js';
import { childEnv } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult } from '../support/cli-result.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { makeWorkspace, type Workspace } from '../support/workspace.js';

interface PipedRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `chain-etl <args> | head -3` in bash; `status` is chain-etl's own (PIPESTATUS), not head's. */
function pipedToHead(args: readonly string[], cwd: string): Promise<PipedRun> {
  return inShell(args, cwd, '| head -3');
}

/** `chain-etl <args> <redirect>` in bash (a pipe or a file); `status` is chain-etl's own, PIPESTATUS[0]. */
function inShell(args: readonly string[], cwd: string, redirect: string): Promise<PipedRun> {
  const script = `"${process.execPath}" "${BIN}" "$@" ${redirect}; exit "\${PIPESTATUS[0]}"`;
  const child = spawn('bash', ['-c', script, 'chain-etl', ...args], { cwd, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status: status ?? -1, stdout, stderr }));
  });
}

let devnet: TestDevnet;
let work: Workspace;
let pipeline: string;

beforeAll(async () => {
  [devnet, work] = await Promise.all([startTestDevnet({ seed: 31, blocks: 6 }), makeWorkspace('closed-pipe')]);
  pipeline = await work.pipeline({ url: devnet.url, kind: 'duckdb', sinkPath: work.sinkPath('duckdb'), streams: ['blocks'] });
  const synced = await runCliInProcess(['sync', pipeline]);
  expect(synced.code, describeResult(synced)).toBe(0);
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

describe('a closed output pipe', () => {
  it('ends `query` quietly with status 0 after the lines head took', async () => {
    const run = await pipedToHead(['query', pipeline, 'SELECT range AS n FROM range(300000)', '--format', 'csv'], work.dir);
    expect(run).toEqual({ status: 0, stdout: 'n\r\n0\r\n1\r\n', stderr: '' });
  });

  it('ends `datasets --json` quietly with status 0', async () => {
    const run = await pipedToHead(['datasets', '--json'], work.dir);
    expect(run).toEqual({ status: 0, stdout: '{\n  "streams": [\n    {\n', stderr: '' });
  });

  it('a stdout that cannot be written (a full disk: /dev/full) ends `datasets` with one line, exit 1', async () => {
    const run = await inShell(['datasets', '--json'], work.dir, '>/dev/full');
    expect(run).toEqual({ status: 1, stdout: '', stderr: 'chain-etl: cannot write to stdout: ENOSPC: no space left on device, write\n' });
  });

  it('ends `devnet truth` quietly with status 0', async () => {
    const run = await pipedToHead(['devnet', 'truth', '--blocks', '40', '--dataset', 'transactions'], work.dir);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n').slice(0, 3).map((line) => (JSON.parse(line) as { lt: string }).lt)).toHaveLength(3);
  });
});
