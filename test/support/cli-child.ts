/**
 * The real `chain-etl` binary as a child process, for tests that judge what a user sees: exit code,
 * stdout and stderr. The child gets a minimal environment (PATH, HOME, TMPDIR and what the test
 * passes), never the test runner's own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { BIN, PROJECT_ROOT } from './build.js';

export type ChildEnv = Readonly<Record<string, string | undefined>>;

export interface CliOutcome {
  readonly args: readonly string[];
  /** Exit code; null when a signal ended the process. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

export interface CliChildOptions {
  /** Working directory; relative paths in arguments and pipeline files resolve here. */
  readonly cwd: string;
  /** Variables on top of PATH, HOME and TMPDIR. @default {} */
  readonly env?: ChildEnv;
  /** Kill the child (SIGKILL) and fail after this long. @default 90000 */
  readonly timeoutMs?: number;
}

export function childEnv(env: ChildEnv = {}): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR };
  return Object.fromEntries(Object.entries({ ...base, ...env }).filter(([, v]) => v !== undefined));
}

/** `node bin/chain-etl.js …args` to its end. */
export async function runChainEtl(args: readonly string[], options: CliChildOptions): Promise<CliOutcome> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env: childEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
  const output = collect(child);
  const timeoutMs = options.timeoutMs ?? 90_000;
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  const ms = performance.now() - started;
  if (signal === 'SIGKILL' && ms >= timeoutMs) throw new Error(`chain-etl ${args.join(' ')} did not end within ${timeoutMs} ms; stderr: ${output.stderr()}`);
  return { args, code, signal, stdout: output.stdout(), stderr: output.stderr(), ms };
}

/** A `chain-etl devnet` child serving on a free loopback port. */
export interface DevnetChild {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** SIGTERM, then everything it printed. */
  stop(): Promise<CliOutcome>;
}

/** Starts `chain-etl devnet --port 0 …args` and waits for its `devnet listening on <url>` line. */
export async function startDevnetChild(args: readonly string[], options: CliChildOptions): Promise<DevnetChild> {
  const fullArgs = ['devnet', '--port', '0', ...args];
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...fullArgs], { cwd: options.cwd, env: childEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
  const output = collect(child);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`devnet did not start within ${options.timeoutMs ?? 60_000} ms: ${output.stderr()}`));
    }, options.timeoutMs ?? 60_000);
    const check = (): void => {
      const found = /devnet listening on (http:\/\/\S+)/.exec(output.stdout());
      if (found === null) return;
      clearTimeout(timer);
      resolve(found[1]!);
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`devnet exited with ${code} before listening: ${output.stderr()}`));
    });
  });
  const closed = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
  return {
    url,
    port: Number(new URL(url).port),
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const [code, signal] = await closed;
      return { args: fullArgs, code, signal, stdout: output.stdout(), stderr: output.stderr(), ms: performance.now() - started };
    },
  };
}

/** A second process holding a DuckDB file open (and so its lock) until released. */
export interface LockHolder {
  readonly pid: number;
  release(): Promise<void>;
}

const HOLD = `
import { DuckDBInstance } from '@duckdb/node-api';
const instance = await DuckDBInstance.create(process.argv[1], process.argv[2] === 'read-only' ? { access_mode: 'READ_ONLY' } : {});
const connection = await instance.connect();
await connection.run('SELECT 1');
// Reachable for as long as the process lives: a collected instance closes the file and drops its lock.
globalThis.held = { instance, connection };
process.stdout.write('held\\n');
setInterval(() => {}, 1000);
`;

/**
 * Opens `path` in another process: for writing (the lock of a running sync), or `read-only` (a
 * notebook's connection, whose lock other readers share).
 */
export async function holdDuckDBFile(path: string, mode: 'read-write' | 'read-only' = 'read-write'): Promise<LockHolder> {
  // cwd = the project, so that the inline module resolves @duckdb/node-api.
  const child = spawn(process.execPath, ['--input-type=module', '-e', HOLD, path, mode], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = collect(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', () => {
      if (output.stdout().includes('held')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`lock holder exited with ${code}: ${output.stderr()}`)));
  });
  return {
    pid: child.pid!,
    release: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}

function collect(child: ChildProcess): { stdout(): string; stderr(): string } {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr!.on('data', (chunk: Buffer) => err.push(chunk));
  return { stdout: () => Buffer.concat(out).toString('utf8'), stderr: () => Buffer.concat(err).toString('utf8') };
}
