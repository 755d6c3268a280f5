/**
 * A query's result as text for `chain-etl query` and `chain-etl sql`, written while its rows stream
 * (a DuckDB vector at a time, never the whole result in memory), every value exact: DECIMAL, BIGINT,
 * UBIGINT and HUGEINT are printed from DuckDB's own text, never through a JS number.
 */
import type { DuckDBResult, Json } from '@duckdb/node-api';
import type { ResultOutput } from './result-output.js';
import { writeTable } from './result-table.js';
import { checkComplete } from './streamed-statement.js';

export const RESULT_FORMATS = ['table', 'csv', 'json'] as const;
export type ResultFormat = (typeof RESULT_FORMATS)[number];

/**
 * Writes `result` to `out` in `format`, up to its last row or until the reader goes:
 * - `table`: aligned, fitted to `maxWidth` columns (0: no limit), then the row count (result-table.ts);
 * - `csv`: RFC 4180 with a header line; NULL is an empty field, an empty text `""`;
 * - `json`: one array of row objects; the types that hold values beyond 2^53 (BIGINT, UBIGINT,
 *   HUGEINT, DECIMAL) are strings in every row, smaller integers and floats are numbers.
 * csv and json carry every value whole, whatever `maxWidth`.
 */
export async function writeResult(result: DuckDBResult, format: ResultFormat, out: ResultOutput, maxWidth: number): Promise<void> {
  if (format === 'table') await writeTable(result, out, maxWidth);
  else if (format === 'csv') await writeCsv(result, out);
  else await writeJson(result, out);
}

async function writeCsv(result: DuckDBResult, out: ResultOutput): Promise<void> {
  const line = (cells: readonly (string | undefined)[]): string => `${cells.map(csvField).join(',')}\r\n`;
  if (!(await out.write(line(result.columnNames())))) return;
  for await (const rows of result.yieldRowsJson()) {
    if (!(await out.write(rows.map((row) => line(row.map(csvText))).join('')))) return;
  }
  checkComplete(result);
}

/** A value as a CSV field's text; undefined for NULL. */
function csvText(value: Json): string | undefined {
  if (value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function csvField(text: string | undefined): string {
  if (text === undefined) return '';
  return text === '' || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The array's text is JSON.stringify's of the whole result, written a vector of rows at a time. */
async function writeJson(result: DuckDBResult, out: ResultOutput): Promise<void> {
  let separator = '';
  if (!(await out.write('['))) return;
  for await (const rows of result.yieldRowObjectJson()) {
    if (!(await out.write(separator + rows.map((row) => JSON.stringify(row)).join(',')))) return;
    separator = ',';
  }
  checkComplete(result);
  await out.write(']\n');
}
