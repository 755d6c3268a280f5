import {
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBTimestampTZValue,
  listValue,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { AnyKind } from '../src/core/column-kind.js';
import { FatalError } from '../src/core/errors.js';

const MICROS_PER_SECOND = 1_000_000n;
const MILLIS_PER_DAY = 86_400_000;

/** A row value of one kind → the item a DuckDB vector of the kind's SQL type takes. */
type VectorItem = (value: never) => DuckDBValue;

const same = (value: never): DuckDBValue => value;

/**
 * How each kind's row value becomes a DuckDB vector item, by kind name (bench/commit-paths.ts's data
 * chunk variant). Vectors store what they are given without DuckDB's casts, so only values their
 * kind's `problem` accepted may reach them: an amount of 39 digits would be stored as a wrong
 * DECIMAL(38,0) instead of failing.
 */
const VECTOR_ITEMS: Readonly<Record<string, VectorItem>> = {
  text: same,
  bool: same,
  int32: same,
  int64: same,
  uint64: same,
  logicalTime: same,
  amount: (value: bigint) => new DuckDBDecimalValue(value, 38, 0),
  timestamptz: (value: number) => new DuckDBTimestampTZValue(BigInt(value) * MICROS_PER_SECOND),
  date: (value: string) => new DuckDBDateValue(Date.parse(`${value}T00:00:00Z`) / MILLIS_PER_DAY),
  json: same,
  textList: (value: readonly string[]) => listValue(value as string[]),
  hash: same,
  rawAddress: same,
};

/** The vector item of `kind`'s values, null for a nullable kind's null. */
export function vectorItemOf(kind: AnyKind): (value: unknown) => DuckDBValue {
  const item = VECTOR_ITEMS[kind.kind] as ((value: unknown) => DuckDBValue) | undefined;
  if (item === undefined) throw new FatalError(`Column kind ${kind.kind} has no DuckDB vector item (bench/vector-items.ts)`);
  if (!kind.isNullable) return item;
  return (value) => (value === null ? null : item(value));
}
