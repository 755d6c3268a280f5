/**
 * The times of what an lt stream's covered ranges hold, as status prints them beside the lts: per
 * range, the earliest and the latest time of the rows of the stream's own table in it, read from
 * the warehouse in one query per stream (no request: it works offline and without a key).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Range } from '../core/coverage.js';
import { quotedIdentifier } from '../core/sql-quote.js';
import type { AnyTable, TableDef } from '../core/table.js';
import type { Columns } from '../core/table.js';
import { actionsTable } from '../streams/actions.js';
import type { StreamName } from '../streams/index.js';
import { jettonBurnsTable } from '../streams/jetton-burns.js';
import { jettonTransfersTable } from '../streams/jetton-transfers.js';
import { nftTransfersTable } from '../streams/nft-transfers.js';
import { tracesTable } from '../streams/traces.js';
import { transactionsTable } from '../streams/transactions.js';

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

function positionTime<C extends Columns>(table: TableDef<C>, position: keyof C & string, time: keyof C & string): PositionTime {
  return { table, position, time };
}

/** Every lt stream's (a test checks that none is missing). */
export const POSITION_TIMES: Readonly<Partial<Record<StreamName, PositionTime>>> = {
  transactions: positionTime(transactionsTable, 'tx_lt', 'tx_time'),
  actions: positionTime(actionsTable, 'trace_end_lt', 'trace_end_time'),
  jetton_transfers: positionTime(jettonTransfersTable, 'tx_lt', 'tx_time'),
  jetton_burns: positionTime(jettonBurnsTable, 'tx_lt', 'tx_time'),
  nft_transfers: positionTime(nftTransfersTable, 'tx_lt', 'tx_time'),
  traces: positionTime(tracesTable, 'end_lt', 'end_time'),
};

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
