/** Helpers for stream tests: items through a stream into rows, checked as the sink would check them. */
import { parseItems } from '../../src/api/wire.js';
import type { StreamDefinition } from '../../src/core/stream.js';
import type { AnyTable } from '../../src/core/table.js';
import type { Row } from '../../src/core/table.js';

export interface StreamOutput<Item> {
  readonly items: Item[];
  readonly rejects: { readonly raw: unknown; readonly reason: string }[];
  /** Rows per table of the stream, in item order; every table of the stream is present. */
  readonly rows: Map<string, Row[]>;
}

/** Parses raw items with the stream's schema and flattens the valid ones with `toRows`. */
export function runStream<Item, Filters>(stream: StreamDefinition<Item, Filters>, raw: readonly unknown[]): StreamOutput<Item> {
  const { ok, rejects } = parseItems(stream.item, raw);
  const rows = new Map<string, Row[]>(stream.tables.map((table) => [table.name, []]));
  for (const item of ok) {
    for (const [name, tableRows] of stream.toRows(item)) {
      const list = rows.get(name);
      if (list === undefined) throw new Error(`toRows returned rows for ${name}, which is not a table of ${stream.name}`);
      list.push(...tableRows);
    }
  }
  return { items: ok, rejects, rows };
}

/** What the sink would refuse in these rows (wrong columns, values not of the column's kind), one line each. */
export function rowProblems(table: AnyTable, rows: readonly Row[]): string[] {
  const problems: string[] = [];
  rows.forEach((row, index) => {
    const extra = Object.keys(row).filter((name) => !table.columnNames.includes(name));
    if (extra.length > 0) problems.push(`${table.name}[${index}]: unexpected columns ${extra.join(', ')}`);
    for (const column of table.columnNames) {
      const found = table.columns[column]!.problem(row[column]);
      if (found !== undefined) problems.push(`${table.name}[${index}].${column}: ${found}`);
    }
  });
  return problems;
}

/** Primary keys that occur more than once. */
export function duplicateKeys(table: AnyTable, rows: readonly Row[]): string[] {
  const seen = new Set<string>();
  const duplicates: string[] = [];
  for (const row of rows) {
    const key = JSON.stringify(table.primaryKey.map((column) => String(row[column])));
    if (seen.has(key)) duplicates.push(key);
    seen.add(key);
  }
  return duplicates;
}

/** Rows as JSON-ready objects in column order: bigints become decimal strings. */
export function jsonRows(table: AnyTable, rows: readonly Row[]): Record<string, unknown>[] {
  return rows.map((row) =>
    Object.fromEntries(
      table.columnNames.map((column) => {
        const value = row[column];
        return [column, typeof value === 'bigint' ? value.toString() : value];
      }),
    ),
  );
}
