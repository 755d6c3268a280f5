/**
 * `chain-etl …args` run in the test's own process through `runCli` (src/cli/main.ts), for tests that
 * judge the warehouse, the exit code and the messages rather than the process: no node start and no
 * DuckDB load per run. What the command writes to stdout and stderr (its one-line failure message,
 * `status`, and the logger's lines, which go straight to fd 2) is captured per run, so runs may
 * overlap; a run that needs another value of an environment variable, or another working directory,
 * waits for the others. Relative paths in arguments and pipeline files resolve in `cwd` when a run
 * gives one (the process changes directory for it), else in the runner's.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import { Writable } from 'node:stream';
import { runCli } from '../../src/cli/main.js';
import type { CliResult } from './cli-result.js';
import { KEY, KEY_ENV } from './test-key.js';

interface Capture {
  stdout: string;
  stderr: string;
}

const captures = new AsyncLocalStorage<Capture>();
let active = 0;
let restore: (() => void) | undefined;
/** Resolves when the last running command ends; commands that need another value of a variable wait for it. */
let idle: Promise<void> = Promise.resolve();
let settle = (): void => undefined;
/** Environment variables the running commands set, with the value each had before. */
const setEnv = new Map<string, string | undefined>();
/** The working directory the running commands share, and the one the runner had before. */
let sharedCwd: { readonly dir: string; readonly before: string } | undefined;

/** Routes writes to fd 1 and 2 made inside a run (process.stdout/stderr and pino's fs.writeSync) to that run's capture. */
function captureOutput(): () => void {
  const writeSync = fs.writeSync;
  const stdoutWrite = process.stdout.write;
  const stderrWrite = process.stderr.write;
  const text = (data: unknown): string => (typeof data === 'string' ? data : Buffer.from(data as Uint8Array).toString('utf8'));
  fs.writeSync = function (this: unknown, fd: number, data: unknown, ...rest: unknown[]): number {
    const capture = captures.getStore();
    if (capture === undefined || (fd !== 1 && fd !== 2)) return (writeSync as (...args: unknown[]) => number).call(this, fd, data, ...rest);
    const written = text(data);
    if (fd === 1) capture.stdout += written;
    else capture.stderr += written;
    return Buffer.byteLength(written);
  } as typeof fs.writeSync;
  const route = (original: typeof process.stdout.write, stream: keyof Capture): typeof process.stdout.write =>
    function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
      const capture = captures.getStore();
      if (capture === undefined) return (original as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
      capture[stream] += text(chunk);
      const callback = rest.find((arg) => typeof arg === 'function') as ((error?: Error) => void) | undefined;
      callback?.();
      return true;
    } as typeof process.stdout.write;
  process.stdout.write = route(stdoutWrite, 'stdout');
  process.stderr.write = route(stderrWrite, 'stderr');
  return () => {
    fs.writeSync = writeSync;
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
  };
}

/** Whether `env` and `cwd` can be set beside the running commands' (no variable with another value, the same directory). */
function fits(env: Readonly<Record<string, string | undefined>>, cwd: string | undefined): boolean {
  if (cwd !== undefined && sharedCwd !== undefined && sharedCwd.dir !== cwd) return false;
  if (cwd === undefined && sharedCwd !== undefined) return false;
  if (cwd !== undefined && sharedCwd === undefined && active > 0) return false;
  return Object.entries(env).every(([name, value]) => !setEnv.has(name) || process.env[name] === value);
}

function setVariables(env: Readonly<Record<string, string | undefined>>): void {
  for (const [name, value] of Object.entries(env)) {
    if (!setEnv.has(name)) setEnv.set(name, process.env[name]);
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

function enter(cwd: string | undefined): void {
  if (cwd === undefined || sharedCwd !== undefined) return;
  sharedCwd = { dir: cwd, before: process.cwd() };
  process.chdir(cwd);
}

function restoreEnvironment(): void {
  for (const [name, value] of setEnv) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  setEnv.clear();
  if (sharedCwd !== undefined) process.chdir(sharedCwd.before);
  sharedCwd = undefined;
}

/** `runInProcess` with the test key in `CHAIN_ETL_TEST_KEY`, as `spawnCli` of test/support/cli.ts gives it to the child. */
export function runCliInProcess(args: readonly string[]): Promise<CliResult> {
  return runInProcess(args, { [KEY_ENV]: KEY });
}

/**
 * Runs one command line in process with `env` set for it (undefined: unset) and, if given, `cwd` as
 * the working directory; resolves with its exit code and what it wrote.
 */
export async function runInProcess(args: readonly string[], env: Readonly<Record<string, string | undefined>> = {}, cwd?: string): Promise<CliResult> {
  const started = performance.now();
  while (!fits(env, cwd)) await idle;
  if (active === 0) {
    restore = captureOutput();
    idle = new Promise((resolve) => (settle = resolve));
  }
  active += 1;
  setVariables(env);
  enter(cwd);
  const capture: Capture = { stdout: '', stderr: '' };
  try {
    const stderr = new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        capture.stderr += chunk.toString('utf8');
        callback();
      },
    });
    const code = await captures.run(capture, () => runCli(args, stderr));
    return { args, code, signal: null, stdout: capture.stdout, stderr: capture.stderr, ms: Math.round(performance.now() - started) };
  } finally {
    active -= 1;
    if (active === 0) {
      restore?.();
      restoreEnvironment();
      settle();
    }
  }
}
