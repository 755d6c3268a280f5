import { amount, hash, int32, json, logicalTime, rawAddress, text, textList, timestamptz } from '../../src/core/column-kinds.js';
import { defineTable, type RowOf } from '../../src/core/table.js';
import { tableRows } from '../../src/core/stream.js';
import type { StreamCommit } from '../../src/load/sink.js';
import { utcDay } from '../../src/core/utc-day.js';

/** A jetton-transfer-like table: exact big numbers, partitioned by day, clustered by lt. */
export const transfers = defineTable({
  name: 'transfers',
  doc: 'Test transfers.',
  columns: {
    tx_hash: hash.doc('Transaction hash.'),
    lt: logicalTime.doc('Logical time.'),
    utime: timestamptz.doc('Block time.'),
    source: rawAddress.nullable().doc('Sender.'),
    amount: amount.doc('Amount in base units.'),
    comment: text.nullable().doc('Text comment.'),
  },
  primaryKey: ['tx_hash'],
  partitionBy: (row) => utcDay(row.utime),
  clusterBy: 'lt',
});

/** An actions-like table replaced by trace. */
export const actions = defineTable({
  name: 'actions',
  doc: 'Test actions.',
  columns: {
    trace_id: hash.doc('Trace id.'),
    action_id: text.doc('Action id.'),
    trace_end_lt: logicalTime.doc('Trace end lt.'),
    trace_end_utime: timestamptz.doc('Trace end time.'),
    type: text.doc('Action type.'),
    accounts: textList.doc('Accounts involved.'),
    details: json.doc('Type-specific details.'),
    position: int32.doc('Order within the trace.'),
  },
  primaryKey: ['trace_id', 'action_id'],
  partitionBy: (row) => utcDay(row.trace_end_utime),
  replaceBy: 'trace_id',
  clusterBy: 'trace_end_lt',
});

export type TransferRow = RowOf<typeof transfers>;
export type ActionRow = RowOf<typeof actions>;

/** A valid base64 32-byte hash derived from a small number. */
export function hashOf(n: number): string {
  return Buffer.alloc(32, 0).fill(n % 256, 0, 1).fill(Math.floor(n / 256) % 256, 1, 2).toString('base64');
}

export const BIG = 2n ** 120n + 7n;
/** The largest lt a warehouse holds: Parquet stores lt as signed INT64. */
export const MAX_LT = 2n ** 63n - 1n;
/** 2024-01-01T00:00:00Z */
export const DAY1 = 1_704_067_200;

export function transfer(n: number, overrides: Partial<TransferRow> = {}): TransferRow {
  return {
    tx_hash: hashOf(n),
    lt: 1_000_000n + BigInt(n),
    utime: DAY1 + n * 3600,
    source: `0:${n.toString(16).toUpperCase().padStart(64, '0')}`,
    amount: BIG + BigInt(n),
    comment: n % 2 === 0 ? null : `c${n}`,
    ...overrides,
  };
}

export function action(trace: number, id: string, overrides: Partial<ActionRow> = {}): ActionRow {
  return {
    trace_id: hashOf(trace),
    action_id: id,
    trace_end_lt: 5_000_000n + BigInt(trace),
    trace_end_utime: DAY1 + trace * 60,
    type: 'jetton_transfer',
    accounts: ['0:AA', '0:BB'],
    details: JSON.stringify({ amount: '1' }),
    position: 0,
    ...overrides,
  };
}

/** A transfer on the second day, 2024-01-02. */
export function day2(n: number, overrides: Partial<TransferRow> = {}): TransferRow {
  return transfer(n, { utime: DAY1 + 86_400 + n, ...overrides });
}

/** Transfers over two days with the extreme amounts and lt, and two traces of actions (one with no accounts). */
export const firstBatch: StreamCommit = {
  stream: 'transfers',
  rows: new Map([
    tableRows(transfers, [
      transfer(1),
      transfer(2, { lt: MAX_LT, amount: -(10n ** 38n - 1n) }),
      day2(3, { amount: 10n ** 38n - 1n, source: null }),
    ]),
    tableRows(actions, [action(1, 'a'), action(1, 'b', { accounts: [] }), action(2, 'a')]),
  ]),
  checkpoint: '{"lt":"1000003"}',
};
