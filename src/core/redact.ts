import { JsonNumber } from './exact-json.js';

/** Stand-in for the API key wherever text from outside (server bodies, library errors) might echo it. */
export const REDACTED = '[redacted]';

/** The shortest piece of a secret that is redacted on its own (a whole shorter secret is too). */
export const MIN_SECRET_PIECE = 6;

/**
 * One escaped character as servers, URLs and JSON write it: percent-encoding (also encoded again,
 * `%2541`), `\uXXXX`, `\xXX` and JSON's `\/` (also escaped again, `\\u…`), HTML character references.
 */
const ESCAPE = /%(?:25)*([0-9a-f]{2})|\\+u([0-9a-f]{4})|\\+x([0-9a-f]{2})|&#x([0-9a-f]{1,6});|&#(\d{1,7});|\\+(\/)/iy;

/** `text` as the characters it stands for (escapes decoded, lower case), each with its span in `text`. */
interface Decoded {
  readonly chars: string;
  /** `starts[i]`..`starts[i + 1]` is the span of `chars[i]` in the text; undefined where each character is its own (no escape). */
  readonly starts?: readonly number[];
}

function decode(text: string): Decoded {
  const lower = text.toLowerCase();
  if (lower.length === text.length && !/[%\\&]/.test(text)) return { chars: lower };
  let chars = '';
  const starts: number[] = [];
  for (let i = 0; i < text.length; ) {
    starts.push(i);
    ESCAPE.lastIndex = i;
    const match = ESCAPE.exec(text);
    if (match === null) {
      chars += oneLower(text[i]!);
      i += 1;
      continue;
    }
    const [whole, percent, unicode, hex, htmlHex, htmlDecimal, slash] = match;
    const code = htmlDecimal === undefined ? Number.parseInt(percent ?? unicode ?? hex ?? htmlHex ?? '', 16) : Number(htmlDecimal);
    chars += oneLower(slash ?? String.fromCodePoint(Math.min(code, 0x10ffff)));
    i += whole.length;
  }
  starts.push(text.length);
  return { chars, starts };
}

/** One UTF-16 unit per decoded character, so positions map back: what lower case would lengthen stays as is, an astral character becomes U+FFFD. */
function oneLower(char: string): string {
  if (char.length !== 1) return '\uFFFD';
  const lower = char.toLowerCase();
  return lower.length === 1 ? lower : char;
}

/**
 * Every piece of the secrets that gets redacted on its own, lower case: each secret's substrings
 * of MIN_SECRET_PIECE characters (any longer piece is made of them), or the whole of a shorter one.
 */
function piecesOf(secrets: readonly string[]): Map<number, Set<string>> {
  const byLength = new Map<number, Set<string>>();
  for (const secret of secrets) {
    const lower = secret.toLowerCase();
    if (lower === '') continue;
    const length = Math.min(MIN_SECRET_PIECE, lower.length);
    const set = byLength.get(length) ?? new Set<string>();
    for (let i = 0; i + length <= lower.length; i++) set.add(lower.slice(i, i + length));
    byLength.set(length, set);
  }
  return byLength;
}

/** Spans of `text` (start, end) that show a piece of a secret, merged where they touch or overlap. */
function secretSpans(text: string, pieces: ReadonlyMap<number, ReadonlySet<string>>): [number, number][] {
  if (pieces.size === 0 || text === '') return [];
  const { chars, starts } = decode(text);
  const covered: [number, number][] = [];
  for (const [length, set] of pieces) {
    for (let i = 0; i + length <= chars.length; i++) if (set.has(chars.slice(i, i + length))) covered.push([i, i + length]);
  }
  covered.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of covered) {
    const last = merged.at(-1);
    if (last !== undefined && from <= last[1]) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return starts === undefined ? merged : merged.map(([from, to]) => [starts[from]!, starts[to]!]);
}

/**
 * Redacts secrets (API keys) from text that leaves the process: each secret and every piece of it
 * of MIN_SECRET_PIECE or more characters, in any letter case, also where escapes (percent-encoding,
 * `\u`, HTML references) spell it.
 */
export class Redactor {
  readonly #secrets = new Set<string>();
  #pieces = new Map<number, Set<string>>();

  constructor(secrets: Iterable<string | undefined> = []) {
    for (const secret of secrets) this.add(secret);
  }

  /** Redacts `secret` from now on; blank and undefined are ignored. */
  add(secret: string | undefined): void {
    if (secret === undefined || secret.trim() === '' || this.#secrets.has(secret)) return;
    this.#secrets.add(secret);
    this.#pieces = piecesOf([...this.#secrets]);
  }

  get empty(): boolean {
    return this.#secrets.size === 0;
  }

  redact(text: string): string {
    const spans = secretSpans(text, this.#pieces);
    if (spans.length === 0) return text;
    let out = '';
    let at = 0;
    for (const [from, to] of spans) {
      out += text.slice(at, from) + REDACTED;
      at = to;
    }
    return out + text.slice(at);
  }

  /** Whether `text` shows a secret or a piece of one. */
  reveals(text: string): boolean {
    return secretSpans(text, this.#pieces).length > 0;
  }

  /** A copy of a JSON-like value (parsed JSON, a reject's raw item) with every string and key redacted. */
  redactValue(value: unknown, depth = 0): unknown {
    if (this.empty) return value;
    if (typeof value === 'string') return this.redact(value);
    // A JSON number kept as its text (digits, sign, point, exponent) holds no piece of a key.
    if (typeof value !== 'object' || value === null || value instanceof JsonNumber || depth > 64) return value;
    if (Array.isArray(value)) return value.map((item) => this.redactValue(item, depth + 1));
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [this.redact(key), this.redactValue(item, depth + 1)]));
  }

  /**
   * Returns `err` itself when no part of it reveals a secret, else a plain copy (name, code,
   * message, stack, cause chain) with the secrets redacted, so that the copy can be kept as `cause`.
   */
  redactError(err: unknown, depth = 0): unknown {
    if (this.empty || !this.#mentions(err, 0)) return err;
    if (!(err instanceof Error) || depth > 8) return this.redact(String(err));
    const copy = new Error(this.redact(err.message), {
      cause: err.cause === undefined ? undefined : this.redactError(err.cause, depth + 1),
    });
    copy.name = err.name;
    copy.stack = this.redact(err.stack ?? '');
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string') Object.assign(copy, { code });
    return copy;
  }

  #mentions(value: unknown, depth: number): boolean {
    if (depth > 8 || value === null || value === undefined) return false;
    if (typeof value === 'string') return this.reveals(value);
    if (!(value instanceof Error)) return this.reveals(safeJson(value));
    return (
      this.reveals(value.message) ||
      this.reveals(value.stack ?? '') ||
      this.reveals(safeJson(value)) ||
      this.#mentions(value.cause, depth + 1)
    );
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? '';
  } catch {
    return String(value);
  }
}
