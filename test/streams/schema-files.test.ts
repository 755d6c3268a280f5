import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { renderSchemaFiles, views, warehouseTables } from '../../src/streams/schema-files.js';

const rendered = renderSchemaFiles();

describe('warehouse.sql', () => {
  it('runs in an empty in-memory DuckDB and creates every table, comment and view', async () => {
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
      expect(created.getRows().map(([name]) => name)).toEqual(views.map((view) => view.name).sort());
      for (const view of views) {
        const result = await connection.runAndReadAll(`SELECT count(*) FROM "${view.name}"`);
        expect(result.getRows()).toEqual([[0n]]);
      }
      // Idempotent: running it again over the created warehouse changes nothing and does not fail.
      await connection.run(rendered.get('warehouse.sql')!);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});

describe('DATA_DICTIONARY.md', () => {
  it('documents every table and view', () => {
    const markdown = rendered.get('DATA_DICTIONARY.md')!;
    for (const table of warehouseTables) expect(markdown).toContain(`## ${table.name}\n`);
    for (const view of views) expect(markdown).toContain(`| ${view.name} |`);
  });
});
