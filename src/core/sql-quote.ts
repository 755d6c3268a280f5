/**
 * DuckDB's quoting of names and text in SQL, as @duckdb/node-api's `quotedIdentifier` and
 * `quotedString` do it, without loading that package: the DDL and the views are written before a
 * warehouse opens, and the CLI loads DuckDB only then (see ./duckdb-api.ts).
 */

/** `"name"`, its double quotes doubled. */
export function quotedIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `'text'`, its single quotes doubled. */
export function quotedString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
