/**
 * Pages one window [from, to] of a stream by position (D4): ask for `limit` items from the cursor;
 * when a page is full, keep only the items before the page's last position and restart AT that
 * position (inclusive), because items sharing a position may come back in any order (jetton
 * transfers, lt ties across accounts). A position holding more items than a page is read by offset,
 * which is exact only where the service orders items within a position (transactions by account,
 * actions by trace_id); jetton transfers have no such order, but no lt holds 1000 of them. Where that
 * order is fixed and settled positions never change (`fixedOrderWithinPosition`), a full page is kept
 * whole and the next one starts inside its last position by offset: nothing is read twice.
 * An offset counts only the valid items read at its position: an invalid item (whose position is
 * unknown) is read again rather than risk skipping one that was never read.
 */
import type { V3Api } from '../api/v3.js';
import { parseItems } from '../api/wire.js';
import type { PageRequest, StreamDefinition } from '../core/stream.js';
import { ApiContractError } from '../api/errors.js';

export interface Page<Item> {
  readonly items: readonly Item[];
  readonly rejects: readonly { readonly raw: unknown; readonly reason: string }[];
  /** The raw `address_book` of the response, when the API sent one. */
  readonly addressBook: unknown;
  /** Query parameters of the request, for the dead-letter table. */
  readonly request: Readonly<Record<string, string>>;
  /** Every item of the window up to and including `through` has been yielded. */
  readonly through: bigint;
  readonly last: boolean;
}

export interface WindowRequest {
  readonly from: bigint;
  readonly to: bigint;
  readonly limit: number;
  readonly signal?: AbortSignal;
  /**
   * The caller reads the first page only and carries on from its `through + 1` (the runner's scout):
   * a full page then yields only the positions it completes, even with `fixedOrderWithinPosition`.
   */
  readonly firstPageOnly?: boolean;
}

export async function* pageWindow<Item, Filters>(
  stream: StreamDefinition<Item, Filters>,
  api: V3Api,
  filters: Filters,
  window: WindowRequest,
): AsyncGenerator<Page<Item>> {
  const cursor: Cursor = { position: window.from, offset: 0, seen: new Set(), done: window.from > window.to };
  while (!cursor.done) {
    // A suspended generator keeps its variables: cleared after the yield, the page is not held
    // while the next one is fetched.
    let page: Page<Item> | undefined = await nextPage(stream, api, filters, window, cursor);
    yield page;
    page = undefined;
  }
}

/** Where a window's paging stands: the position to read from, and the offset within it. */
interface Cursor {
  position: bigint;
  offset: number;
  /** Keys already yielded at `position` while it is read by offset. */
  readonly seen: Set<string>;
  done: boolean;
}

/** Fetches the page at the cursor and moves the cursor past what it yields. */
async function nextPage<Item, Filters>(
  stream: StreamDefinition<Item, Filters>,
  api: V3Api,
  filters: Filters,
  window: WindowRequest,
  cursor: Cursor,
): Promise<Page<Item>> {
  const from = cursor.position;
  const to = cursor.offset > 0 && !stream.fixedOrderWithinPosition ? from : window.to;
  const request = { from, to, limit: window.limit, offset: cursor.offset, signal: window.signal };
  const { ok, rejects, received, addressBook } = await fetchItems(stream, api, filters, request);
  const params = { from: String(from), to: String(to), limit: String(window.limit), offset: String(cursor.offset) };
  const page = (items: readonly Item[], through: bigint, last: boolean): Page<Item> => ({ items, rejects, addressBook, request: params, through, last });
  const unseen = (): Item[] => ok.filter((item) => !cursor.seen.has(stream.key(item)));
  const moveTo = (position: bigint): void => {
    cursor.position = position;
    cursor.offset = 0;
    cursor.seen.clear();
  };

  if (received < window.limit) {
    if (cursor.offset > 0 && to < window.to) {
      // Finished the crowded position; carry on after it.
      const fresh = unseen();
      moveTo(from + 1n);
      return page(fresh, from, false);
    }
    cursor.done = true;
    return page(unseen(), window.to, true);
  }

  if (ok.length === 0) {
    throw new ApiContractError(`${stream.endpoint}: a full page of ${received} items failed validation at position ${from}; cannot page past it (first reason: ${rejects[0]?.reason})`, { endpoint: stream.endpoint });
  }
  const lastPosition = stream.position(ok[ok.length - 1]!);
  if (stream.position(ok[0]!) === lastPosition) {
    // A whole page at one position: read that position by offset, deduping by key.
    const fresh = unseen();
    if (from !== lastPosition) moveTo(lastPosition);
    for (const item of fresh) cursor.seen.add(stream.key(item));
    cursor.offset += ok.length;
    return page(fresh, cursor.position - 1n, false);
  }
  if (stream.fixedOrderWithinPosition && window.firstPageOnly !== true) {
    // Keep the whole page and read on after it, skipping by offset the items of its last position.
    const fresh = unseen();
    moveTo(lastPosition);
    for (const item of fresh) {
      if (stream.position(item) !== lastPosition) continue;
      cursor.seen.add(stream.key(item));
      cursor.offset += 1;
    }
    return page(fresh, lastPosition - 1n, false);
  }
  moveTo(lastPosition);
  return page(ok.filter((item) => stream.position(item) < lastPosition), lastPosition - 1n, false);
}

/**
 * One page, validated. The response itself is dropped here, not kept by the window's generator while
 * it waits for its next page: only the items, the rejects and the address book stay in memory.
 */
async function fetchItems<Item, Filters>(
  stream: StreamDefinition<Item, Filters>,
  api: V3Api,
  filters: Filters,
  request: PageRequest,
): Promise<{ ok: Item[]; rejects: { raw: unknown; reason: string }[]; received: number; addressBook: unknown }> {
  const response = await stream.fetchPage(api, filters, request);
  const raw = response[stream.itemsKey] ?? [];
  return { ...parseItems(stream.item, raw), received: raw.length, addressBook: response.address_book };
}
