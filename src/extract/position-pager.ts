/**
 * Pages one window [from, to] of a stream by position (D4). Every page is checked against its
 * request first (page-check.ts): positions inside the bounds and ascending, no item twice, at most
 * `limit` items. Then: ask for `limit` items from the cursor; when a page is full, keep only the items
 * before the page's last position and restart AT that position (inclusive), because items sharing a
 * position may come back in any order (jetton transfers, lt ties across accounts). A page holding one
 * position only is read by counting (crowded-position.ts) and yielded whole, never split between
 * commits (actions are replaced per trace). Where the stream promises an order within a position
 * (`orderWithinPosition`) and the page keeps it strictly, also across the offset it continues from,
 * a full page is kept whole and the next one starts inside its last position by offset: nothing is
 * read twice. A continuation that breaks the order is discarded and its position read again without
 * that shortcut.
 */
import type { V3Api } from '../api/v3.js';
import { ApiContractError } from '../api/errors.js';
import type { PageRequest, StreamDefinition } from '../core/stream.js';
import { fetchCheckedPage, type CheckedPage, type Reject } from './checked-page.js';
import { MAX_POSITION_PAGES, readCrowdedPosition } from './crowded-position.js';
import { inPromisedOrder, pagingViolation } from './page-check.js';

export interface Page<Item> {
  readonly items: readonly Item[];
  readonly rejects: readonly Reject[];
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
   * a full page then yields only the positions it completes, even with `orderWithinPosition`.
   */
  readonly firstPageOnly?: boolean;
}

export async function* pageWindow<Item, Filters>(
  stream: StreamDefinition<Item, Filters>,
  api: V3Api,
  filters: Filters,
  window: WindowRequest,
): AsyncGenerator<Page<Item>> {
  const cursor: Cursor<Item> = { position: window.from, offset: 0, after: undefined, yielded: new Set(), unordered: undefined, done: window.from > window.to };
  while (!cursor.done) {
    // A suspended generator keeps its variables: cleared after the yield, the page is not held
    // while the next one is fetched.
    let page: Page<Item> | undefined = await nextPage(stream, api, filters, window, cursor);
    yield page;
    page = undefined;
  }
}

/** Where a window's paging stands. */
interface Cursor<Item> {
  /** The position to read from. */
  position: bigint;
  /** Items of `position` already yielded, in the promised order: the next request skips them. */
  offset: number;
  /** The last of those items: the next page must continue strictly after it. */
  after: Item | undefined;
  /** Keys of the items of `position` already yielded, not yielded again when it is read again. */
  readonly yielded: Set<string>;
  /** A position whose continuation broke the promised order: read again without the shortcut. */
  unordered: bigint | undefined;
  done: boolean;
}

/** Fetches pages at the cursor until one can be yielded; moves the cursor past what it yields. */
async function nextPage<Item, Filters>(
  stream: StreamDefinition<Item, Filters>,
  api: V3Api,
  filters: Filters,
  window: WindowRequest,
  cursor: Cursor<Item>,
): Promise<Page<Item>> {
  for (;;) {
    const request: PageRequest = { from: cursor.position, to: window.to, limit: window.limit, offset: cursor.offset, signal: window.signal };
    const fetched = await fetchCheckedPage(stream, api, filters, request);
    const at = cursor.position;
    const page = (items: readonly Item[], through: bigint, last = false, from: Pick<CheckedPage<Item>, 'rejects' | 'addressBook'> = fetched): Page<Item> => ({
      items: items.filter((item) => stream.position(item) !== at || !cursor.yielded.has(stream.key(item))),
      rejects: from.rejects,
      addressBook: from.addressBook,
      request: { from: String(request.from), to: String(request.to), limit: String(request.limit), offset: String(request.offset) },
      through,
      last,
    });
    const verified = fetched.rejects.length === 0 && cursor.unordered !== cursor.position && inPromisedOrder(stream, fetched.ok, cursor.after);
    if (cursor.offset > 0 && !verified) {
      // The items skipped by offset may not be the ones yielded: read the position again from its start.
      moveTo(cursor, cursor.position);
      cursor.unordered = cursor.position;
      continue;
    }
    if (fetched.received < window.limit) {
      cursor.done = true;
      return page(fetched.ok, window.to, true);
    }
    const { ok } = fetched;
    if (ok.length === 0) {
      throw new ApiContractError(`${stream.endpoint}: a full page of ${fetched.received} items failed validation at position ${request.from}; cannot page past it (first reason: ${fetched.rejects[0]?.reason})`, {
        endpoint: stream.endpoint,
      });
    }
    const lastPosition = stream.position(ok[ok.length - 1]!);
    if (verified && window.firstPageOnly !== true) {
      // Keep the whole page and read on after it, skipping by offset the items of its last position.
      const atLast = ok.filter((item) => stream.position(item) === lastPosition).length;
      const offset = (lastPosition === cursor.position ? cursor.offset : 0) + atLast;
      if (offset >= MAX_POSITION_PAGES * window.limit) throw pagingViolation(stream, request, `more than ${offset} items at ${stream.axis} ${lastPosition}`);
      const yielded = page(ok, lastPosition - 1n);
      moveTo(cursor, lastPosition, offset, ok[ok.length - 1]);
      for (const item of ok) if (stream.position(item) === lastPosition) cursor.yielded.add(stream.key(item));
      return yielded;
    }
    if (stream.position(ok[0]!) === lastPosition) {
      // A whole page at one position, in no verified order: read it by counting, and yield it whole.
      const crowded = await readCrowdedPosition(stream, api, filters, { position: lastPosition, limit: window.limit, signal: window.signal });
      const done = lastPosition >= window.to;
      const yielded = page(crowded.items, lastPosition, done, crowded);
      moveTo(cursor, lastPosition + 1n);
      cursor.done = done;
      return yielded;
    }
    const yielded = page(
      ok.filter((item) => stream.position(item) < lastPosition),
      lastPosition - 1n,
    );
    moveTo(cursor, lastPosition);
    return yielded;
  }
}

/** Moves the cursor; the keys yielded at its position are kept only while it stays there. */
function moveTo<Item>(cursor: Cursor<Item>, position: bigint, offset = 0, after?: Item): void {
  if (position !== cursor.position) cursor.yielded.clear();
  cursor.position = position;
  cursor.offset = offset;
  cursor.after = after;
}
