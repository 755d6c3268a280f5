/**
 * The `addresses` dimension: every address-book entry seen in any response, upserted, so analysts
 * can join raw addresses to their user-friendly form, DNS name and interfaces. Entries are validated
 * one by one: a bad entry is a reject of its own and the rest of the book still loads.
 */
import { z } from 'zod';
import { addressBookEntry, parseItems, type ParsedItems } from '../api/wire.js';
import { rawAddress, text, textList } from '../core/column-kinds.js';
import { defineTable, type RowOf } from '../core/table.js';
import { refused, wireValue } from '../core/wire-value.js';
import { readAddress } from './address.js';

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

type AddressRow = RowOf<typeof addressesTable>;

/**
 * One entry of a book as validated (and as a reject shows it): its key and its value. A friendly
 * form that names another address than its key (or none) would join the key to a wrong address.
 */
const bookEntry = z
  .object({ address: rawAddress.wire, entry: addressBookEntry })
  .superRefine(({ address, entry }, context) => {
    if (entry.user_friendly === null) return;
    const reading = readAddress(entry.user_friendly);
    if ('raw' in reading && reading.raw === address) return;
    const names = 'raw' in reading ? `is the address ${reading.raw}` : `is not an address (${reading.reason})`;
    context.addIssue({ code: 'custom', path: ['entry', 'user_friendly'], message: `${JSON.stringify(entry.user_friendly)} ${names}, not its key ${address}` });
  })
  .transform(({ address, entry }): AddressRow => ({ address, user_friendly: entry.user_friendly, domain: entry.domain, interfaces: entry.interfaces }));

/** What a book that is not an object at all becomes: one reject. */
const notABook = z.object({ address_book: wireValue((input) => refused('an object of entries by raw address', input)) });

/** Rows for an `address_book` object, and a reject (`{address, entry}`) for each entry that is not valid. */
export function addressRows(book: unknown): ParsedItems<AddressRow> {
  if (book === undefined || book === null) return { ok: [], rejects: [] };
  if (typeof book !== 'object' || Array.isArray(book)) return { ok: [], rejects: parseItems(notABook, [{ address_book: book }]).rejects };
  return parseItems(
    bookEntry,
    Object.entries(book).map(([address, entry]) => ({ address, entry })),
  );
}
