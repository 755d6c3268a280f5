/**
 * The built `chain-etl` binary (`node bin/chain-etl.js`) as a child process: the one place tests
 * spawn the CLI, for what only a process shows (signals, locks between processes, the environment a
 * user's shell gives, what reaches the real stdout and stderr).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from './build.js';
import { describeResult, type CliResult } from './cli-result.js';
import type { TestDevnet } from './test-devnet.js';
import { KEY, KEY_ENV } from './test-key.js';

export type ChildEnv = Readonly<Record<string, string | undefined>>;

export interface CliOptions {
  /** Working directory; relative paths in arguments and pipeline files resolve here. */
  readonly cwd: string;
  /** The child's whole environment. @default the runner's, with the test key in `CHAIN_ETL_TEST_KEY` and `NO_COLOR` */
  readonly env?: NodeJS.ProcessEnv;
  /** Kills the child (SIGKILL) and fails after this long; `Infinity` for a server the test stops. @default 90 s */
  readonly timeoutMs?: number;
  /** Written to the child's stdin, which then ends. @default stdin ignored */
  readonly input?: string;
}

export interface CliRun {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly done: Promise<CliResult>;
  stdout(): string;
  stderr(): string;
}

/** A minimal environment: PATH, HOME and TMPDIR of the runner, and `env` (undefined: unset), never the rest of the runner's. */
export function childEnv(env: ChildEnv = {}): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR };
  return Object.fromEntries(Object.entries({ ...base, ...env }).filter(([, v]) => v !== undefined));
}

/** Starts `node bin/chain-etl.js <args>`. */
export function spawnCli(args: readonly string[], options: CliOptions): CliRun {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? 90_000;
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    env: options.env ?? { ...process.env, [KEY_ENV]: KEY, NO_COLOR: '1' },
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (options.input !== undefined) child.stdin!.end(options.input);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<CliResult>((resolve, reject) => {
    const timer =
      timeoutMs === Infinity
        ? undefined
        : setTimeout(() => {
            child.kill('SIGKILL');
            reject(new Error(`chain-etl ${args.join(' ')} did not finish in ${timeoutMs} ms\nstderr:\n${stderr.slice(-2000)}`));
          }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ args, code, signal, stdout, stderr, ms: Math.round(performance.now() - started) });
    });
  });
  if (child.pid === undefined) throw new Error('could not start the CLI');
  return { child, pid: child.pid, done, stdout: () => stdout, stderr: () => stderr };
}

/** `node bin/chain-etl.js <args>` to its end. */
export function runCli(args: readonly string[], options: CliOptions): Promise<CliResult> {
  return spawnCli(args, options).done;
}

/** Waits until the devnet has answered `count` requests in all; fails if the run ends first. */
export async function whileRunning(run: CliRun, devnet: TestDevnet, count: number): Promise<void> {
  let ended = false;
  const early = run.done.then((result) => {
    if (!ended) throw new Error(`the run ended before the devnet answered ${count} requests (${devnet.served()}): ${describeResult(result)}`);
  });
  try {
    await Promise.race([devnet.untilServed(count), early]);
  } finally {
    ended = true;
    early.catch(() => undefined);
  }
}
