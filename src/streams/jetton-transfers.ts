/**
 * The `jetton_transfers` stream: jetton transfers as the index records them (`/api/v3/jetton/transfers`,
 * paged by transaction lt), one row per transfer, keyed by the sending wallet's transaction. The
 * endpoint returns only transfers whose transaction was not aborted; a row means the sender's wallet
 * accepted the transfer, not that the receiver was credited (ton-indexer #87).
 */
import { z } from 'zod';
import { ltPage } from '../api/v3.js';
import { looseObject, nullableString } from '../api/wire.js';
import { amount, bool, date, hash, logicalTime, rawAddress, text, timestamptz, uint64 } from '../core/column-kinds.js';
import { defineStream, tableRows } from '../core/stream.js';
import { defineTable, type RowOf } from '../core/table.js';
import { utcDay } from '../core/utc-day.js';
import * as filter from '../options/fields.js';
import { address, amountString, hashString, lt, nullish, u64, unixSeconds } from '../transform/fields.js';
import { textComment } from '../transform/payload.js';

/**
 * One `/jetton/transfers` item. The 2024 format lacked `transaction_aborted`, the decoded payloads and
 * `trace_id`: they are optional. v1.3 sends `""` for a missing address: it becomes null.
 */
export const jettonTransferItem = looseObject({
  query_id: u64,
  source: address,
  destination: address,
  amount: amountString,
  source_wallet: address,
  jetton_master: address,
  transaction_hash: hashString,
  transaction_lt: lt,
  transaction_now: unixSeconds,
  transaction_aborted: nullish(bool.wire),
  response_destination: address,
  custom_payload: nullableString,
  forward_ton_amount: nullish(amountString),
  forward_payload: nullableString,
  decoded_forward_payload: z.unknown().optional(),
  trace_id: nullish(hashString),
});

export type JettonTransferItem = z.output<typeof jettonTransferItem>;

export const jettonTransfersTable = defineTable({
  name: 'jetton_transfers',
  doc: 'One row per jetton transfer, keyed by the transaction of the sending jetton wallet. Amounts are raw jetton units (not scaled by decimals).',
  columns: {
    tx_hash: hash.doc('Transaction of the sending jetton wallet that processed the transfer (the key).'),
    tx_lt: logicalTime.doc('Logical time of that transaction.'),
    tx_time: timestamptz.doc('Block time of that transaction.'),
    block_date: date.doc('UTC day of tx_time.'),
    tx_aborted: bool.nullable().doc('Whether it was aborted (always false: the endpoint skips aborted ones; null in 2024-format responses).'),
    query_id: uint64.doc('Query id the sender chose (u64).'),
    jetton_master: rawAddress.nullable().doc('Jetton master (the token).'),
    source: rawAddress.nullable().doc('Owner of the sending jetton wallet.'),
    destination: rawAddress.nullable().doc('Owner the jettons were sent to.'),
    source_wallet: rawAddress.nullable().doc('Sending jetton wallet.'),
    amount: amount.doc('Amount in raw jetton units (divide by 10^decimals of the jetton for display), exact.'),
    response_destination: rawAddress.nullable().doc('Where the excess TON goes.'),
    forward_ton_amount: amount.nullable().doc('TON forwarded to the destination owner with the notification, nanoton.'),
    forward_payload: text.nullable().doc('Forward payload as a base64 BoC.'),
    comment: text.nullable().doc('Text comment of the forward payload (opcode 0 + text), decoded.'),
    custom_payload: text.nullable().doc('Custom payload as a base64 BoC.'),
    trace_id: hash.nullable().doc('Trace of the transfer.'),
  },
  primaryKey: ['tx_hash'],
  partitionBy: (row) => row.block_date,
  dayOf: 'tx_time',
  clusterBy: 'tx_lt',
});

type JettonTransferRow = RowOf<typeof jettonTransfersTable>;

export const jettonTransfersStream = defineStream({
  name: 'jetton_transfers',
  doc: 'Jetton transfers, keyed by transaction hash (aborted transfers are never listed by the service).',
  filters: {
    jetton_master: filter.optionalAddress('Only transfers of this jetton (its master contract).'),
    owner_addresses: filter.optionalAddresses('Only transfers whose source or destination owner is one of these.'),
  },
  tables: [jettonTransfersTable],
  axis: 'lt',
  endpoint: '/api/v3/jetton/transfers',
  itemsKey: 'jetton_transfers',
  query: (filters, page) => ({ ...ltPage(page), owner_address: filters.owner_addresses, jetton_master: filters.jetton_master }),
  metadata: false,
  item: jettonTransferItem,
  rescansOverlap: false,
  position: (transfer) => transfer.transaction_lt,
  key: (transfer) => transfer.transaction_hash,
  toRows: (transfer) => new Map([tableRows(jettonTransfersTable, [jettonTransferRow(transfer)])]),
});

function jettonTransferRow(t: JettonTransferItem): JettonTransferRow {
  return {
    tx_hash: t.transaction_hash,
    tx_lt: t.transaction_lt,
    tx_time: t.transaction_now,
    block_date: utcDay(t.transaction_now),
    tx_aborted: t.transaction_aborted,
    query_id: t.query_id,
    jetton_master: t.jetton_master,
    source: t.source,
    destination: t.destination,
    source_wallet: t.source_wallet,
    amount: t.amount,
    response_destination: t.response_destination,
    forward_ton_amount: t.forward_ton_amount,
    forward_payload: t.forward_payload,
    comment: textComment({ decoded: t.decoded_forward_payload, boc: t.forward_payload }),
    custom_payload: t.custom_payload,
    trace_id: t.trace_id,
  };
}
