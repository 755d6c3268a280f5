/**
 * Schema version 1 → 2: the first six tables renamed to the naming convention (docs/design.md §9,
 * where the same old → new table is written for readers; values unchanged, `block_date` new,
 * `transactions.now_unix` gone), and `_etl_runs` with the settled tip each run read up to (null for
 * the runs of version 1). A warehouse of version 1 goes to this build's layout in one step (see
 * schema-migrations.ts), so `_etl_runs` also gets the columns of later versions here. Both sinks
 * migrate through `selectFromEarlier`.
 */
import { quotedIdentifier } from '../core/sql-quote.js';
import { etlRuns } from '../core/bookkeeping.js';
import type { AnyTable } from '../core/table.js';
import { actionAccountsTable, actionsTable } from '../streams/actions.js';
import { jettonTransfersTable } from '../streams/jetton-transfers.js';
import { messagesTable, transactionsTable } from '../streams/transactions.js';
import { validatorEventsTable } from '../streams/validator-events.js';

/** A table as this build defines it, and where its columns come from in an earlier version. */
export interface ChangedTable {
  readonly table: AnyTable;
  /** New column → its earlier name; columns not listed kept their name. @default {} */
  readonly renamed?: Readonly<Record<string, string>>;
  /** Earlier time column whose UTC day becomes `block_date`. @default no block_date */
  readonly dayOf?: string;
  /** Columns the earlier version did not have: null in its rows. @default [] */
  readonly added?: readonly string[];
  /** Only its Parquet types changed: a DuckDB warehouse keeps the table as it is. @default false */
  readonly parquetOnly?: boolean;
}

/** Every table whose layout changed since version 1, in the order they are migrated. */
export const changedSinceVersion1: readonly ChangedTable[] = [
  {
    table: transactionsTable,
    renamed: { tx_hash: 'hash', tx_hash_hex: 'hash_hex', tx_lt: 'lt', tx_time: 'now', prev_tx_hash: 'prev_trans_hash', prev_tx_lt: 'prev_trans_lt' },
    dayOf: 'now',
  },
  { table: messagesTable, renamed: { tx_time: 'tx_now', created_time: 'created_at' }, dayOf: 'tx_now' },
  { table: actionsTable, renamed: { start_time: 'start_utime', end_time: 'end_utime', trace_end_time: 'trace_end_utime' }, dayOf: 'trace_end_utime' },
  { table: actionAccountsTable, renamed: { trace_end_time: 'trace_end_utime' }, dayOf: 'trace_end_utime' },
  {
    table: jettonTransfersTable,
    renamed: { tx_hash: 'transaction_hash', tx_lt: 'transaction_lt', tx_time: 'transaction_now', tx_aborted: 'transaction_aborted' },
    dayOf: 'transaction_now',
  },
  { table: validatorEventsTable, renamed: { tx_time: 'utime', stake_holder: 'stake_holder_address' }, dayOf: 'utime' },
  { table: etlRuns, added: ['tip_seqno', 'tip_time', 'rows_replaced'] },
];

/**
 * The select list turning an earlier version's row of `changed.table` into this build's columns, in
 * definition order, each cast to its column's SQL type (what a fresh commit stages).
 */
export function selectFromEarlier({ table, renamed = {}, dayOf, added = [] }: ChangedTable): string {
  const sourceOf = (name: string): string => {
    if (added.includes(name)) return 'NULL';
    if (name === 'block_date' && dayOf !== undefined) return `timezone('UTC', ${quotedIdentifier(dayOf)})`;
    return quotedIdentifier(renamed[name] ?? name);
  };
  return table.columnNames.map((name) => `CAST(${sourceOf(name)} AS ${table.columns[name]!.sqlType}) AS ${quotedIdentifier(name)}`).join(', ');
}
