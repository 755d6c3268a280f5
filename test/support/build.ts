/** Runs `npm run build` (dist/ and its bundle, what bin/chain-etl.js runs) when it is missing or older than a source file. */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(PROJECT_ROOT, 'bin', 'chain-etl.js');

function newestMtime(dir: string, suffix: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path, suffix));
    else if (entry.name.endsWith(suffix)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

export function ensureBuilt(): void {
  const main = join(PROJECT_ROOT, 'dist', 'bundle', 'main.js');
  const builtAt = existsSync(main) ? newestMtime(join(PROJECT_ROOT, 'dist'), '.js') : 0;
  if (builtAt > 0 && builtAt >= newestMtime(join(PROJECT_ROOT, 'src'), '.ts')) return;
  try {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: PROJECT_ROOT, stdio: 'pipe' });
  } catch (error) {
    const output = String((error as { stdout?: Buffer }).stdout ?? '') + String((error as { stderr?: Buffer }).stderr ?? '');
    throw new Error(`npm run build failed:\n${output}`, { cause: error });
  }
}
