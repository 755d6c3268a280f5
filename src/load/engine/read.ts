import type { DuckDBConnection } from '@duckdb/node-api';
import { quotedIdentifier } from '../../core/sql-quote.js';
import { identifierList } from '../../core/ddl.js';
import type { AnyTable, RowOf } from '../../core/table.js';

/**
 * Reads a table's rows back into their TS values (bigints stay exact), ordered by primary key.
 * `from` is any SQL relation with the table's columns, e.g. a `read_parquet(...)` call.
 * @default from the table of the same name
 */
export async function readRows<T extends AnyTable>(
  connection: DuckDBConnection,
  table: T,
  from: string = quotedIdentifier(table.name),
): Promise<RowOf<T>[]> {
  const columns = identifierList(table.columnNames);
  const reader = await connection.runAndReadAll(
    `SELECT ${columns} FROM ${from} ORDER BY ${identifierList(table.primaryKey)}`,
  );
  const kinds = table.columnNames.map((name) => [name, table.columns[name]!] as const);
  return reader.getRows().map((values) => {
    const row: Record<string, unknown> = {};
    kinds.forEach(([name, kind], index) => {
      row[name] = kind.read(values[index] ?? null);
    });
    return row as RowOf<T>;
  });
}
