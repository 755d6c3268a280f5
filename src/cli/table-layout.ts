/**
 * The column widths of a `table` result within a line width: every column at its natural width when
 * they fit; else the columns from the left that fit at a readable width, the text ones narrowed by one
 * cap, so that a long value (a message body) gives way before a short one (an address) is cut. A
 * number is never cut (`60000000000…` reads as another number): its column is whole or left out.
 */

/** The columns between two cells: ` | `. */
const GAP = 3;
/** Narrower than this a text column is left out rather than cut further (a shorter text keeps its width). */
const MIN_TEXT_WIDTH = 10;
/** The last cell of each line when columns are left out: ` | …`. */
const MORE_WIDTH = GAP + 1;

export interface LayoutColumn {
  /** The display width of its longest cell, header included. */
  readonly natural: number;
  /** Whether its values may be cut (text), or only shown whole (numbers). */
  readonly cuttable: boolean;
}

export interface TableLayout {
  /** The width of each column shown: the first `widths.length` columns of the result. */
  readonly widths: readonly number[];
  /** How many columns, after those shown, are left out. */
  readonly hidden: number;
}

/** Fits `columns` into `maxWidth` display columns; 0 for no limit. */
export function fitTable(columns: readonly LayoutColumn[], maxWidth: number): TableLayout {
  const natural = columns.map((column) => column.natural);
  if (maxWidth === 0 || lineWidth(natural, 0) <= maxWidth) return { widths: natural, hidden: 0 };
  const capped = (count: number, cap: number): number[] =>
    columns.slice(0, count).map((column) => (column.cuttable ? Math.min(column.natural, cap) : column.natural));
  let shown = columns.length;
  while (shown > 1 && lineWidth(capped(shown, MIN_TEXT_WIDTH), columns.length - shown) > maxWidth) shown -= 1;
  const hidden = columns.length - shown;
  // The widest cap that fits; the columns it shortens then share what is left of the line.
  let [low, high] = [1, Math.max(...natural.slice(0, shown))];
  while (low < high) {
    const cap = Math.ceil((low + high) / 2);
    if (lineWidth(capped(shown, cap), hidden) <= maxWidth) low = cap;
    else high = cap - 1;
  }
  const widths = capped(shown, low);
  let spare = maxWidth - lineWidth(widths, hidden);
  for (let column = 0; column < widths.length && spare > 0; column += 1) {
    if (widths[column]! < natural[column]!) {
      widths[column] = widths[column]! + 1;
      spare -= 1;
    }
  }
  return { widths, hidden };
}

function lineWidth(widths: readonly number[], hidden: number): number {
  return widths.reduce((sum, width) => sum + width, 0) + GAP * (widths.length - 1) + (hidden > 0 ? MORE_WIDTH : 0);
}
