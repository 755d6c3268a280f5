/**
 * JSON numbers kept exact. `JSON.parse` turns every number into a double, so 9007199254740993
 * arrives as 9007199254740992, 1.0000000000000001 as 1 and 1e400 as Infinity, and nothing downstream
 * can tell. Here a number whose double does not print back as the text the server sent becomes a
 * `JsonNumber` holding that text: every plain `number` of a parsed body is exactly what was sent,
 * and every other number still says what was sent.
 */
import { randomUUID } from 'node:crypto';
import { BACKSLASH, DIGIT_0, DIGIT_9, MINUS, QUOTE } from './char-codes.js';

/** What a `JsonNumber` turns into under a plain `JSON.stringify`, until `exactJson` writes it as its number. */
const STRINGIFY_MARKER = `\u0000number:${randomUUID()}:`;

/** A JSON number whose double would not be exact (beyond 2^53, -0, 1.0, 1e3, 1e400…): its source text. */
export class JsonNumber {
  constructor(readonly source: string) {}

  /** What `JSON.stringify` writes for it outside `exactJson`: a marker `exactJson` turns back into the number. */
  toJSON(): string {
    return `${STRINGIFY_MARKER}${this.source}`;
  }
}

/** Digits from which a plain integer may stop printing back as itself (2^53 has 16). */
const LONG_INTEGER = 16;

/** Parses a response body like `JSON.parse`, with every inexact number as a `JsonNumber`; throws on invalid JSON. */
export function parseJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  const inexact = inexactNumbers(text);
  return inexact.length === 0 ? value : parseMarked(text, inexact);
}

interface Span {
  readonly start: number;
  readonly end: number;
}

/** Where the number tokens outside strings lie whose double does not print back as their text. */
function inexactNumbers(text: string): Span[] {
  const found: Span[] = [];
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      i = closingQuote(text, i);
      continue;
    }
    if (code !== MINUS && (code < DIGIT_0 || code > DIGIT_9)) continue;
    let end = i + 1;
    let plainDigits = true;
    for (; end < length; end++) {
      const next = text.charCodeAt(end);
      if (next >= DIGIT_0 && next <= DIGIT_9) continue;
      // . e E + - continue a number token; anything else ends it.
      if (next === 0x2e || next === 0x65 || next === 0x45 || next === 0x2b || next === MINUS) plainDigits = false;
      else break;
    }
    const negative = code === MINUS;
    const digits = end - i - (negative ? 1 : 0);
    const suspicious = !plainDigits || digits >= LONG_INTEGER || (negative && text.charCodeAt(i + 1) === DIGIT_0);
    if (suspicious) {
      const token = text.slice(i, end);
      if (String(Number(token)) !== token) found.push({ start: i, end });
    }
    i = end - 1;
  }
  return found;
}

/** Index of the quote closing the string that opens at `open` (the body already parsed, so there is one). */
function closingQuote(text: string, open: number): number {
  let at = text.indexOf('"', open + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
}

/** Parses again with each inexact token replaced by a marker string, then the markers by `JsonNumber`s. */
function parseMarked(text: string, inexact: readonly Span[]): unknown {
  const marker = `\u0000number:${randomUUID()}:`;
  const numbers: JsonNumber[] = [];
  let marked = '';
  let from = 0;
  for (const span of inexact) {
    marked += `${text.slice(from, span.start)}${JSON.stringify(`${marker}${numbers.length}`)}`;
    numbers.push(new JsonNumber(text.slice(span.start, span.end)));
    from = span.end;
  }
  marked += text.slice(from);
  return JSON.parse(marked, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(marker) ? numbers[Number(value.slice(marker.length))] : value,
  );
}

/** The text a JSON value held as a number (a `number` prints back as its source), or undefined for any other value. */
export function numberSource(input: unknown): string | undefined {
  if (typeof input === 'number') return String(input);
  return input instanceof JsonNumber ? input.source : undefined;
}

/** How `JSON.stringify` writes the start of a marked number: an opening quote and the escaped marker. */
const MARKED_START = `"${JSON.stringify(STRINGIFY_MARKER).slice(1, -1)}`;

/** `JSON.stringify` that writes each `JsonNumber` as the number text it came as. */
export function exactJson(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  let start = text.indexOf(MARKED_START);
  if (start < 0) return text;
  let exact = '';
  let from = 0;
  while (start >= 0) {
    // The source of a number holds no quote, so the next quote closes the marker string.
    const close = text.indexOf('"', start + MARKED_START.length);
    exact += text.slice(from, start) + text.slice(start + MARKED_START.length, close);
    from = close + 1;
    start = text.indexOf(MARKED_START, from);
  }
  return exact + text.slice(from);
}
