import type { DuckDBListType, DuckDBValue } from '@duckdb/node-api';
import { duckdb } from './duckdb-api.js';
import { describeValue, makeKind, type ColumnKind } from './column-kind.js';
import { exactJson, numberSource } from './exact-json.js';
import { isWellFormedText, storableProblem } from './storable.js';
import { isBase64Hash, isRawAddress } from './text-shapes.js';
import { isUtcDay } from './utc-day.js';
import { CANONICAL_INTEGER, refused, type ValueParser } from './wire-value.js';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;
/** DECIMAL(38,0) holds integers with at most 38 digits. */
export const AMOUNT_LIMIT = 10n ** 38n;
/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z in unix seconds. */
const UNIX_MIN = -62_135_596_800;
const UNIX_MAX = 253_402_300_799;
const MICROS_PER_SECOND = 1_000_000n;
const MILLIS_PER_DAY = 86_400_000;
// Made on first use, when DuckDB is loaded (./duckdb-api.ts).
let varcharList: DuckDBListType | undefined;

const INTEGER = 'an integer (JSON number or decimal string; no leading zeros, fraction, exponent or -0)';

/** The canonical decimal text of a wire integer: a string as sent, or a JSON number's source text. */
function integerText(input: unknown): string | undefined {
  const text = typeof input === 'string' ? input : numberSource(input);
  return text !== undefined && CANONICAL_INTEGER.test(text) ? text : undefined;
}

/**
 * Longer integer texts are out of every kind's range (amounts have at most 38 digits): refused
 * before `BigInt`, whose parse time grows with the square of the length (docs/design.md §3).
 */
const MAX_INTEGER_TEXT = 40;

/** Integers arrive as JSON strings (lt, amounts) or as JSON numbers; both are converted from the text sent, so exactly. */
const wireInteger: ValueParser<bigint> = (input) => {
  const text = integerText(input);
  if (text === undefined) return refused(INTEGER, input);
  return text.length > MAX_INTEGER_TEXT ? refused('an integer of at most 38 digits', input) : BigInt(text);
};

/** Small integers and unix seconds: a JSON number or a decimal string, refused beyond 2^53 rather than rounded. */
const wireNumber: ValueParser<number> = (input) => {
  const text = integerText(input);
  if (text === undefined) return refused(INTEGER, input);
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : refused(`${INTEGER} below 2^53`, input);
};

const wireString: ValueParser<string> = (input) => (typeof input === 'string' ? input : refused('a string', input));

function readFailure(kind: string, value: DuckDBValue): Error {
  return new TypeError(`A ${kind} column read back ${describeValue(value)} from DuckDB`);
}

function readString(kind: string) {
  return (value: DuckDBValue): string => {
    if (typeof value !== 'string') throw readFailure(kind, value);
    return value;
  };
}

function readBigint(kind: string) {
  return (value: DuckDBValue): bigint => {
    if (typeof value !== 'bigint') throw readFailure(kind, value);
    return value;
  };
}

/** An integer read back as bigint or as a DECIMAL of scale 0 (how Parquet holds amounts and uint64). */
function readExactInteger(kind: string) {
  return (value: DuckDBValue): bigint => {
    if (value instanceof duckdb().DuckDBDecimalValue && value.scale === 0) return value.value;
    if (typeof value !== 'bigint') throw readFailure(kind, value);
    return value;
  };
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && isWellFormedText(value);
}

/** JSON text that DuckDB's JSON reader takes: it parses, and no string or key in it holds a lone surrogate. */
function isStorableJson(value: unknown): value is string {
  if (!isText(value)) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return false;
  }
  // Only a \u escape can write a lone surrogate into well-formed text.
  return !value.includes('\\u') || storableProblem(parsed) === undefined;
}

/** UTF-8 text. */
export const text: ColumnKind<string> = makeKind({
  kind: 'text',
  sqlType: 'VARCHAR',
  parquetType: 'BYTE_ARRAY (UTF8)',
  kindDoc: 'Text.',
  expected: 'a string of well-formed text (no lone surrogate)',
  is: isText,
  fromWire: wireString,
  append: (a, v) => a.appendVarchar(v),
  read: readString('text'),
});

/** true/false. */
export const bool: ColumnKind<boolean> = makeKind({
  kind: 'bool',
  sqlType: 'BOOLEAN',
  parquetType: 'BOOLEAN',
  kindDoc: 'true or false.',
  expected: 'a boolean',
  is: (v): v is boolean => typeof v === 'boolean',
  fromWire: (input) => (typeof input === 'boolean' ? input : refused('a boolean', input)),
  append: (a, v) => a.appendBoolean(v),
  read: (v) => {
    if (typeof v !== 'boolean') throw readFailure('bool', v);
    return v;
  },
});

/** Small integers (counts, workchain ids, opcodes as signed 32-bit). */
export const int32: ColumnKind<number> = makeKind({
  kind: 'int32',
  sqlType: 'INTEGER',
  parquetType: 'INT32 (INT_32)',
  kindDoc: 'Signed 32-bit integer.',
  expected: `an integer number from ${INT32_MIN} to ${INT32_MAX}`,
  is: (v): v is number => Number.isInteger(v) && (v as number) >= INT32_MIN && (v as number) <= INT32_MAX,
  fromWire: wireNumber,
  append: (a, v) => a.appendInteger(v),
  read: (v) => {
    if (typeof v !== 'number') throw readFailure('int32', v);
    return v;
  },
});

/** Signed 64-bit integers as bigint. */
export const int64: ColumnKind<bigint> = makeKind({
  kind: 'int64',
  sqlType: 'BIGINT',
  parquetType: 'INT64 (INT_64)',
  kindDoc: 'Signed 64-bit integer, exact.',
  expected: 'a bigint from -2^63 to 2^63-1',
  is: (v): v is bigint => typeof v === 'bigint' && v >= INT64_MIN && v <= INT64_MAX,
  fromWire: wireInteger,
  append: (a, v) => a.appendBigInt(v),
  read: readBigint('int64'),
});

/**
 * Logical times (lt) as bigint. UBIGINT in DuckDB, signed INT64 in Parquet (an unsigned type there is
 * read badly or not at all by Spark, Trino/Athena and BigQuery), so an lt must be below 2^63 in every
 * warehouse: a larger one is a reject with this kind's reason, never a wrapped value. Real lt are
 * below 2^47.
 */
export const logicalTime: ColumnKind<bigint> = makeKind({
  kind: 'logicalTime',
  sqlType: 'UBIGINT',
  parquetType: 'INT64 (INT_64)',
  parquetSqlType: 'BIGINT',
  kindDoc: 'Logical time (lt), exact; below 2^63, so that Parquet stores it as a signed 64-bit integer.',
  expected: 'a logical time from 0 to 2^63-1',
  is: (v): v is bigint => typeof v === 'bigint' && v >= 0n && v <= INT64_MAX,
  fromWire: wireInteger,
  append: (a, v) => a.appendUBigInt(v),
  read: readBigint('logicalTime'),
});

/**
 * Unsigned 64-bit integers as bigint (query ids, validator weights): UBIGINT in DuckDB, DECIMAL(20,0)
 * in Parquet, which holds the whole range without an unsigned type.
 */
export const uint64: ColumnKind<bigint> = makeKind({
  kind: 'uint64',
  sqlType: 'UBIGINT',
  parquetType: 'FIXED_LEN_BYTE_ARRAY(16) (DECIMAL(20,0))',
  parquetSqlType: 'DECIMAL(20,0)',
  kindDoc: 'Unsigned 64-bit integer, exact (query ids, validator weights).',
  expected: 'a bigint from 0 to 2^64-1',
  is: (v): v is bigint => typeof v === 'bigint' && v >= 0n && v <= UINT64_MAX,
  fromWire: wireInteger,
  append: (a, v) => a.appendUBigInt(v),
  read: readExactInteger('uint64'),
});

/**
 * Token amounts in base units (nanoton, jetton units) as bigint. DECIMAL(38,0), not HUGEINT:
 * DuckDB writes HUGEINT to Parquet as DOUBLE, while DECIMAL(38,0) stays an exact 16-byte decimal.
 */
export const amount: ColumnKind<bigint> = makeKind({
  kind: 'amount',
  sqlType: 'DECIMAL(38,0)',
  parquetType: 'FIXED_LEN_BYTE_ARRAY(16) (DECIMAL(38,0))',
  kindDoc: 'Exact integer amount in base units (nanoton or jetton units), up to 38 digits.',
  expected: 'a bigint with at most 38 digits (|v| < 10^38)',
  is: (v): v is bigint => typeof v === 'bigint' && v < AMOUNT_LIMIT && v > -AMOUNT_LIMIT,
  fromWire: wireInteger,
  // A HUGEINT appended to a DECIMAL(38,0) column is cast at scale 0 (out-of-range values fail), without
  // the DuckDBValue that appendDecimal builds per value.
  append: (a, v) => a.appendHugeInt(v),
  read: readExactInteger('amount'),
});

/** Instants given as unix seconds (utime, now); stored as TIMESTAMPTZ. */
export const timestamptz: ColumnKind<number> = makeKind({
  kind: 'timestamptz',
  sqlType: 'TIMESTAMPTZ',
  parquetType: 'INT64 (TIMESTAMP_MICROS, UTC)',
  kindDoc: 'Instant in UTC, whole seconds (from unix time).',
  expected: 'integer unix seconds between year 1 and 9999',
  is: (v): v is number => Number.isSafeInteger(v) && (v as number) >= UNIX_MIN && (v as number) <= UNIX_MAX,
  fromWire: wireNumber,
  // A TIMESTAMP appended to a TIMESTAMPTZ column keeps its micros, without the DuckDBValue that
  // appendTimestampTZ builds per value.
  append: (a, v) => a.appendTimestamp(new (duckdb().DuckDBTimestampValue)(BigInt(v) * MICROS_PER_SECOND)),
  read: (v) => {
    if (!(v instanceof duckdb().DuckDBTimestampTZValue)) throw readFailure('timestamptz', v);
    return Number(v.micros / MICROS_PER_SECOND);
  },
});

/**
 * `compute` with its last answer kept: the rows of a page share one or two days, so checking and
 * appending a day computes once per day instead of once per row.
 */
function lastOneKept<I, O>(compute: (input: I) => O): (input: I) => O {
  let last: { readonly input: I; readonly output: O } | undefined;
  return (input) => {
    if (last === undefined || input !== last.input) last = { input, output: compute(input) };
    return last.output;
  };
}

const isDayInRange = lastOneKept((v: unknown) => isUtcDay(v) && v >= '0001-01-01' && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v));
const dateValue = lastOneKept((day: string) => new (duckdb().DuckDBDateValue)(Date.parse(`${day}T00:00:00Z`) / MILLIS_PER_DAY));

/** A UTC calendar day `YYYY-MM-DD` (block_date: the day of a row's main time); stored as DATE. */
export const date: ColumnKind<string> = makeKind({
  kind: 'date',
  sqlType: 'DATE',
  parquetType: 'INT32 (DATE)',
  kindDoc: 'Calendar day in UTC (YYYY-MM-DD), the day of the row\'s main time.',
  expected: 'a day "YYYY-MM-DD" between year 1 and 9999',
  is: (v): v is string => isDayInRange(v),
  fromWire: wireString,
  append: (a, v) => a.appendDate(dateValue(v)),
  read: (v) => {
    if (!(v instanceof duckdb().DuckDBDateValue)) throw readFailure('date', v);
    return v.toString();
  },
});

/** JSON document as its text (e.g. a decoded payload); the value must parse. */
export const json: ColumnKind<string> = makeKind({
  kind: 'json',
  sqlType: 'JSON',
  parquetType: 'BYTE_ARRAY (JSON)',
  kindDoc: "JSON text; query with DuckDB's JSON functions (->, ->>, json_extract).",
  expected: 'a string holding valid JSON without lone surrogates',
  is: isStorableJson,
  // parseItems has refused an item with unstorable text before any field of it is read; `is` checks again at commit.
  fromWire: (input) => exactJson(input),
  append: (a, v) => a.appendVarchar(v),
  read: readString('json'),
});

/** List of strings (e.g. accounts involved in an action). */
export const textList: ColumnKind<readonly string[]> = makeKind({
  kind: 'textList',
  sqlType: 'VARCHAR[]',
  parquetType: 'LIST<BYTE_ARRAY (UTF8)>',
  kindDoc: 'List of text values.',
  expected: 'an array of strings of well-formed text',
  is: (v): v is readonly string[] => Array.isArray(v) && v.every(isText),
  fromWire: (input) => (Array.isArray(input) && input.every((item) => typeof item === 'string') ? (input as string[]) : refused('an array of strings', input)),
  append: (a, v) => a.appendList(duckdb().listValue(v), (varcharList ??= duckdb().LIST(duckdb().VARCHAR))),
  read: (v) => {
    if (!(v instanceof duckdb().DuckDBListValue)) throw readFailure('textList', v);
    return v.items.map(readString('textList item'));
  },
});

/** 32-byte hash in standard base64, as the API sends it (tx hash, trace id, block root hash). */
export const hash: ColumnKind<string> = makeKind({
  kind: 'hash',
  sqlType: 'VARCHAR',
  parquetType: 'BYTE_ARRAY (UTF8)',
  kindDoc: '32-byte hash in standard base64 (44 characters), as the API sends it.',
  expected: 'a 32-byte hash in standard base64 (44 characters ending in "=")',
  is: (v): v is string => typeof v === 'string' && isBase64Hash(v),
  fromWire: wireString,
  append: (a, v) => a.appendVarchar(v),
  read: readString('hash'),
});

/** Address in raw form `wc:HEX`, upper-case hex: the one form joins use. */
export const rawAddress: ColumnKind<string> = makeKind({
  kind: 'rawAddress',
  sqlType: 'VARCHAR',
  parquetType: 'BYTE_ARRAY (UTF8)',
  kindDoc: 'Address in raw form workchain:HEX (64 upper-case hex digits), e.g. 0:83DF…; the join key.',
  expected: 'a raw address "wc:HEX" with 64 upper-case hex digits',
  is: (v): v is string => typeof v === 'string' && isRawAddress(v),
  fromWire: wireString,
  append: (a, v) => a.appendVarchar(v),
  read: readString('rawAddress'),
});

/** Every built-in kind, for the data dictionary's kind legend. */
export const allKinds: readonly ColumnKind<unknown>[] = [
  text,
  bool,
  int32,
  int64,
  logicalTime,
  uint64,
  amount,
  timestamptz,
  date,
  json,
  textList,
  hash,
  rawAddress,
];
