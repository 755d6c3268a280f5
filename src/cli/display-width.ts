/**
 * Text measured and cut in terminal columns, as a terminal draws it (string-width): a wide CJK
 * character or an emoji takes 2 columns, a combining mark 0, a UTF-16 surrogate pair is one
 * character. `String.length` counts none of that.
 */
import stringWidth from 'string-width';

/** What ends a value cut to fit its column. */
export const ELLIPSIS = '…';

const graphemes = new Intl.Segmenter();
const PRINTABLE_ASCII = /^[\u0020-\u007e]*$/;

/** The columns `text` takes on a terminal. */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/** `text` cut to at most `width` columns (at least 1), ending in `…`, with the columns it takes. */
export function clipToWidth(text: string, width: number): { readonly text: string; readonly width: number } {
  const room = Math.max(width, 1) - 1;
  if (PRINTABLE_ASCII.test(text)) return { text: text.slice(0, room) + ELLIPSIS, width: room + 1 };
  let kept = '';
  let used = 0;
  // Whole grapheme clusters only: a base letter keeps its combining marks, an emoji sequence stays whole.
  for (const { segment } of graphemes.segment(text)) {
    const columns = stringWidth(segment);
    if (used + columns > room) break;
    kept += segment;
    used += columns;
  }
  return { text: kept + ELLIPSIS, width: used + 1 };
}
