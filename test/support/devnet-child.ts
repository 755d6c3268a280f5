/** `chain-etl devnet` as a child process, for tests that judge the devnet command itself or keep it apart from the runner. */
import { spawnCli, type CliOptions } from './cli.js';
import type { CliResult } from './cli-result.js';

/** A `chain-etl devnet` child serving on a free loopback port. */
export interface DevnetChild {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** What it has printed to stdout so far. */
  stdout(): string;
  /** Sends `signal`, then everything it printed and how it ended. */
  stop(signal?: NodeJS.Signals): Promise<CliResult>;
}

/**
 * Starts `chain-etl devnet --port 0 …args` and waits for its `devnet listening on <url>` line.
 * `timeoutMs` bounds the start; the child runs until `stop`.
 */
export async function startDevnetChild(args: readonly string[], options: CliOptions): Promise<DevnetChild> {
  const startMs = options.timeoutMs ?? 60_000;
  const run = spawnCli(['devnet', '--port', '0', ...args], { ...options, timeoutMs: Infinity });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      run.child.kill('SIGKILL');
      reject(new Error(`devnet did not start within ${startMs} ms: ${run.stderr()}`));
    }, startMs);
    const check = (): void => {
      const found = /devnet listening on (http:\/\/\S+)/.exec(run.stdout());
      if (found === null) return;
      clearTimeout(timer);
      resolve(found[1]!);
    };
    run.child.stdout!.on('data', check);
    void run.done.then((result) => {
      clearTimeout(timer);
      reject(new Error(`devnet exited with ${result.code} before listening: ${result.stderr}`));
    }, reject);
  });
  return {
    url,
    port: Number(new URL(url).port),
    pid: run.pid,
    stdout: run.stdout,
    stop: async (signal = 'SIGTERM') => {
      if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill(signal);
      return run.done;
    },
  };
}
