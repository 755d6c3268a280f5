/**
 * A result as an aligned table while its rows stream: a header, a rule, one line per row (numbers to
 * the right, `NULL` for null, line breaks, tabs and other control characters escaped), the row count,
 * and a note when the line width left columns out or cut values. Widths are display widths
 * (display-width.ts) taken from the first rows, so memory stays bounded whatever the row count; the
 * later rows keep them: within a line width a longer value is cut, without one it overflows its column.
 */
import { DuckDBTypeId, type DuckDBResult, type Json } from '@duckdb/node-api';
import { clipToWidth, displayWidth, ELLIPSIS } from './display-width.js';
import type { ResultOutput } from './result-output.js';
import { checkComplete } from './streamed-statement.js';
import { fitTable, type TableLayout } from './table-layout.js';

/** The rows whose cells set the column widths: one DuckDB vector. */
export const SAMPLE_ROWS = 2048;

/** Types right-aligned and never cut. */
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

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const NAMED_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A value as one cell's text: one line, nothing a terminal would take as a command. */
function cellText(value: Json): string {
  if (value === null) return 'NULL';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.replace(CONTROL, (char) => NAMED_ESCAPES[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Writes `result` as a table to `out`, fitted to `maxWidth` columns (0: no limit); stops fetching rows once the reader has gone. */
export async function writeTable(result: DuckDBResult, out: ResultOutput, maxWidth: number): Promise<void> {
  const names = result.columnNames();
  const numeric = result.columnTypes().map((type) => NUMERIC.has(type.typeId));
  const batches = result.yieldRowsJson()[Symbol.asyncIterator]();
  const first: string[][] = [];
  let next = await batches.next();
  while (next.done !== true) {
    for (const row of next.value) first.push(row.map(cellText));
    if (first.length >= SAMPLE_ROWS) break;
    next = await batches.next();
  }
  const layout = fitTable(
    names.map((name, column) => ({
      natural: first.reduce((widest, row) => Math.max(widest, displayWidth(row[column]!)), displayWidth(name)),
      cuttable: !numeric[column]!,
    })),
    maxWidth,
  );
  const table = new TableLines(layout, numeric, maxWidth > 0);
  let rows = first.length;
  let open = await out.write([table.line(names), table.rule(), ...first.map((row) => table.line(row)), ''].join('\n'));
  while (open && next.done !== true) {
    next = await batches.next();
    if (next.done === true) break;
    rows += next.value.length;
    open = await out.write(next.value.map((row) => `${table.line(row.map(cellText))}\n`).join(''));
  }
  if (!open) return;
  checkComplete(result);
  await out.write(`(${rows} ${rows === 1 ? 'row' : 'rows'})\n${table.note(names.length, maxWidth)}`);
}

/** The lines of one table in its layout, remembering whether a cell was cut. */
class TableLines {
  private cut = false;

  constructor(
    private readonly layout: TableLayout,
    private readonly numeric: readonly boolean[],
    private readonly clip: boolean,
  ) {}

  /** The header or a row: each cell padded (or, within a line width, cut) to its column. */
  line(texts: readonly string[]): string {
    const { widths, hidden } = this.layout;
    const cells = widths.map((width, column) => this.cell(texts[column]!, width, this.numeric[column]!));
    return [...cells, ...(hidden > 0 ? [ELLIPSIS] : [])].join(' | ').trimEnd();
  }

  rule(): string {
    const rules = this.layout.widths.map((width) => '-'.repeat(width));
    return [...rules, ...(this.layout.hidden > 0 ? ['-'] : [])].join('-+-');
  }

  /** What the table does not show and how to see it, as a line; empty when it shows everything. */
  note(columns: number, maxWidth: number): string {
    const { hidden } = this.layout;
    if (hidden === 0 && !this.cut) return '';
    const what = [hidden > 0 ? `${hidden} of ${columns} columns hidden` : '', this.cut ? 'values cut' : ''].filter((part) => part !== '').join(', ');
    return wrap(`(${what}: --max-width 0 or --format csv|json shows all)`, maxWidth);
  }

  /** A number is right-aligned and never cut: wider than its column (a later row's), it pushes the line right. */
  private cell(text: string, width: number, number: boolean): string {
    let shown = text;
    let columns = displayWidth(text);
    if (this.clip && !number && columns > width) {
      ({ text: shown, width: columns } = clipToWidth(text, width));
      this.cut = true;
    }
    const pad = ' '.repeat(Math.max(width - columns, 0));
    return number ? pad + shown : shown + pad;
  }
}

/** `text` as lines of at most `width` columns, broken at spaces. */
function wrap(text: string, width: number): string {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && displayWidth(`${last} ${word}`) <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.map((line) => `${line}\n`).join('');
}
