/**
 * The times of what an lt stream's covered ranges hold, as status prints them beside the lts: per
 * range, the earliest and the latest time of the rows of the stream's own table in it, read from
 * the warehouse in one query per stream (no request: it works offline and without a key).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Range } from '../core/checkpoint/coverage.js';
import { quotedIdentifier } from '../core/sql-quote.js';
import type { StreamDefinition } from '../core/stream.js';
import type { AnyTable } from '../core/table.js';

/** The earliest and latest row time of a range, unix seconds. */
export interface RowTimes {
  readonly first: number;
  readonly last: number;
}

/** Where an lt stream's rows keep their position and its time. */
export interface PositionTime {
  readonly table: AnyTable;
  readonly position: string;
  readonly time: string;
}

/** An lt stream's: its own table's position (what the table clusters by) and the time its `block_date` is the day of; none for a utime stream. */
export function positionTime(stream: StreamDefinition): PositionTime | undefined {
  const [table] = stream.tables;
  if (stream.axis !== 'lt' || table?.clusterBy === undefined || table.dayOf === undefined) return undefined;
  return { table, position: table.clusterBy, time: table.dayOf };
}

/** Per range of `ranges`, in order, its rows' times; undefined for a range that holds no row. */
export async function rowTimes(connection: DuckDBConnection, where: PositionTime, ranges: readonly Range[]): Promise<(RowTimes | undefined)[]> {
  if (ranges.length === 0) return [];
  const type = where.table.columns[where.position]!.sqlType;
  // The bounds are bigints of the checkpoint row: digits only.
  const values = ranges.map((range, index) => `(${index}, CAST('${range.from}' AS ${type}), CAST('${range.to}' AS ${type}))`).join(', ');
  const [position, time] = [quotedIdentifier(where.position), quotedIdentifier(where.time)];
  const sql =
    `SELECT r.i, epoch(min(t.${time})), epoch(max(t.${time})) FROM (VALUES ${values}) AS r(i, lo, hi) ` +
    `JOIN ${quotedIdentifier(where.table.name)} AS t ON t.${position} BETWEEN r.lo AND r.hi GROUP BY r.i`;
  const times: (RowTimes | undefined)[] = ranges.map(() => undefined);
  for (const [index, first, last] of (await connection.runAndReadAll(sql)).getRows()) {
    times[Number(index)] = { first: Math.floor(Number(first)), last: Math.floor(Number(last)) };
  }
  return times;
}
