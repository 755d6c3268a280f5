/** The rows the CLI makes of one saved /api/v3/transactions page: transactions, messages and addresses. */
import { transactionsStream, type TransactionItem } from '../src/streams/transactions.js';
import { addressesTable, addressRows } from '../src/transform/address-book.js';
import type { Row } from '../src/core/table.js';

export function transactionPageRows(items: readonly TransactionItem[], addressBook: unknown): Map<string, Row[]> {
  const rows = new Map<string, Row[]>();
  for (const item of items) {
    for (const [table, tableRows] of transactionsStream.toRows(item)) {
      let list = rows.get(table);
      if (list === undefined) rows.set(table, (list = []));
      for (const row of tableRows) list.push(row);
    }
  }
  rows.set(addressesTable.name, addressRows(addressBook).ok);
  return rows;
}
