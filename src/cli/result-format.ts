/**
 * A query's result as text for `chain-etl query` and `chain-etl sql`, every value exact: DECIMAL,
 * BIGINT, UBIGINT and HUGEINT are printed from DuckDB's own text, never through a JS number.
 */
import { DuckDBTypeId, type DuckDBResultReader, type Json } from '@duckdb/node-api';

export const RESULT_FORMATS = ['table', 'csv', 'json'] as const;
export type ResultFormat = (typeof RESULT_FORMATS)[number];

/** Types right-aligned in a table. */
const NUMERIC: ReadonlySet<DuckDBTypeId> = new Set([
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.UHUGEINT,
  DuckDBTypeId.FLOAT,
  DuckDBTypeId.DOUBLE,
  DuckDBTypeId.DECIMAL,
]);

/**
 * The whole result in `format`:
 * - `table`: a header, a rule, one aligned line per row (numbers to the right, `NULL` for null,
 *   line breaks and tabs escaped), then the row count;
 * - `csv`: RFC 4180 with a header line; NULL is an empty field, an empty text `""`;
 * - `json`: one array of row objects; the types that hold values beyond 2^53 (BIGINT, UBIGINT,
 *   HUGEINT, DECIMAL) are strings in every row, smaller integers and floats are numbers.
 */
export function formatResult(result: DuckDBResultReader, format: ResultFormat): string {
  if (format === 'json') return `${JSON.stringify(result.getRowObjectsJson())}\n`;
  const names = result.columnNames();
  const rows = result.getRowsJson();
  return format === 'csv' ? csv(names, rows) : table(names, result.columnTypes().map((type) => NUMERIC.has(type.typeId)), rows);
}

/** A value as one cell's text; undefined for NULL. */
function cellText(value: Json): string | undefined {
  if (value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function csv(names: readonly string[], rows: readonly Json[][]): string {
  const field = (text: string | undefined): string => {
    if (text === undefined) return '';
    return text === '' || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return [names, ...rows.map((row) => row.map(cellText))].map((cells) => `${cells.map(field).join(',')}\r\n`).join('');
}

function table(names: readonly string[], rightAligned: readonly boolean[], rows: readonly Json[][]): string {
  const cells = rows.map((row) => row.map((value) => (cellText(value) ?? 'NULL').replaceAll('\n', '\\n').replaceAll('\r', '\\r').replaceAll('\t', '\\t')));
  const widths = names.map((name, column) => Math.max(name.length, ...cells.map((row) => row[column]!.length)));
  const line = (texts: readonly string[]): string =>
    texts.map((text, column) => (rightAligned[column] ? text.padStart(widths[column]!) : text.padEnd(widths[column]!))).join(' | ').trimEnd();
  const count = `(${rows.length} ${rows.length === 1 ? 'row' : 'rows'})`;
  return [line(names), widths.map((width) => '-'.repeat(width)).join('-+-'), ...cells.map(line), count].join('\n') + '\n';
}
