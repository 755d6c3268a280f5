/**
 * `query` and `sql` open the warehouse read-only, but DuckDB still writes files wherever a
 * statement names: `COPY … TO`, `EXPORT DATABASE`, `ATTACH`. One aimed into the warehouse (its
 * manifest, a table folder, the `.duckdb` file or its WAL) would leave a warehouse every command
 * refuses, so such a statement is refused before anything runs; one aimed elsewhere runs. DuckDB's
 * `enable_external_access = false` cannot say this: it would also stop the Parquet views' reads.
 */
import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { ConfigError } from '../core/errors.js';
import type { SinkKind } from '../config/index.js';
import { sqlTokens, type SqlToken } from './sql-tokens.js';

/** A file a statement writes (or opens for writing), as the statement names it; undefined: the statement does not say in plain text. */
export interface FileWrite {
  readonly statement: 'COPY … TO' | 'EXPORT DATABASE' | 'ATTACH';
  readonly target: string | undefined;
}

/** Refuses `sql` (exit 2) when one of its statements writes into the warehouse at `path`, or writes where it does not say. */
export function refuseWarehouseWrites(sql: string, kind: SinkKind, path: string, command: string): void {
  for (const write of fileWrites(sql)) {
    if (write.target === undefined) {
      throw new ConfigError(`${command} cannot tell where this ${write.statement} writes: give its file as a quoted path outside the warehouse`);
    }
    if (isInsideWarehouse(write.target, kind, path)) {
      throw new ConfigError(
        `${command} writes nothing into the warehouse: ${write.statement} '${write.target}' lies inside ${path}, which only sync, backfill, repair and compact change; ` +
          'write it outside (or print the result: --format csv > file)',
      );
    }
  }
}

/** The files the statements of `sql` write, in order. */
export function fileWrites(sql: string): FileWrite[] {
  const writes: FileWrite[] = [];
  for (const statement of statementsOf(sqlTokens(sql))) {
    const body = withoutPreamble(statement);
    const verb = wordAt(body, 0);
    if (verb === 'COPY') {
      const write = copyTarget(body);
      if (write !== null) writes.push({ statement: 'COPY … TO', target: write });
    } else if (verb === 'EXPORT') {
      writes.push({ statement: 'EXPORT DATABASE', target: firstString(body, 1) });
    } else if (verb === 'ATTACH') {
      let at = 1;
      while (['DATABASE', 'IF', 'NOT', 'EXISTS'].includes(wordAt(body, at) ?? '')) at += 1;
      const token = body[at];
      writes.push({ statement: 'ATTACH', target: token?.kind === 'string' ? token.value : undefined });
    }
  }
  return writes;
}

/** The tokens of each statement: split at `;` outside parentheses. */
function statementsOf(tokens: readonly SqlToken[]): SqlToken[][] {
  const statements: SqlToken[][] = [[]];
  let depth = 0;
  for (const token of tokens) {
    if (token.kind === 'symbol' && token.text === '(') depth += 1;
    if (token.kind === 'symbol' && token.text === ')') depth = Math.max(0, depth - 1);
    if (token.kind === 'symbol' && token.text === ';' && depth === 0) statements.push([]);
    else statements.at(-1)!.push(token);
  }
  return statements.filter((statement) => statement.length > 0);
}

/** The statement without what runs it another way: `EXPLAIN [ANALYZE]`, `PREPARE name AS`. */
function withoutPreamble(statement: readonly SqlToken[]): readonly SqlToken[] {
  let at = 0;
  for (;;) {
    const word = wordAt(statement, at);
    if (word === 'EXPLAIN' || word === 'ANALYZE') at += 1;
    else if (word === 'PREPARE' && wordAt(statement, at + 2) === 'AS') at += 3;
    else return statement.slice(at);
  }
}

/** `COPY`'s target: the string after its `TO` (undefined when something else follows); null for `COPY … FROM`. */
function copyTarget(statement: readonly SqlToken[]): string | undefined | null {
  let depth = 0;
  for (let at = 1; at < statement.length; at += 1) {
    const token = statement[at]!;
    if (token.kind === 'symbol' && token.text === '(') depth += 1;
    else if (token.kind === 'symbol' && token.text === ')') depth -= 1;
    else if (depth === 0 && token.kind === 'word' && token.upper === 'FROM') return null;
    else if (depth === 0 && token.kind === 'word' && token.upper === 'TO') {
      const next = statement[at + 1];
      return next?.kind === 'string' ? next.value : undefined;
    }
  }
  return null;
}

function firstString(statement: readonly SqlToken[], from: number): string | undefined {
  for (let at = from; at < statement.length; at += 1) {
    const token = statement[at]!;
    if (token.kind === 'string') return token.value;
    if (token.kind === 'symbol' && token.text === '(') return undefined;
  }
  return undefined;
}

function wordAt(tokens: readonly SqlToken[], at: number): string | undefined {
  const token = tokens[at];
  return token?.kind === 'word' ? token.upper : undefined;
}

/**
 * Whether `target` (as DuckDB reads it: relative to the working folder, `~` for home) is the
 * warehouse or inside it, symbolic links followed: a Parquet folder and anything under it; a DuckDB
 * file, its WAL and the files chain-etl keeps beside it (`<file>.…`). URLs (`s3://…`) are elsewhere.
 */
export function isInsideWarehouse(target: string, kind: SinkKind, path: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target) && !target.startsWith('file://')) return false;
  const plain = target.replace(/^file:\/\//, '');
  const absolute = realOf(resolve(plain === '~' || plain.startsWith('~/') ? join(homedir(), plain.slice(1)) : plain));
  const root = realOf(resolve(path));
  if (absolute === root) return true;
  return kind === 'parquet' ? absolute.startsWith(root.endsWith(sep) ? root : root + sep) : absolute.startsWith(`${root}.`);
}

/** The real path of `path`: that of its nearest existing folder, with the rest of the path as written. */
function realOf(path: string): string {
  if (existsSync(path)) return realpathSync(path);
  const parent = dirname(path);
  return parent === path ? path : join(realOf(parent), basename(path));
}
