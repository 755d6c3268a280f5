import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { PROJECT_ROOT } from '../support/build.js';
import { describeOptions } from '../../src/config/index.js';
import { isSnapshot } from '../../src/core/stream.js';
import { allStreams } from '../../src/streams/index.js';
import { analystDefinitions } from '../../src/streams/analyst-views.js';
import { renderSchemaFiles, warehouseTables } from '../../src/streams/schema-files.js';

const { macros, views } = analystDefinitions;

const rendered = renderSchemaFiles();

describe('warehouse.sql', () => {
  it('runs in an empty in-memory DuckDB and creates every table, comment, macro and view', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      await connection.run(rendered.get('warehouse.sql')!);
      const tables = await connection.runAndReadAll('SELECT table_name, comment FROM duckdb_tables() ORDER BY table_name');
      expect(tables.getRows().map(([name]) => name)).toEqual(warehouseTables.map((table) => table.name).sort());
      expect(tables.getRows().every(([, comment]) => typeof comment === 'string' && comment.length > 0)).toBe(true);
      const undocumented = await connection.runAndReadAll(
        "SELECT table_name, column_name FROM duckdb_columns() WHERE table_name IN (SELECT table_name FROM duckdb_tables()) AND coalesce(comment, '') = ''",
      );
      expect(undocumented.getRows()).toEqual([]);
      const created = await connection.runAndReadAll('SELECT view_name FROM duckdb_views() WHERE NOT internal ORDER BY view_name');
      expect(created.getRows().map(([name]) => name)).toEqual([...new Set(views.map((view) => view.name))].sort());
      for (const view of views) {
        const result = await connection.runAndReadAll(`SELECT count(*) FROM "${view.name}"`);
        expect(result.getRows()).toEqual([[0n]]);
      }
      const macro = await connection.runAndReadAll("SELECT function_name, comment FROM duckdb_functions() WHERE function_type = 'macro' AND NOT internal ORDER BY function_name");
      expect(macro.getRows()).toEqual(macros.map((m) => [m.name, m.doc]));
      // Idempotent: running it again over the created warehouse changes nothing and does not fail.
      await connection.run(rendered.get('warehouse.sql')!);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});

describe('DATA_DICTIONARY.md', () => {
  it('documents every table, view and macro', () => {
    const markdown = rendered.get('DATA_DICTIONARY.md')!;
    for (const table of warehouseTables) expect(markdown).toContain(`## ${table.name}\n`);
    for (const view of views) expect(markdown).toContain(`| ${view.name} |`);
    for (const macro of macros) expect(markdown).toContain(`| ${macro.name}(${macro.parameters.join(', ')}) | ${macro.doc} |`);
  });
});

describe('pipelines/OPTIONS.md (generated from the stream registry)', () => {
  const options = describeOptions();
  const optionsMd = readFileSync(join(PROJECT_ROOT, 'pipelines', 'OPTIONS.md'), 'utf8');

  it('the streams: map has one key per registered stream, in the registry order', () => {
    const streamKeys = options.filter((row) => /^streams\.[^.]+$/.test(row.key)).map((row) => row.key.slice('streams.'.length));
    expect(streamKeys).toEqual(allStreams.map((stream) => stream.name));
  });

  it.each(allStreams.map((stream) => ({ name: stream.name, stream })))('$name: its doc and each filter of its file, with their help text', ({ stream }) => {
    const filters = Object.entries(stream.filters).map(([filter, schema]) => ({ filter, meta: (schema as z.ZodType).meta() }));
    const refresh = isSnapshot(stream) ? ['refresh', 'refresh.every'] : [];
    expect(options.filter((row) => row.key.startsWith(`streams.${stream.name}.`)).map((row) => row.key)).toEqual(
      [...filters.map(({ filter }) => filter), ...refresh].map((key) => `streams.${stream.name}.${key}`),
    );
    expect(optionsMd).toContain(`| \`streams.${stream.name}\` | map of filters, or empty | — | ${stream.doc} |\n`);
    for (const { filter, meta } of filters) {
      expect(meta?.description, filter).toMatch(/\S.*\.$/);
      expect(optionsMd).toContain(`| \`streams.${stream.name}.${filter}\` | ${meta?.typeLabel} | — | ${meta?.description} |\n`);
    }
  });
});
