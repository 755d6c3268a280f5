/** The CLI run in this process (`runCli`), its one-line failure captured, a run that hangs interrupted. */
import { Writable } from 'node:stream';
import { runCli } from '../../src/cli/main.js';
import { KEY, KEY_ENV } from '../support/test-key.js';

/** How long one run may take before it counts as hung: the largest cases take a few seconds. */
export const RUN_TIMEOUT_MS = 30_000;

export interface RunResult {
  readonly exit: number;
  readonly message: string;
  /** It did not end by itself within `timeoutMs`. */
  readonly hung: boolean;
  readonly timeoutMs: number;
}

/** Runs `chain-etl <args> --log-level silent` in this process with the test key in its variable. */
export async function runInProcess(args: readonly string[], timeoutMs = RUN_TIMEOUT_MS): Promise<RunResult> {
  process.env[KEY_ENV] = KEY;
  let text = '';
  const stderr = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      text += String(chunk);
      callback();
    },
  });
  // A run that pages forever is interrupted as SIGTERM would (the CLI's own handler) and reported.
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    process.emit('SIGTERM', 'SIGTERM');
  }, timeoutMs);
  try {
    const exit = await runCli([...args, '--log-level', 'silent'], stderr);
    return { exit, message: text.trimEnd(), hung, timeoutMs };
  } finally {
    clearTimeout(timer);
  }
}

/** What is wrong with how a run ended: exit 0 with a message, or a failure that is not one clean line. */
export function exitProblems(run: RunResult): string[] {
  if (run.hung) return [`the run did not end within ${run.timeoutMs / 1000} s (interrupted: exit ${run.exit})`];
  if (run.exit === 0) return run.message === '' ? [] : [`exit 0 but stderr says: ${run.message}`];
  const problems: string[] = [];
  if (run.exit !== 1 && run.exit !== 2) problems.push(`exit ${run.exit}, expected 1 (run failure) or 2 (refused)`);
  const lines = run.message.split('\n');
  if (lines.length !== 1) problems.push(`the failure took ${lines.length} lines of stderr, not one`);
  if (!/^chain-etl: \S/.test(lines[0] ?? '')) problems.push('the failure message does not start with "chain-etl: "');
  if (run.message.includes('unexpected failure')) problems.push('the failure is an unexpected one (a crash, not a named problem)');
  if (run.message.includes(KEY)) problems.push('the message holds the API key');
  return problems;
}

