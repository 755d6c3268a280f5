/**
 * The `nft_items` stream: a snapshot of NFT items as the service lists them (`/api/v3/nft/items`),
 * one row per item with its collection, index, owner and content, upserted by item address. With
 * an owner filter the scope is what those owners hold now: an item sent away leaves it and its row
 * is deleted by the next snapshot (docs/design.md §2).
 */
import { z } from 'zod';
import { snapshotPage } from '../api/v3.js';
import { looseObject } from '../api/wire.js';
import { bool, hash, json, logicalTime, rawAddress, text, timestamptz } from '../core/column-kinds.js';
import { defineSnapshot, tableRows } from '../core/stream.js';
import { defineTable, type RowOf } from '../core/table.js';
import * as filter from '../options/fields.js';
import { address, hashString, lt, nullish, requiredAddress } from '../transform/fields.js';

/** One `/nft/items` item; the embedded `collection` object is not kept (the collection's address is). */
export const nftItemItem = looseObject({
  address: requiredAddress,
  index: z.string().regex(/^\d{1,80}$/, 'expected an item index as a decimal string'),
  collection_address: address,
  owner_address: address,
  init: nullish(bool.wire),
  on_sale: nullish(bool.wire),
  sale_contract_address: nullish(address),
  real_owner: nullish(address),
  content: nullish(json.wire),
  last_transaction_lt: lt,
  code_hash: nullish(hashString),
  data_hash: nullish(hashString),
});

export type NftItemItem = z.output<typeof nftItemItem>;

export const nftItemsTable = defineTable({
  name: 'nft_items',
  doc: 'One row per NFT item as of its snapshot: its collection, index, owner and content; upserted by item address, and deleted once the service no longer lists it in the scope.',
  columns: {
    nft_item: rawAddress.doc('NFT item contract (the key).'),
    collection: rawAddress.nullable().doc('Collection of the item; null for an item outside any collection.'),
    nft_index: text.doc('Index of the item in its collection, as a decimal string (indexes reach 2^256: Telegram usernames\' are hashes).'),
    owner: rawAddress.nullable().doc('Owner of the item (the sale contract while it is on sale; see real_owner).'),
    real_owner: rawAddress.nullable().doc('Owner behind the sale contract while the item is on sale; null otherwise or when the service does not say.'),
    on_sale: bool.nullable().doc('Whether the item is on sale.'),
    sale_contract: rawAddress.nullable().doc('Sale contract holding the item while it is on sale.'),
    init: bool.nullable().doc('Whether the item is initialised.'),
    content: json.nullable().doc('Item content as the service sent it (e.g. {"uri": …}).'),
    last_tx_lt: logicalTime.doc('Logical time of the item\'s last transaction the service had indexed.'),
    code_hash: hash.nullable().doc('Code hash of the item contract.'),
    data_hash: hash.nullable().doc('Data hash of the item contract at its last transaction.'),
    snapshot_time: timestamptz.doc('When the snapshot holding this row was taken.'),
  },
  primaryKey: ['nft_item'],
});

type NftItemRow = RowOf<typeof nftItemsTable>;

export const nftItemsStream = defineSnapshot({
  kind: 'snapshot',
  name: 'nft_items',
  doc: 'NFT items with their collection, index, owner and content, a snapshot upserted by item address.',
  filters: {
    owner_addresses: filter.optionalAddresses('Only the items these owners hold now.'),
    collections: filter.optionalAddresses('Only the items of these collections.'),
  },
  tables: [nftItemsTable],
  endpoint: '/api/v3/nft/items',
  itemsKey: 'nft_items',
  query: (filters, page) => ({ owner_address: filters.owner_addresses, collection_address: filters.collections, ...snapshotPage(page) }),
  metadata: false,
  item: nftItemItem,
  key: (item) => item.address,
  toRows: (item, snapshotTime) => new Map([tableRows(nftItemsTable, [nftItemRow(item, snapshotTime)])]),
});

function nftItemRow(i: NftItemItem, snapshotTime: number): NftItemRow {
  return {
    nft_item: i.address,
    collection: i.collection_address,
    nft_index: i.index,
    owner: i.owner_address,
    real_owner: i.real_owner ?? null,
    on_sale: i.on_sale,
    sale_contract: i.sale_contract_address ?? null,
    init: i.init,
    content: i.content,
    last_tx_lt: i.last_transaction_lt,
    code_hash: i.code_hash,
    data_hash: i.data_hash,
    snapshot_time: snapshotTime,
  };
}
