/**
 * The `nft_collections` stream: a snapshot of NFT collections as the service lists them
 * (`/api/v3/nft/collections`), one row per collection with its owner, next item index and content,
 * upserted by collection address. The dimension `nft_items` and `nft_transfers` join to by
 * `collection` (docs/design.md §2).
 */
import type { z } from 'zod';
import { snapshotPage } from '../api/v3.js';
import { looseObject } from '../api/wire.js';
import { amount, hash, json, logicalTime, rawAddress, timestamptz } from '../core/column-kinds.js';
import { defineSnapshot, tableRows } from '../core/stream.js';
import { defineTable, type RowOf } from '../core/table.js';
import * as filter from '../options/fields.js';
import { address, hashString, lt, nullish, requiredAddress } from '../transform/fields.js';

/** One `/nft/collections` item. */
export const nftCollectionItem = looseObject({
  address: requiredAddress,
  owner_address: address,
  next_item_index: nullish(amount.wire),
  collection_content: nullish(json.wire),
  last_transaction_lt: lt,
  code_hash: nullish(hashString),
  data_hash: nullish(hashString),
});

export type NftCollectionItem = z.output<typeof nftCollectionItem>;

export const nftCollectionsTable = defineTable({
  name: 'nft_collections',
  doc: 'One row per NFT collection as of its snapshot: its owner, next item index and content; upserted by collection address, and deleted once the service no longer lists it in the scope.',
  columns: {
    collection: rawAddress.doc('NFT collection contract (the key; `collection` in nft_items and nft_transfers).'),
    owner: rawAddress.nullable().doc('Owner of the collection; null when it has none.'),
    next_item_index: amount.nullable().doc('Index the collection gives its next item (the count of items minted in order); -1 for a collection whose items are not numbered in order (TON DNS, Telegram usernames).'),
    content: json.nullable().doc('Collection content as the service sent it (e.g. {"uri": …}).'),
    last_tx_lt: logicalTime.doc('Logical time of the collection\'s last transaction the service had indexed.'),
    code_hash: hash.nullable().doc('Code hash of the collection contract.'),
    data_hash: hash.nullable().doc('Data hash of the collection contract at its last transaction.'),
    snapshot_time: timestamptz.doc('When the snapshot holding this row was taken.'),
  },
  primaryKey: ['collection'],
});

type NftCollectionRow = RowOf<typeof nftCollectionsTable>;

export const nftCollectionsStream = defineSnapshot({
  kind: 'snapshot',
  name: 'nft_collections',
  doc: 'NFT collections with their owner, next item index and content, a snapshot upserted by collection address.',
  filters: {
    addresses: filter.optionalAddresses('Only these collections.'),
    owner_addresses: filter.optionalAddresses('Only the collections these owners hold.'),
  },
  tables: [nftCollectionsTable],
  endpoint: '/api/v3/nft/collections',
  itemsKey: 'nft_collections',
  query: (filters, page) => ({ collection_address: filters.addresses, owner_address: filters.owner_addresses, ...snapshotPage(page) }),
  metadata: false,
  item: nftCollectionItem,
  key: (collection) => collection.address,
  toRows: (collection, snapshotTime) => new Map([tableRows(nftCollectionsTable, [nftCollectionRow(collection, snapshotTime)])]),
});

function nftCollectionRow(c: NftCollectionItem, snapshotTime: number): NftCollectionRow {
  return {
    collection: c.address,
    owner: c.owner_address,
    next_item_index: c.next_item_index,
    content: c.collection_content,
    last_tx_lt: c.last_transaction_lt,
    code_hash: c.code_hash,
    data_hash: c.data_hash,
    snapshot_time: snapshotTime,
  };
}
