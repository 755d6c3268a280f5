/**
 * The built binary on a pseudo-terminal of a fixed width, as a user's shell runs it: `script` (util-linux)
 * gives the child a terminal for stdin, stdout and stderr, `stty` sets its size, and what the
 * terminal received comes back as lines.
 */
import { spawn } from 'node:child_process';
import { BIN } from './build.js';
import { childEnv } from './cli.js';

export interface TerminalRun {
  readonly code: number | null;
  /** What the terminal received (stdout and stderr, as a terminal shows them), one entry per line. */
  readonly lines: readonly string[];
}

/** A word for `sh -c`, quoted. */
function shellWord(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Runs `chain-etl …args` in `cwd` on a terminal `columns` wide; fails after `timeoutMs`. */
export function runOnTerminal(args: readonly string[], options: { readonly cwd: string; readonly columns: number; readonly timeoutMs?: number }): Promise<TerminalRun> {
  const command = `stty cols ${options.columns} rows 50 && exec ${[process.execPath, BIN, ...args].map(shellWord).join(' ')}`;
  const child = spawn('script', ['--quiet', '--flush', '--return', '--command', command, '/dev/null'], {
    cwd: options.cwd,
    env: childEnv({ TERM: 'xterm', NO_COLOR: '1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`chain-etl ${args.join(' ')} on a terminal did not finish in ${options.timeoutMs ?? 30_000} ms:\n${output.slice(-2000)}`));
    }, options.timeoutMs ?? 30_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, lines: output.replace(/\r\n$/, '').split('\r\n') });
    });
  });
}
