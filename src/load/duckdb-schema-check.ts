import { quotedIdentifier, type DuckDBConnection } from '@duckdb/node-api';
import { createTableSql } from '../core/ddl.js';
import { SchemaDriftError } from '../core/schema-errors.js';
import type { AnyTable } from '../core/table.js';
import { columnDifferences, type ColumnShape } from './column-diff.js';

/** Columns of a table as DuckDB's catalog reports them, in order. */
export async function liveColumns(connection: DuckDBConnection, database: string, table: string): Promise<ColumnShape[]> {
  const reader = await connection.runAndReadAll(
    `SELECT column_name, data_type, is_nullable FROM duckdb_columns()
     WHERE database_name = $database AND schema_name = 'main' AND table_name = $table ORDER BY column_index`,
    { database, table },
  );
  return reader.getRows().map(([name, type, nullable]) => ({
    name: String(name),
    type: String(type),
    nullable: nullable === true,
  }));
}

/** Whether `main.<table>` exists in the connection's database. */
export async function tableExists(connection: DuckDBConnection, table: string): Promise<boolean> {
  const reader = await connection.runAndReadAll(
    `SELECT count(*) FROM duckdb_tables()
     WHERE database_name = current_database() AND schema_name = 'main' AND table_name = $table`,
    { table },
  );
  return reader.getRows()[0]?.[0] === 1n;
}

/**
 * Fails with `SchemaDriftError` when the live table's columns (names, order, types, nullability)
 * differ from the definition. DuckDB itself spells the expected types: the definition is created
 * as a temp table and both catalogs are compared.
 */
export async function checkLiveSchema(connection: DuckDBConnection, table: AnyTable, where: string): Promise<void> {
  const probe = `__expected_${table.name}`;
  await connection.run(createTableSql(table, { name: probe, temporary: true }));
  try {
    const [databaseRow] = (await connection.runAndReadAll('SELECT current_database()')).getRows();
    const live = await liveColumns(connection, String(databaseRow?.[0]), table.name);
    const expected = await liveColumns(connection, 'temp', probe);
    const problems = columnDifferences(live, expected);
    if (problems.length > 0) {
      throw new SchemaDriftError(
        `Table ${table.name} in ${where} does not match its definition: ${problems.join('; ')}. ` +
          'Appending would misplace values; migrate the table or write to a new warehouse.',
      );
    }
  } finally {
    await connection.run(`DROP TABLE IF EXISTS temp.main.${quotedIdentifier(probe)}`);
  }
}
