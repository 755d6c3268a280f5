import { quotedIdentifier, quotedString } from './sql-quote.js';
import type { AnyTable } from './table.js';

/** How `createTableSql` renders a table. */
export interface CreateTableOptions {
  /** Name of the created table. @default table.name */
  readonly name?: string;
  /** Create a connection-local TEMP table. @default false */
  readonly temporary?: boolean;
  /** Emit NOT NULL constraints, and PRIMARY KEY for a table with `keyIndex`. @default true */
  readonly constraints?: boolean;
  /** Extra trailing columns as [name, SQL type], e.g. a staging column. @default [] */
  readonly extraColumns?: readonly (readonly [string, string])[];
}

/** DuckDB `CREATE TABLE IF NOT EXISTS` for a table definition. */
export function createTableSql(table: AnyTable, options: CreateTableOptions = {}): string {
  const constraints = options.constraints ?? true;
  const lines = table.columnNames.map((name) => {
    const kind = table.columns[name]!;
    const notNull = constraints && !kind.isNullable ? ' NOT NULL' : '';
    return `  ${quotedIdentifier(name)} ${kind.sqlType}${notNull}`;
  });
  for (const [name, type] of options.extraColumns ?? []) lines.push(`  ${quotedIdentifier(name)} ${type}`);
  if (constraints && table.keyIndex === true) lines.push(`  PRIMARY KEY (${identifierList(table.primaryKey)})`);
  const unindexedKey = constraints && table.keyIndex !== true ? `-- Key (${identifierList(table.primaryKey)}): unique, kept so by chain-etl's delete-then-insert; no index.\n` : '';
  const temp = options.temporary ? 'TEMP ' : '';
  const name = quotedIdentifier(options.name ?? table.name);
  return `${unindexedKey}CREATE ${temp}TABLE IF NOT EXISTS ${name} (\n${lines.join(',\n')}\n);`;
}

/** `COMMENT ON` statements carrying the table's and its columns' documentation into the catalog. */
export function commentsSql(table: AnyTable): string {
  const name = quotedIdentifier(table.name);
  const lines = [`COMMENT ON TABLE ${name} IS ${quotedString(table.doc)};`];
  for (const column of table.columnNames) {
    const kind = table.columns[column]!;
    const text = kind.description === '' ? kind.kindDoc : kind.description;
    lines.push(`COMMENT ON COLUMN ${name}.${quotedIdentifier(column)} IS ${quotedString(text)};`);
  }
  return lines.join('\n');
}

/** `"a", "b"` for a list of column names. */
export function identifierList(names: readonly string[]): string {
  return names.map((name) => quotedIdentifier(name)).join(', ');
}
