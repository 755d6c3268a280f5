import type { DuckDBAppender, DuckDBValue } from '@duckdb/node-api';
import type { z } from 'zod';
import { checkedBy, clipText, nullish, wireValue, type ValueParser } from './wire-value.js';

/**
 * What a column holds, declared once: TS value type, wire parsing, DuckDB type, appender call,
 * Parquet storage and documentation. DDL, row types and the data dictionary derive from it.
 */
export interface ColumnKind<T> {
  /** Kind name as listed in the data dictionary, e.g. `amount`. */
  readonly kind: string;
  /** DuckDB type used in DDL, e.g. `DECIMAL(38,0)`. */
  readonly sqlType: string;
  /** How the column is stored in Parquet (physical type and annotation). */
  readonly parquetType: string;
  /**
   * DuckDB type the column is cast to when written to Parquet, where it differs from `sqlType`:
   * Parquet gets no unsigned type, which several engines read badly or not at all.
   */
  readonly parquetSqlType: string;
  /** What every value of this kind means, for the data dictionary. */
  readonly kindDoc: string;
  /** What this column means; set with `.doc()`. */
  readonly description: string;
  /** Whether `null` is a value of this column. */
  readonly isNullable: boolean;
  /** Zod schema turning the API's JSON form into the value. */
  readonly wire: z.ZodType<T>;
  /** Why `value` is not a value of this kind (expected … got …), or undefined when it is one. */
  problem(value: unknown): string | undefined;
  /** Appends a value that passed `problem`. */
  append(appender: DuckDBAppender, value: T): void;
  /** Converts a value read back from DuckDB (or from Parquet through DuckDB). */
  read(value: DuckDBValue): T;
  /** The same kind with a column description. */
  doc(description: string): ColumnKind<T>;
  /** The same kind, also accepting `null`. */
  nullable(): ColumnKind<T | null>;
}

/** Any column kind, whatever its value type. */
export type AnyKind = ColumnKind<unknown>;

/** The TS value type of a kind. */
export type ValueOf<K> = K extends ColumnKind<infer T> ? T : never;

/** The parts of a kind that its constructor supplies. */
export interface KindSpec<T> {
  readonly kind: string;
  readonly sqlType: string;
  readonly parquetType: string;
  /** @default sqlType */
  readonly parquetSqlType?: string;
  readonly kindDoc: string;
  /** Names what was expected, for messages: "an amount (integer, |v| < 10^38)". */
  readonly expected: string;
  /** Whether `value` is a value of this kind. */
  is(value: unknown): value is T;
  /** The API's JSON form → a value (which `is` then checks). */
  readonly fromWire: ValueParser<T>;
  append(appender: DuckDBAppender, value: T): void;
  read(value: DuckDBValue): T;
}

/** Builds a non-nullable kind from its spec. */
export function makeKind<T>(spec: KindSpec<T>, description = ''): ColumnKind<T> {
  const problem = (value: unknown): string | undefined =>
    spec.is(value) ? undefined : `expected ${spec.expected}, got ${describeValue(value)}`;
  return {
    kind: spec.kind,
    sqlType: spec.sqlType,
    parquetType: spec.parquetType,
    parquetSqlType: spec.parquetSqlType ?? spec.sqlType,
    kindDoc: spec.kindDoc,
    description,
    isNullable: false,
    wire: wireValue(checkedBy(spec.fromWire, problem)),
    problem,
    append: spec.append,
    read: spec.read,
    doc: (text) => makeKind(spec, text),
    nullable: () => makeNullable(makeKind(spec, description)),
  };
}

function makeNullable<T>(inner: ColumnKind<T>): ColumnKind<T | null> {
  const kind: ColumnKind<T | null> = {
    ...inner,
    isNullable: true,
    wire: nullish(inner.wire),
    problem: (value) => {
      if (value === null) return undefined;
      const found = inner.problem(value);
      return found === undefined ? undefined : `${found} (or null)`;
    },
    append: (appender, value) => (value === null ? appender.appendNull() : inner.append(appender, value)),
    read: (value) => (value === null ? null : inner.read(value)),
    doc: (text) => makeNullable(inner.doc(text)),
    nullable: () => kind,
  };
  return kind;
}

/** A short, unambiguous rendering of any value for error messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (typeof value === 'string') return clipText(JSON.stringify(value));
  if (Array.isArray(value)) return `array(${value.length}) ${clipText(safeJson(value))}`;
  return `${typeof value} ${clipText(safeJson(value))}`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? String(value);
  } catch {
    return String(value);
  }
}

