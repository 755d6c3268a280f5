/**
 * The `jetton_wallets` stream: a snapshot of current jetton balances (`/api/v3/jetton/wallets`,
 * destroyed wallets excluded, wallets at zero kept as the service lists them), one row per jetton
 * wallet with its owner and jetton, upserted by wallet address. Filters keep the scope small: a
 * full refresh reads every wallet the service lists (docs/design.md §2; README "Snapshot streams").
 */
import type { z } from 'zod';
import { snapshotPage } from '../api/v3.js';
import { looseObject } from '../api/wire.js';
import { amount, hash, logicalTime, rawAddress, timestamptz } from '../core/column-kinds.js';
import { defineSnapshot, tableRows } from '../core/stream.js';
import { defineTable, type RowOf } from '../core/table.js';
import * as filter from '../options/fields.js';
import { amountString, hashString, lt, nullish, requiredAddress } from '../transform/fields.js';

/** One `/jetton/wallets` item (`mintless_info`, sent for mintless jettons, is not kept). */
export const jettonWalletItem = looseObject({
  address: requiredAddress,
  balance: amountString,
  owner: requiredAddress,
  jetton: requiredAddress,
  last_transaction_lt: lt,
  code_hash: nullish(hashString),
  data_hash: nullish(hashString),
});

export type JettonWalletItem = z.output<typeof jettonWalletItem>;

export const jettonWalletsTable = defineTable({
  name: 'jetton_wallets',
  doc: 'One row per jetton wallet as of its snapshot: the current balance of one owner in one jetton; upserted by wallet address, and deleted once the service no longer lists it.',
  columns: {
    jetton_wallet: rawAddress.doc('Jetton wallet contract (the key).'),
    owner: rawAddress.doc('Owner of the wallet.'),
    jetton_master: rawAddress.doc('Jetton master (the token).'),
    balance: amount.doc('Balance in raw jetton units (divide by 10^decimals of the jetton, see jetton_masters), exact.'),
    last_tx_lt: logicalTime.doc('Logical time of the wallet\'s last transaction the service had indexed.'),
    code_hash: hash.nullable().doc('Code hash of the wallet contract.'),
    data_hash: hash.nullable().doc('Data hash of the wallet contract at its last transaction.'),
    snapshot_time: timestamptz.doc('When the snapshot holding this row was taken.'),
  },
  primaryKey: ['jetton_wallet'],
});

type JettonWalletRow = RowOf<typeof jettonWalletsTable>;

export const jettonWalletsStream = defineSnapshot({
  kind: 'snapshot',
  name: 'jetton_wallets',
  doc: 'Current jetton balances by owner and jetton, a snapshot upserted by wallet address.',
  filters: {
    owner_addresses: filter.optionalAddresses('Only the wallets of these owners.'),
    jetton_masters: filter.optionalAddresses('Only the wallets of these jettons (their master contracts).'),
  },
  tables: [jettonWalletsTable],
  endpoint: '/api/v3/jetton/wallets',
  itemsKey: 'jetton_wallets',
  query: (filters, page) => ({ owner_address: filters.owner_addresses, jetton_address: filters.jetton_masters, ...snapshotPage(page) }),
  metadata: false,
  item: jettonWalletItem,
  key: (wallet) => wallet.address,
  toRows: (wallet, snapshotTime) => new Map([tableRows(jettonWalletsTable, [jettonWalletRow(wallet, snapshotTime)])]),
});

function jettonWalletRow(w: JettonWalletItem, snapshotTime: number): JettonWalletRow {
  return {
    jetton_wallet: w.address,
    owner: w.owner,
    jetton_master: w.jetton,
    balance: w.balance,
    last_tx_lt: w.last_transaction_lt,
    code_hash: w.code_hash,
    data_hash: w.data_hash,
    snapshot_time: snapshotTime,
  };
}
