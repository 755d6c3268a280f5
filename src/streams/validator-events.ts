/**
 * The `validator_events` stream: the elector's stake events (`/api/v3/validators/events`): stakes
 * accepted, rejected and recovered. The endpoint has no lt filter, so the stream pages by utime.
 */
import { z } from 'zod';
import { checkedLimit } from '../api/v3.js';
import { looseObject, nullableString } from '../api/wire.js';
import { amount, date, hash, int32, int64, logicalTime, rawAddress, text, timestamptz, uint64 } from '../core/column-kinds.js';
import { defineStream, tableRows } from '../core/stream.js';
import { defineTable, type RowOf } from '../core/table.js';
import { utcDay } from '../core/utc-day.js';
import * as filter from '../options/fields.js';
import { amountString, hashString, int32Value, int64Value, lt, nullish, requiredAddress, u64, unixSeconds } from '../transform/fields.js';

/** One `/validators/events` item; the optional fields are absent, not null, when empty. */
export const validatorEventItem = looseObject({
  tx_hash: hashString,
  tx_lt: lt,
  utime: unixSeconds,
  type: z.string(),
  stake_holder_address: requiredAddress,
  validator_pubkey: nullableString,
  adnl_addr: nullableString,
  election_id: nullish(int64Value),
  query_id: nullish(u64),
  amount: amountString,
  reason: nullish(int32Value),
});

export type ValidatorEventItem = z.output<typeof validatorEventItem>;

export const validatorEventsTable = defineTable({
  name: 'validator_events',
  doc: 'One row per stake event of the elector: a stake accepted or rejected, or a stake recovered.',
  columns: {
    tx_hash: hash.doc('Elector transaction that produced the event.'),
    type: text.doc('stake_accepted, stake_rejected or stake_recovered (other values kept as sent).'),
    stake_holder: rawAddress.doc('Wallet or pool that staked or recovered.'),
    tx_lt: logicalTime.doc('Logical time of the elector transaction.'),
    tx_time: timestamptz.doc('Time of the elector transaction.'),
    block_date: date.doc('UTC day of tx_time.'),
    validator_pubkey: text.nullable().doc('Validator public key (hex), for stake events.'),
    adnl_addr: text.nullable().doc('Validator ADNL address (hex), for stake events.'),
    election_id: int64.nullable().doc('Election id (the unix time the validation round starts).'),
    query_id: uint64.nullable().doc('Query id of the elector message (u64).'),
    amount: amount.doc('Stake amount, nanoton.'),
    reason: int32.nullable().doc('Elector reason code of a rejected stake.'),
  },
  primaryKey: ['tx_hash', 'type', 'stake_holder'],
  partitionBy: (row) => row.block_date,
  dayOf: 'tx_time',
  clusterBy: 'tx_lt',
});

type ValidatorEventRow = RowOf<typeof validatorEventsTable>;

export const validatorEventsStream = defineStream({
  name: 'validator_events',
  doc: 'Validator stake events of the elector (accepted, rejected, recovered stakes).',
  filters: {
    stake_holder: filter.optionalAddress('Only events of this stake holder (validator wallet or pool).'),
  },
  tables: [validatorEventsTable],
  axis: 'utime',
  endpoint: '/api/v3/validators/events',
  itemsKey: 'events',
  // No lt filter here: the stream pages by utime windows on `tx_now`.
  query: (filters, page) => ({
    start_utime: Number(page.from),
    end_utime: Number(page.to),
    stake_holder_address: filters.stake_holder,
    limit: checkedLimit(page.limit),
    // Builds before 2026-07 (#432) know no offset: send it only inside a crowded second.
    offset: page.offset > 0 ? page.offset : undefined,
    sort: 'asc',
  }),
  metadata: true,
  item: validatorEventItem,
  rescansOverlap: false,
  position: (event) => BigInt(event.utime),
  key: (event) => `${event.tx_hash}|${event.type}|${event.stake_holder_address}`,
  toRows: (event) => new Map([tableRows(validatorEventsTable, [validatorEventRow(event)])]),
});

function validatorEventRow(e: ValidatorEventItem): ValidatorEventRow {
  return {
    tx_hash: e.tx_hash,
    type: e.type,
    stake_holder: e.stake_holder_address,
    tx_lt: e.tx_lt,
    tx_time: e.utime,
    block_date: utcDay(e.utime),
    validator_pubkey: e.validator_pubkey,
    adnl_addr: e.adnl_addr,
    election_id: e.election_id,
    query_id: e.query_id,
    amount: e.amount,
    reason: e.reason,
  };
}
