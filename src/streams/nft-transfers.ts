/**
 * The `nft_transfers` stream: NFT ownership transfers as the index records them (`/api/v3/nft/transfers`,
 * paged by transaction lt), one row per transfer, keyed by the NFT item's transaction. The endpoint
 * lists aborted transfers too (`tx_aborted`): an aborted transfer left the item with its old owner.
 */
import { z } from 'zod';
import { ltPage } from '../api/v3.js';
import { looseObject, nullableString } from '../api/wire.js';
import { amount, bool, date, hash, logicalTime, rawAddress, text, timestamptz, uint64 } from '../core/column-kinds.js';
import { defineStream, tableRows } from '../core/stream.js';
import { defineTable, type RowOf } from '../core/table.js';
import { utcDay } from '../core/utc-day.js';
import * as filter from '../options/fields.js';
import { address, amountString, hashString, lt, nullish, requiredAddress, u64, unixSeconds } from '../transform/fields.js';
import { textComment } from '../transform/payload.js';

/** One `/nft/transfers` item. v1.3 sends `""` for a missing address: it becomes null. */
export const nftTransferItem = looseObject({
  query_id: u64,
  nft_address: requiredAddress,
  nft_collection: address,
  transaction_hash: hashString,
  transaction_lt: lt,
  transaction_now: unixSeconds,
  transaction_aborted: nullish(bool.wire),
  old_owner: address,
  new_owner: address,
  response_destination: address,
  custom_payload: nullableString,
  forward_amount: nullish(amountString),
  forward_payload: nullableString,
  decoded_forward_payload: z.unknown().optional(),
  trace_id: nullish(hashString),
});

export type NftTransferItem = z.output<typeof nftTransferItem>;

export const nftTransfersTable = defineTable({
  name: 'nft_transfers',
  doc: 'One row per NFT transfer, keyed by the transaction of the NFT item that processed it, aborted transfers included.',
  columns: {
    tx_hash: hash.doc('Transaction of the NFT item that processed the transfer (the key).'),
    tx_lt: logicalTime.doc('Logical time of that transaction.'),
    tx_time: timestamptz.doc('Block time of that transaction.'),
    block_date: date.doc('UTC day of tx_time.'),
    tx_aborted: bool.nullable().doc('Whether that transaction aborted: then the owner did not change.'),
    query_id: uint64.doc('Query id the old owner chose (u64).'),
    nft_item: rawAddress.doc('NFT item transferred.'),
    collection: rawAddress.nullable().doc('Collection of the item (null for an item outside any collection).'),
    old_owner: rawAddress.nullable().doc('Owner before the transfer (who sent it).'),
    new_owner: rawAddress.nullable().doc('Owner after the transfer.'),
    response_destination: rawAddress.nullable().doc('Where the excess TON goes.'),
    forward_amount: amount.nullable().doc('TON forwarded to the new owner with the ownership notification, nanoton.'),
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

type NftTransferRow = RowOf<typeof nftTransfersTable>;

export const nftTransfersStream = defineStream({
  name: 'nft_transfers',
  doc: 'NFT transfers, keyed by transaction hash (aborted transfers included).',
  filters: {
    collection: filter.optionalAddress('Only transfers of items of this NFT collection.'),
    item_addresses: filter.optionalAddresses('Only transfers of these NFT items.'),
    owner_addresses: filter.optionalAddresses('Only transfers whose old or new owner is one of these.'),
  },
  tables: [nftTransfersTable],
  axis: 'lt',
  endpoint: '/api/v3/nft/transfers',
  itemsKey: 'nft_transfers',
  query: (filters, page) => ({
    ...ltPage(page),
    owner_address: filters.owner_addresses,
    item_address: filters.item_addresses,
    collection_address: filters.collection,
  }),
  metadata: false,
  item: nftTransferItem,
  rescansOverlap: false,
  position: (transfer) => transfer.transaction_lt,
  key: (transfer) => transfer.transaction_hash,
  toRows: (transfer) => new Map([tableRows(nftTransfersTable, [nftTransferRow(transfer)])]),
});

function nftTransferRow(t: NftTransferItem): NftTransferRow {
  return {
    tx_hash: t.transaction_hash,
    tx_lt: t.transaction_lt,
    tx_time: t.transaction_now,
    block_date: utcDay(t.transaction_now),
    tx_aborted: t.transaction_aborted,
    query_id: t.query_id,
    nft_item: t.nft_address,
    collection: t.nft_collection,
    old_owner: t.old_owner,
    new_owner: t.new_owner,
    response_destination: t.response_destination,
    forward_amount: t.forward_amount,
    forward_payload: t.forward_payload,
    comment: textComment({ decoded: t.decoded_forward_payload, boc: t.forward_payload }),
    custom_payload: t.custom_payload,
    trace_id: t.trace_id,
  };
}
