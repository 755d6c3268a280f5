/**
 * `npm run generate`: writes every generated file the repository keeps (scripts/generated-files.ts)
 * whose content changed, and names each one it wrote.
 *
 *   npm run generate                 # schemas/, docs/external-tables/, pipelines/OPTIONS.md, test/fixtures/golden/
 *   npm run generate -- --check      # writes nothing; exits 1 naming every stale file
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generatedFiles, staleFiles } from './generated-files.js';

// Built to .scripts-build/scripts/generate.js: the project root is two folders up.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
const files = generatedFiles(ROOT);

if (values.check) {
  const stale = staleFiles(ROOT, files);
  if (stale.length > 0) {
    console.error(`${stale.length} generated file(s) stale: run \`npm run generate\` and review the diff`);
    for (const line of stale) console.error(`  ${line}`);
    process.exitCode = 1;
  }
} else {
  const changed = files.filter((file) => {
    const path = join(ROOT, file.path);
    return !existsSync(path) || readFileSync(path, 'utf8') !== file.content;
  });
  for (const file of changed) {
    mkdirSync(dirname(join(ROOT, file.path)), { recursive: true });
    writeFileSync(join(ROOT, file.path), file.content);
    console.log(`wrote ${file.path}`);
  }
  if (changed.length === 0) console.log(`all ${files.length} generated files are up to date`);
}
