import { quotedIdentifier } from '../core/sql-quote.js';
import type { AnyTable, Row } from '../core/table.js';

/** The smallest and largest value of a table's `clusterBy` column over some rows. */
export interface ClusterRange {
  readonly column: string;
  readonly min: bigint;
  readonly max: bigint;
}

/**
 * The `clusterBy` range of `rows`; undefined without rows or without a `clusterBy` column. Every row
 * sharing a primary key or `replaceBy` value with one of `rows` has its `clusterBy` value in it.
 */
export function clusterRange(table: AnyTable, rows: readonly Row[]): ClusterRange | undefined {
  const column = table.clusterBy;
  if (column === undefined || rows.length === 0) return undefined;
  let min = BigInt(rows[0]![column] as bigint | number);
  let max = min;
  for (const row of rows) {
    const value = BigInt(row[column] as bigint | number);
    if (value < min) min = value;
    else if (value > max) max = value;
  }
  return { column, min, max };
}

/**
 * ` AND alias.column BETWEEN min AND max` for a `clusterBy` range, the bounds typed as the column so
 * that DuckDB skips the row groups whose min/max statistics lie outside it; empty without a range.
 */
export function clusterBetween(table: AnyTable, range: ClusterRange | undefined, alias: string): string {
  if (range === undefined) return '';
  const type = table.columns[range.column]!.sqlType;
  return ` AND ${alias}.${quotedIdentifier(range.column)} BETWEEN CAST(${range.min} AS ${type}) AND CAST(${range.max} AS ${type})`;
}
