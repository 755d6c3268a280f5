/**
 * SQL text split into the tokens `warehouse-writes.ts` reads: words, string literals (their value),
 * and single punctuation characters; comments and space dropped, quoted identifiers kept as words
 * that match no keyword. DuckDB's lexical rules: `'…'` with `''` inside, `E'…'` with backslash
 * escapes, `$tag$…$tag$`, `"…"` with `""`, `--` to the end of the line, `/* … *\/`.
 */

export type SqlToken =
  | { readonly kind: 'word'; readonly upper: string }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'quoted'; readonly name: string }
  | { readonly kind: 'symbol'; readonly text: string };

const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const DOLLAR_TAG = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/;

/** The tokens of `sql`; an unterminated string, identifier or comment ends the text. */
export function sqlTokens(sql: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  let at = 0;
  while (at < sql.length) {
    const char = sql[at]!;
    if (/\s/.test(char)) {
      at += 1;
    } else if (sql.startsWith('--', at)) {
      const end = sql.indexOf('\n', at);
      at = end === -1 ? sql.length : end + 1;
    } else if (sql.startsWith('/*', at)) {
      const end = sql.indexOf('*/', at + 2);
      at = end === -1 ? sql.length : end + 2;
    } else if (char === "'" || ((char === 'E' || char === 'e') && sql[at + 1] === "'")) {
      const escapes = char !== "'";
      const [value, end] = quoted(sql, escapes ? at + 1 : at, "'", escapes);
      tokens.push({ kind: 'string', value });
      at = end;
    } else if (char === '"') {
      const [name, end] = quoted(sql, at, '"', false);
      tokens.push({ kind: 'quoted', name });
      at = end;
    } else if (char === '$' && DOLLAR_TAG.test(sql.slice(at, at + 64))) {
      const tag = DOLLAR_TAG.exec(sql.slice(at, at + 64))![0];
      const end = sql.indexOf(tag, at + tag.length);
      tokens.push({ kind: 'string', value: sql.slice(at + tag.length, end === -1 ? sql.length : end) });
      at = end === -1 ? sql.length : end + tag.length;
    } else if (WORD_START.test(char)) {
      let end = at + 1;
      while (end < sql.length && WORD_PART.test(sql[end]!)) end += 1;
      tokens.push({ kind: 'word', upper: sql.slice(at, end).toUpperCase() });
      at = end;
    } else {
      tokens.push({ kind: 'symbol', text: char });
      at += 1;
    }
  }
  return tokens;
}

/** The value of the quoted text opening at `start` (a doubled quote stands for one), and where it ends. */
function quoted(sql: string, start: number, quote: string, backslashEscapes: boolean): [string, number] {
  let value = '';
  let at = start + 1;
  while (at < sql.length) {
    const char = sql[at]!;
    if (backslashEscapes && char === '\\' && at + 1 < sql.length) {
      value += sql[at + 1];
      at += 2;
    } else if (char === quote && sql[at + 1] === quote) {
      value += quote;
      at += 2;
    } else if (char === quote) {
      return [value, at + 1];
    } else {
      value += char;
      at += 1;
    }
  }
  return [value, at];
}
