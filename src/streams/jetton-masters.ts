/**
 * The `jetton_masters` stream: a snapshot of the jetton masters the service lists
 * (`/api/v3/jetton/masters`, destroyed ones excluded), one row per master with its token metadata
 * (symbol, name, decimals, image, validity) from the response's `metadata`, upserted by address. The
 * dimension that `jetton_transfers_readable` joins to scale amounts by decimals.
 */
import { z } from 'zod';
import { snapshotPage } from '../api/v3.js';
import { looseObject, metadataEntry } from '../api/wire.js';
import { amount, bool, hash, int32, logicalTime, rawAddress, text, timestamptz } from '../core/column-kinds.js';
import { defineSnapshot, tableRows } from '../core/stream.js';
import { defineTable, type RowOf } from '../core/table.js';
import * as filter from '../options/fields.js';
import { address, amountString, hashString, lt, nullish, requiredAddress } from '../transform/fields.js';

/** Decimals TEP-64 allows (a uint8); the token's own when its content names them. */
const decimalsText = z
  .union([z.string(), z.number()])
  .transform((value) => (/^\d{1,3}$/.test(String(value).trim()) ? Number(String(value).trim()) : null))
  .refine((value) => value === null || value <= 255);

/** One `/jetton/masters` item, with its entry of the response's `metadata` under `metadata`. */
export const jettonMasterItem = looseObject({
  address: requiredAddress,
  total_supply: amountString,
  mintable: nullish(bool.wire),
  admin_address: address,
  jetton_content: looseObject({ decimals: nullish(decimalsText) }).nullish(),
  jetton_wallet_code_hash: nullish(hashString),
  code_hash: nullish(hashString),
  data_hash: nullish(hashString),
  last_transaction_lt: lt,
  metadata: metadataEntry.nullish(),
});

export type JettonMasterItem = z.output<typeof jettonMasterItem>;

export const jettonMastersTable = defineTable({
  name: 'jetton_masters',
  doc: 'One row per jetton master (a token) as of its snapshot, with the token metadata the service indexed; upserted by address, and deleted once the service no longer lists it.',
  columns: {
    jetton_master: rawAddress.doc('Jetton master contract (the token; the key).'),
    symbol: text.nullable().doc('Ticker from the indexed metadata (e.g. USD₮); null when the service has none.'),
    name: text.nullable().doc('Token name from the indexed metadata.'),
    decimals: int32.nullable().doc('Decimals of the token: the indexed metadata\'s, else the on-chain content\'s; null when neither names them (TEP-64 then means 9).'),
    description: text.nullable().doc('Token description from the indexed metadata.'),
    image: text.nullable().doc('Token image URL from the indexed metadata.'),
    metadata_valid: bool.nullable().doc('Whether the service found the token metadata valid; null when it sent none.'),
    is_scam: bool.nullable().doc('Whether the service marks the token as a scam; null when it says nothing.'),
    total_supply: amount.doc('Total supply in raw jetton units, exact.'),
    mintable: bool.nullable().doc('Whether the admin can still mint.'),
    admin: rawAddress.nullable().doc('Admin address; null when the token has none.'),
    jetton_wallet_code_hash: hash.nullable().doc('Code hash of the token\'s jetton wallets.'),
    code_hash: hash.nullable().doc('Code hash of the master contract.'),
    data_hash: hash.nullable().doc('Data hash of the master contract at its last transaction.'),
    last_tx_lt: logicalTime.doc('Logical time of the master\'s last transaction the service had indexed.'),
    snapshot_time: timestamptz.doc('When the snapshot holding this row was taken.'),
  },
  primaryKey: ['jetton_master'],
});

type JettonMasterRow = RowOf<typeof jettonMastersTable>;

export const jettonMastersStream = defineSnapshot({
  kind: 'snapshot',
  name: 'jetton_masters',
  doc: 'Jetton masters with their token metadata (symbol, decimals…), a snapshot upserted by address.',
  filters: {
    addresses: filter.optionalAddresses('Only these jetton masters.'),
    admin_addresses: filter.optionalAddresses('Only the masters administered by one of these.'),
  },
  tables: [jettonMastersTable],
  endpoint: '/api/v3/jetton/masters',
  itemsKey: 'jetton_masters',
  query: (filters, page) => ({ address: filters.addresses, admin_address: filters.admin_addresses, ...snapshotPage(page) }),
  metadata: true,
  withResponse: (raw, response) => {
    if (typeof raw !== 'object' || raw === null) return raw;
    const address = (raw as { address?: unknown }).address;
    const metadata = response.metadata as Record<string, unknown> | undefined;
    return typeof address === 'string' && metadata !== undefined && Object.hasOwn(metadata, address) ? { ...raw, metadata: metadata[address] } : raw;
  },
  item: jettonMasterItem,
  key: (master) => master.address,
  byKey: {
    namedBy: [
      { table: 'jetton_transfers', column: 'jetton_master' },
      { table: 'jetton_burns', column: 'jetton_master' },
    ],
    param: 'address',
    maxKeys: 1024,
  },
  toRows: (master, snapshotTime) => new Map([tableRows(jettonMastersTable, [jettonMasterRow(master, snapshotTime)])]),
});

function jettonMasterRow(m: JettonMasterItem, snapshotTime: number): JettonMasterRow {
  const info = m.metadata?.token_info.find((entry) => entry.type === undefined || entry.type === 'jetton_masters') ?? m.metadata?.token_info[0];
  const indexedDecimals = decimalsText.safeParse(info?.extra?.decimals);
  return {
    jetton_master: m.address,
    symbol: info?.symbol ?? null,
    name: info?.name ?? null,
    decimals: (indexedDecimals.success ? indexedDecimals.data : null) ?? m.jetton_content?.decimals ?? null,
    description: info?.description ?? null,
    image: info?.image ?? null,
    metadata_valid: info?.valid ?? null,
    is_scam: info?.is_scam ?? null,
    total_supply: m.total_supply,
    mintable: m.mintable,
    admin: m.admin_address,
    jetton_wallet_code_hash: m.jetton_wallet_code_hash,
    code_hash: m.code_hash,
    data_hash: m.data_hash,
    last_tx_lt: m.last_transaction_lt,
    snapshot_time: snapshotTime,
  };
}
