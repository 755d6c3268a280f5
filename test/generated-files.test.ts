import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { generatedFiles, staleFiles } from '../scripts/generated-files.js';
import { PROJECT_ROOT } from './support/build.js';

const files = generatedFiles(PROJECT_ROOT);

test('every generated file in the repository is what it is generated from (else: npm run generate)', () => {
  expect(staleFiles(PROJECT_ROOT, files)).toEqual([]);
});

test('the generated files are schemas/, docs/external-tables/, pipelines/OPTIONS.md and every file of test/fixtures/golden (none left over)', () => {
  const golden = readdirSync(join(PROJECT_ROOT, 'test/fixtures/golden')).map((name) => `test/fixtures/golden/${name}`);
  const external = readdirSync(join(PROJECT_ROOT, 'docs/external-tables')).map((name) => `docs/external-tables/${name}`);
  expect(external.sort()).toEqual(['athena.sql', 'clickhouse.sql', 'spark.sql', 'trino.sql'].map((name) => `docs/external-tables/${name}`));
  expect(files.map((file) => file.path).sort()).toEqual(
    ['schemas/warehouse.sql', 'schemas/DATA_DICTIONARY.md', 'pipelines/OPTIONS.md', ...external, ...golden].sort(),
  );
});

const work = mkdtempSync(join(tmpdir(), 'generated-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

test('names each missing and each changed file, and nothing else', () => {
  for (const file of files) {
    mkdirSync(dirname(join(work, file.path)), { recursive: true });
    writeFileSync(join(work, file.path), file.content);
  }
  expect(staleFiles(work, files)).toEqual([]);
  const [sql, , options, golden] = files;
  rmSync(join(work, sql!.path));
  writeFileSync(join(work, options!.path), `${options!.content} `);
  writeFileSync(join(work, golden!.path), `${golden!.content}\n`);
  expect(staleFiles(work, files)).toEqual([
    'schemas/warehouse.sql is missing (generated from the table definitions (src/streams/schema-files.ts))',
    'pipelines/OPTIONS.md differs from what the pipeline file schema (src/config/describe.ts) renders',
    `${golden!.path} differs from what the example responses through their streams (test/streams/golden-cases.ts) renders`,
  ]);
});
