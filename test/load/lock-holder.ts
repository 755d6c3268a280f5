import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

const HOLD = `
import { DuckDBInstance } from '@duckdb/node-api';
const instance = await DuckDBInstance.create(process.argv[1]);
await (await instance.connect()).run('SELECT 1');
process.stdout.write('held\\n');
setInterval(() => {}, 1000);
`;

/** A real second process that opens `path` with DuckDB and keeps it until killed. */
export async function holdDuckDBFile(path: string, cwd: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', HOLD, path], {
    cwd,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  if (!chunk.toString().includes('held')) throw new Error(`lock holder said ${chunk.toString()}`);
  return child;
}

export async function release(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill();
  await exited;
}
