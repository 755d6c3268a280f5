/** What one `chain-etl` command line ended with, spawned or run in process, and its text for assertions. */

export interface CliResult {
  readonly args: readonly string[];
  /** Exit code; null when a signal ended the process. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** A CLI result for assertion messages. */
export function describeResult(result: CliResult): string {
  return `exit ${result.code} signal ${result.signal} after ${result.ms} ms\n--- stdout\n${result.stdout.slice(-3000)}\n--- stderr\n${result.stderr.slice(-3000)}`;
}

/** stderr without pino's JSON log lines: what the CLI printed for a human. */
export function messageLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('{"level"'));
}
