/**
 * Text that every reader of both sinks takes back as it was sent. Measured in both sinks (DuckDB, and
 * Parquet read by DuckDB; test/core/exact-values.test.ts): NUL, control characters, non-characters
 * and a BOM are stored and read back byte for byte, so they are kept. A lone surrogate (half of a
 * UTF-16 pair, which JSON's `\ud800` can carry but UTF-8 cannot) is not: VARCHAR silently stores
 * U+FFFD in its place, and a JSON value holding one fails DuckDB's JSON reader, which made a whole
 * Parquet table unreadable. A value holding one, in a string or an object key at any depth, is not
 * storable, and its item is rejected alone.
 */
import { showInput } from './wire-value.js';

/** Whether `text` is well-formed UTF-16 (no lone surrogate): `String.prototype.isWellFormed` (ES2024). */
export function isWellFormedText(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/** `text` with each lone surrogate replaced by U+FFFD: for our own texts that quote what a server sent (a run's error). */
export function wellFormedText(text: string): string {
  return (text as unknown as { toWellFormed(): string }).toWellFormed();
}

/** The first lone surrogate of an ill-formed text, as `U+D800`. */
function loneSurrogate(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++;
      continue;
    }
    return `U+${code.toString(16).toUpperCase()}`;
  }
  return 'none';
}

/** The message for an ill-formed string value. */
export function illFormedText(text: string): string {
  return `expected well-formed text, got ${showInput(text)} (a lone surrogate ${loneSurrogate(text)})`;
}

/**
 * Why a JSON value cannot be stored as sent, as `path: message` (the path as item reasons give it,
 * with keys as they are: only well-formed keys are ever put in it), or undefined when every string
 * and key in it is well-formed.
 */
export function storableProblem(value: unknown): string | undefined {
  const found = illFormedAt(value);
  return found === undefined ? undefined : `${found.path.join('.') || '(item)'}: ${found.message}`;
}

interface IllFormed {
  /** Keys and indexes from the value down to the problem (filled in on the way back up). */
  readonly path: string[];
  readonly message: string;
}

function illFormedAt(value: unknown): IllFormed | undefined {
  if (typeof value === 'string') return isWellFormedText(value) ? undefined : { path: [], message: illFormedText(value) };
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = illFormedAt(value[i]);
      if (found === undefined) continue;
      found.path.unshift(String(i));
      return found;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (!isWellFormedText(key)) {
      return { path: [], message: `expected keys of well-formed text, got the key ${showInput(key)} (a lone surrogate ${loneSurrogate(key)})` };
    }
    const found = illFormedAt((value as Readonly<Record<string, unknown>>)[key]);
    if (found === undefined) continue;
    found.path.unshift(key);
    return found;
  }
  return undefined;
}
