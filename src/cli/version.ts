import { readFileSync } from 'node:fs';

/**
 * This release's version, from the package.json two folders above this module (the project root,
 * from src/cli, dist/cli and dist/bundle alike), so that `--version` is right wherever the binary is
 * linked from (a global install runs it through a symlink in another tree).
 */
export function packageVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}
