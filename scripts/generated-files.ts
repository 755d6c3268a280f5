/**
 * Every file the repository keeps that a program writes. `npm run generate` (scripts/generate.ts)
 * writes them; `npm run generate -- --check` and test/generated-files.test.ts name the stale ones.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPTIONS_FILE, optionsDocument } from '../src/config/describe.js';
import { SCHEMAS_DIR, renderSchemaFiles } from '../src/streams/schema-files.js';
import { goldenFiles } from '../test/streams/golden-cases.js';
import { renderExternalTables } from './external-tables.js';

export interface GeneratedFile {
  /** From the project root, with `/`. */
  readonly path: string;
  /** What it is rendered from, for the message that calls it stale. */
  readonly source: string;
  readonly content: string;
}

/** The generated files as they should be; `root` is the project root (the golden cases read examples there). */
export function generatedFiles(root: string): GeneratedFile[] {
  const files: GeneratedFile[] = [];
  for (const [name, content] of renderSchemaFiles()) {
    files.push({ path: `${SCHEMAS_DIR}/${name}`, source: 'the table definitions (src/streams/schema-files.ts)', content });
  }
  files.push({ path: OPTIONS_FILE, source: 'the pipeline file schema (src/config/describe.ts)', content: optionsDocument() });
  for (const [path, content] of goldenFiles(root)) {
    files.push({ path, source: 'the example responses through their streams (test/streams/golden-cases.ts)', content });
  }
  for (const [path, content] of renderExternalTables()) {
    files.push({ path, source: 'the table definitions (scripts/external-tables.ts)', content });
  }
  return files;
}

/** One line per file under `root` that is missing or differs from what it is generated from. */
export function staleFiles(root: string, files: readonly GeneratedFile[] = generatedFiles(root)): string[] {
  const stale: string[] = [];
  for (const file of files) {
    const path = join(root, file.path);
    if (!existsSync(path)) stale.push(`${file.path} is missing (generated from ${file.source})`);
    else if (readFileSync(path, 'utf8') !== file.content) stale.push(`${file.path} differs from what ${file.source} renders`);
  }
  return stale;
}
