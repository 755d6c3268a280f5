import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import type { AnyKind } from '../../core/column-kind.js';
import { SchemaDriftError } from '../../core/schema-errors.js';
import type { AnyTable } from '../../core/table.js';
import type { Row } from '../../core/table.js';

/** Extra per-row values appended after the table's columns, e.g. a staging partition day. */
export interface TrailingColumn {
  readonly kind: AnyKind;
  value(row: Row): unknown;
}

/**
 * Appends already validated rows to the `target` table (catalog `temp` for temp tables) through
 * one appender, then closes it (flushing into the current transaction). Checks the appender's
 * column count first: a positional append into a table of another shape would misplace values.
 */
export async function appendRows(
  connection: DuckDBConnection,
  target: { readonly name: string; readonly catalog?: string },
  table: AnyTable,
  rows: readonly Row[],
  trailing: readonly TrailingColumn[] = [],
): Promise<void> {
  const appender = await connection.createAppender(target.name, 'main', target.catalog ?? null);
  try {
    const expected = table.columnNames.length + trailing.length;
    if (appender.columnCount !== expected) {
      throw new SchemaDriftError(`Table ${target.name} has ${appender.columnCount} columns, expected ${expected}`);
    }
    const kinds = table.columnNames.map((name) => [name, table.columns[name]!] as const);
    for (const row of rows) {
      for (const [name, kind] of kinds) kind.append(appender, row[name]);
      for (const column of trailing) column.kind.append(appender, column.value(row));
      appender.endRow();
    }
  } catch (err) {
    closeAfterFailure(appender);
    throw err;
  }
  appender.closeSync();
}

/** Appends values of one kind as a single-column table. */
export async function appendValues(
  connection: DuckDBConnection,
  target: { readonly name: string; readonly catalog?: string },
  kind: AnyKind,
  values: readonly unknown[],
): Promise<void> {
  const appender = await connection.createAppender(target.name, 'main', target.catalog ?? null);
  try {
    for (const value of values) {
      kind.append(appender, value);
      appender.endRow();
    }
  } catch (err) {
    closeAfterFailure(appender);
    throw err;
  }
  appender.closeSync();
}

/** Releases an appender whose rows the caller's rollback discards; the first error is the one to report. */
function closeAfterFailure(appender: DuckDBAppender): void {
  try {
    appender.clear();
    appender.closeSync();
  } catch {
    // The error being thrown already says what went wrong.
  }
}
