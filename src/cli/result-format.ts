/**
 * A query's result as text for `chain-etl query` and `chain-etl sql`, written while its rows stream
 * (a DuckDB vector at a time, never the whole result in memory), every value exact: DECIMAL, BIGINT,
 * UBIGINT and HUGEINT are printed from DuckDB's own text, never through a JS number.
 */
import { DuckDBTypeId, type DuckDBResult, type Json } from '@duckdb/node-api';
import type { ResultOutput } from './result-output.js';
import { writeTable } from './result-table.js';
import { checkComplete } from './streamed-statement.js';

export const RESULT_FORMATS = ['table', 'csv', 'json'] as const;
export type ResultFormat = (typeof RESULT_FORMATS)[number];

/**
 * Writes `result` to `out` in `format`, up to its last row or until the reader goes:
 * - `table`: aligned, fitted to `maxWidth` columns (0: no limit), then the row count (result-table.ts);
 * - `csv`: RFC 4180 with a header line; NULL is an empty field, an empty text `""`; a text cell a
 *   spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return) gets a
 *   leading `'`, unless `csvRaw` (OWASP's CSV injection advice; numbers are never changed);
 * - `json`: one array of row objects; the types that hold values beyond 2^53 (BIGINT, UBIGINT,
 *   HUGEINT, DECIMAL) are strings in every row, smaller integers and floats are numbers.
 * csv and json carry every value whole, whatever `maxWidth`.
 */
export async function writeResult(result: DuckDBResult, format: ResultFormat, out: ResultOutput, options: ResultShape): Promise<void> {
  if (format === 'table') await writeTable(result, out, options.maxWidth);
  else if (format === 'csv') await writeCsv(result, out, options.csvRaw);
  else await writeJson(result, out);
}

export interface ResultShape {
  /** Columns a table fits in; 0 for no limit. */
  readonly maxWidth: number;
  /** CSV text cells exactly as stored, formula-leading ones included. */
  readonly csvRaw: boolean;
}

async function writeCsv(result: DuckDBResult, out: ResultOutput, raw: boolean): Promise<void> {
  const line = (cells: readonly (string | undefined)[]): string => `${cells.map(csvField).join(',')}\r\n`;
  if (!(await out.write(line(result.columnNames().map((name) => (raw ? name : defused(name))))))) return;
  const texts = result.columnTypes().map((type) => !raw && type.typeId === DuckDBTypeId.VARCHAR);
  for await (const rows of result.yieldRowsJson()) {
    if (!(await out.write(rows.map((row) => line(row.map((value, column) => csvText(value, texts[column]!)))).join('')))) return;
  }
  checkComplete(result);
}

/** What makes a spreadsheet take a cell as a formula. */
const FORMULA_LEAD = /^[=+\-@\t\r]/;

/** `text` with a leading `'` where it would start a formula; other text as it is. */
function defused(text: string): string {
  return FORMULA_LEAD.test(text) ? `'${text}` : text;
}

/** A value as a CSV field's text (`defuse`: a text column's, formula leads defused); undefined for NULL. */
function csvText(value: Json, defuse: boolean): string | undefined {
  if (value === null) return undefined;
  if (typeof value !== 'string') return JSON.stringify(value);
  return defuse ? defused(value) : value;
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
