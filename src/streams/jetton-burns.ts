/**
 * The `jetton_burns` stream: jetton burns as the index records them (`/api/v3/jetton/burns`, paged by
 * transaction lt), one row per burn, keyed by the burning wallet's transaction. Unlike transfers, the
 * endpoint lists aborted burns too (`tx_aborted`): a burn that aborted took nothing out of the supply.
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

/** One `/jetton/burns` item. v1.3 sends `""` for a missing address: it becomes null. */
export const jettonBurnItem = looseObject({
  query_id: u64,
  owner: address,
  jetton_wallet: address,
  jetton_master: address,
  transaction_hash: hashString,
  transaction_lt: lt,
  transaction_now: unixSeconds,
  transaction_aborted: nullish(bool.wire),
  amount: amountString,
  response_destination: address,
  custom_payload: nullableString,
  trace_id: nullish(hashString),
});

export type JettonBurnItem = z.output<typeof jettonBurnItem>;

export const jettonBurnsTable = defineTable({
  name: 'jetton_burns',
  doc: 'One row per jetton burn, keyed by the transaction of the burning jetton wallet, aborted burns included. Amounts are raw jetton units (not scaled by decimals).',
  columns: {
    tx_hash: hash.doc('Transaction of the jetton wallet that processed the burn (the key).'),
    tx_lt: logicalTime.doc('Logical time of that transaction.'),
    tx_time: timestamptz.doc('Block time of that transaction.'),
    block_date: date.doc('UTC day of tx_time.'),
    tx_aborted: bool.nullable().doc('Whether that transaction aborted: then nothing was burnt.'),
    query_id: uint64.doc('Query id the owner chose (u64).'),
    jetton_master: rawAddress.nullable().doc('Jetton master (the token).'),
    owner: rawAddress.nullable().doc('Owner of the burning jetton wallet.'),
    jetton_wallet: rawAddress.nullable().doc('Jetton wallet the jettons were burnt from.'),
    amount: amount.doc('Amount burnt in raw jetton units (divide by 10^decimals of the jetton for display), exact.'),
    response_destination: rawAddress.nullable().doc('Where the excess TON goes.'),
    custom_payload: text.nullable().doc('Custom payload as a base64 BoC.'),
    trace_id: hash.nullable().doc('Trace of the burn.'),
  },
  primaryKey: ['tx_hash'],
  partitionBy: (row) => row.block_date,
  dayOf: 'tx_time',
  clusterBy: 'tx_lt',
});

type JettonBurnRow = RowOf<typeof jettonBurnsTable>;

export const jettonBurnsStream = defineStream({
  name: 'jetton_burns',
  doc: 'Jetton burns, keyed by transaction hash (aborted burns included).',
  filters: {
    jetton_master: filter.optionalAddress('Only burns of this jetton (its master contract).'),
    owner_addresses: filter.optionalAddresses('Only burns from jetton wallets of these owners.'),
  },
  tables: [jettonBurnsTable],
  axis: 'lt',
  endpoint: '/api/v3/jetton/burns',
  itemsKey: 'jetton_burns',
  query: (filters, page) => ({ ...ltPage(page), owner_address: filters.owner_addresses, jetton_master: filters.jetton_master }),
  metadata: false,
  item: jettonBurnItem,
  rescansOverlap: false,
  position: (burn) => burn.transaction_lt,
  key: (burn) => burn.transaction_hash,
  toRows: (burn) => new Map([tableRows(jettonBurnsTable, [jettonBurnRow(burn)])]),
});

function jettonBurnRow(b: JettonBurnItem): JettonBurnRow {
  return {
    tx_hash: b.transaction_hash,
    tx_lt: b.transaction_lt,
    tx_time: b.transaction_now,
    block_date: utcDay(b.transaction_now),
    tx_aborted: b.transaction_aborted,
    query_id: b.query_id,
    jetton_master: b.jetton_master,
    owner: b.owner,
    jetton_wallet: b.jetton_wallet,
    amount: b.amount,
    response_destination: b.response_destination,
    custom_payload: b.custom_payload,
    trace_id: b.trace_id,
  };
}
