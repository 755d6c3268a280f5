import { exactJson } from '../core/exact-json.js';
import type { OpenItem } from '../core/checkpoint/stream-progress.js';
import type { Row } from '../core/table.js';
import type { StreamDefinition } from '../core/stream.js';
import type { Reject } from '../extract/page-reader.js';
import type { Page } from '../extract/position-pager.js';
import type { RejectInput } from '../load/sink.js';
import { addressesTable } from '../transform/address-book.js';
import type { PreparedBook, PreparedItem } from '../transform/prepared-page.js';
import { rejectOf } from '../extract/page-reader.js';

/** A page as rows: what it holds while it waits for its commit. */
export interface PageRows {
  /** Rows per table name, the addresses of the page's address book included. */
  readonly rows: Map<string, Row[]>;
  readonly rejects: RejectInput[];
  /** Rows of the stream's own tables. */
  readonly count: number;
  /** Every item of the window up to and including `through` is in this page or an earlier one. */
  readonly through: bigint;
  readonly last: boolean;
  /** Items the response carried, valid or not. */
  readonly received: number;
  /** The page's items the service may still change, for streams that say (`StreamDefinition.openUntil`). */
  readonly open: readonly OpenItem[];
}

/**
 * Gathers each page's rows (its items were made rows as their page was prepared, prepared-page.ts)
 * by table as soon as it arrives, with its rejects as the dead-letter table keeps them.
 */
export async function* asPageRows(stream: StreamDefinition, filters: unknown, pages: AsyncGenerator<Page>): AsyncGenerator<PageRows> {
  try {
    for (;;) {
      let next = await nextPageRows(stream, filters, pages);
      if (next === undefined) return;
      yield next;
      // A suspended generator keeps its variables: not this page while the next is fetched.
      next = undefined;
    }
  } finally {
    await pages.return(undefined);
  }
}

async function nextPageRows(stream: StreamDefinition, filters: unknown, pages: AsyncGenerator<Page>): Promise<PageRows | undefined> {
  const next = await pages.next();
  if (next.done === true) return undefined;
  return toPageRows(stream, filters, next.value);
}

function toPageRows(stream: StreamDefinition, filters: unknown, page: Page): PageRows {
  const { rows, count, rejects } = itemRows(stream.endpoint, page.items, page.rejects, page.addressBook, JSON.stringify({ ...page.request, filters: filters ?? null }));
  // Only streams that declare `openUntil` have items to note: no walk over a transactions page.
  const open = stream.openUntil === undefined ? [] : page.items.map((item) => ({ position: item.position, until: item.openUntil! }));
  return { rows, rejects, count, through: page.through, last: page.last, received: page.items.length + page.rejects.length, open };
}

/**
 * A page's rows by table (its items' and its address book's) and its rejects as the dead-letter table
 * keeps them, under the request's `params`: of a position page and of a snapshot page alike.
 */
export function itemRows(endpoint: string, items: readonly PreparedItem[], itemRejects: readonly Reject[], book: PreparedBook | undefined, params: string): { rows: Map<string, Row[]>; count: number; rejects: RejectInput[] } {
  const rows = new Map<string, Row[]>();
  let count = 0;
  const add = (table: string, tableRows: readonly Row[]): void => {
    let list = rows.get(table);
    if (list === undefined) rows.set(table, (list = []));
    for (const row of tableRows) list.push(row);
  };
  for (const item of items) {
    for (const [table, tableRows] of item.rows) {
      add(table, tableRows);
      count += tableRows.length;
    }
  }
  const entries = bookRows(book);
  add(addressesTable.name, entries.rows);
  const rejects = [...itemRejects, ...entries.rejects].map((r) => ({ endpoint, params, raw: exactJson(r.raw), reason: r.reason }));
  return { rows, count, rejects };
}

/** The `addresses` rows of a prepared address book and its entries' rejects, in the book's order. */
function bookRows(book: PreparedBook | undefined): { rows: Row[]; rejects: Reject[] } {
  const rows: Row[] = [];
  const rejects: Reject[] = [];
  for (const entry of Object.values(book ?? {})) {
    if ('row' in entry) rows.push(entry.row);
    else rejects.push(rejectOf(entry.reject));
  }
  return { rows, rejects };
}
