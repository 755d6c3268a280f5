import type { DuckDBConnection } from '@duckdb/node-api';
import { quotedIdentifier, quotedString } from '../../core/sql-quote.js';
import { createTableSql } from '../../core/ddl.js';
import { SchemaDriftError } from '../../core/schema-errors.js';
import type { AnyTable } from '../../core/table.js';
import { columnDifferences, type ColumnShape } from '../column-diff.js';

const probeName = (table: string): string => `__expected_${table}`;

/**
 * Columns of the named tables of `main` in `database` ('temp', or the connection's own when
 * undefined) as DuckDB's catalog reports them, in order; a table that does not exist is absent.
 */
async function liveColumns(connection: DuckDBConnection, database: string | undefined, tables: readonly string[]): Promise<Map<string, ColumnShape[]>> {
  const columns = new Map<string, ColumnShape[]>();
  if (tables.length === 0) return columns;
  const reader = await connection.runAndReadAll(
    `SELECT table_name, column_name, data_type, is_nullable FROM duckdb_columns()
     WHERE database_name = ${database === undefined ? 'current_database()' : quotedString(database)} AND schema_name = 'main'
       AND table_name IN (${tables.map((name) => quotedString(name)).join(', ')})
     ORDER BY table_name, column_index`,
  );
  for (const [table, name, type, nullable] of reader.getRows()) {
    const list = columns.get(String(table)) ?? [];
    list.push({ name: String(name), type: String(type), nullable: nullable === true });
    columns.set(String(table), list);
  }
  return columns;
}

/**
 * Returns the names of the `tables` the connection's database holds, having checked their live
 * columns (names, order, types, nullability) against the definitions: the first table in order that
 * differs fails with `SchemaDriftError`. DuckDB itself spells the expected types: the definitions are
 * created as temp tables and both catalogs are compared, for all tables in one query each.
 */
export async function checkLiveSchemas(connection: DuckDBConnection, tables: readonly AnyTable[], where: string): Promise<Set<string>> {
  const live = await liveColumns(connection, undefined, tables.map((table) => table.name));
  const existing = tables.filter((table) => live.has(table.name));
  if (existing.length === 0) return new Set();
  await connection.run(existing.map((table) => createTableSql(table, { name: probeName(table.name), temporary: true })).join('\n'));
  try {
    const expected = await liveColumns(connection, 'temp', existing.map((table) => probeName(table.name)));
    for (const table of existing) {
      const problems = columnDifferences(live.get(table.name)!, expected.get(probeName(table.name)) ?? []);
      if (problems.length > 0) {
        throw new SchemaDriftError(
          `Table ${table.name} in ${where} does not match its definition: ${problems.join('; ')}. ` +
            'Appending would misplace values; migrate the table or write to a new warehouse.',
        );
      }
    }
  } finally {
    await connection.run(existing.map((table) => `DROP TABLE IF EXISTS temp.main.${quotedIdentifier(probeName(table.name))};`).join('\n'));
  }
  return new Set(existing.map((table) => table.name));
}
