/**
 * The `addresses` dimension: every address-book entry seen in any response, upserted, so analysts
 * can join raw addresses to their user-friendly form, DNS name and interfaces.
 */
import { addressBook } from '../api/wire.js';
import { rawAddress, text, textList } from '../core/column-kinds.js';
import { defineTable, type RowOf } from '../core/table.js';

export const addressesTable = defineTable({
  name: 'addresses',
  doc: 'One row per address seen in an address book of any response.',
  columns: {
    address: rawAddress.doc('Raw form wc:HEX, upper case: the join key of every address column.'),
    user_friendly: text.nullable().doc('User-friendly form as the API prints it (bounceable or not per contract type).'),
    domain: text.nullable().doc('DNS name pointing at the address, if any.'),
    interfaces: textList.doc('Contract interfaces the indexer recognised, e.g. wallet_v4r2, jetton_wallet.'),
  },
  primaryKey: ['address'],
});

const lenientBook = addressBook.catch({});

/** Rows for an `address_book` object; entries whose key is not a raw address are skipped. */
export function addressRows(book: unknown): RowOf<typeof addressesTable>[] {
  if (book === undefined || book === null) return [];
  const parsed = lenientBook.parse(book);
  const rows: RowOf<typeof addressesTable>[] = [];
  for (const [address, entry] of Object.entries(parsed)) {
    if (rawAddress.problem(address) !== undefined) continue;
    rows.push({ address, user_friendly: entry.user_friendly, domain: entry.domain, interfaces: entry.interfaces });
  }
  return rows;
}

