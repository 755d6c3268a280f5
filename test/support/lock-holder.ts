/** A second process holding a DuckDB file open (and so its lock) until released. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { PROJECT_ROOT } from './build.js';

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
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => {
      if (stdout.includes('held')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`lock holder exited with ${code}: ${stderr}`)));
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
