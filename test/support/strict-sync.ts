/** A `sync --strict` that fails on the first bad value, for the tests of bad values and rejects. */
import type { Devnet } from '../../src/devnet/index.js';
import { runCliInProcess } from './cli-in-process.js';
import { describeResult, messageLines } from './cli-result.js';
import type { Workspace } from './workspace.js';

/**
 * `sync --strict` of all streams into a new DuckDB warehouse of the workspace, in process; fails unless
 * it exits 1 with one message line, and returns that line and the warehouse.
 */
export async function strictSyncFailure(devnet: Devnet, work: Workspace): Promise<{ readonly line: string; readonly sinkPath: string }> {
  const sinkPath = work.sinkPath('duckdb', 'strict');
  const pipeline = await work.pipeline({ url: devnet.url, kind: 'duckdb', sinkPath, name: 'strict.yaml' });
  const result = await runCliInProcess(['sync', pipeline, '--strict']);
  const lines = messageLines(result.stderr);
  if (result.code !== 1 || lines.length !== 1) throw new Error(`expected exit 1 with one message line, got ${describeResult(result)}`);
  return { line: lines[0]!, sinkPath };
}
