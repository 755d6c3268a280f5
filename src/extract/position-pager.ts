/**
 * Pages one window [from, to] of a stream by position (docs/design.md §2). Every page is checked
 * against its request first (page-check.ts): positions inside the bounds and ascending, no item
 * twice, at most `limit` items. Then: ask for `limit` items from the cursor; when a page is full,
 * keep only the items before the page's last position and restart AT that position (inclusive),
 * because items sharing a position may come back in any order (jetton transfers, lt ties across
 * accounts). A page holding one position only is read by counting (crowded-position.ts) and yielded
 * whole, never split between commits (actions are replaced per trace). Where the stream promises an
 * order within a position (`orderWithinPosition`) and the page keeps it strictly, also across the
 * offset it continues from, a full page is kept whole and the next one starts inside its last
 * position by offset: nothing is read twice. A continuation that breaks the order is discarded and
 * its position read again without that shortcut.
 */
import { ApiContractError } from '../api/errors.js';
import type { PageRequest } from '../core/stream.js';
import type { PreparedBook, PreparedItem } from '../transform/prepared-page.js';
import type { CheckedPage, PagedStream, PageReader, Reject } from './page-reader.js';
import { MAX_POSITION_PAGES, readCrowdedPosition } from './crowded-position.js';
import { pagingViolation } from './page-check.js';

export interface Page {
  readonly items: readonly PreparedItem[];
  readonly rejects: readonly Reject[];
  /** The address book of the response as rows, when the API sent one. */
  readonly addressBook: PreparedBook | undefined;
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

/** Pages the window with `read` (page-reader.ts). */
export async function* pageWindow(stream: PagedStream, read: PageReader, window: WindowRequest): AsyncGenerator<Page> {
  const cursor: Cursor = { position: window.from, offset: 0, after: undefined, known: false, yielded: new Set(), unordered: undefined, done: window.from > window.to };
  while (!cursor.done) {
    // A suspended generator keeps its variables: cleared after the yield, the page is not held
    // while the next one is fetched.
    let page: Page | undefined = await nextPage(stream, read, window, cursor);
    yield page;
    page = undefined;
  }
}

/** Where a window's paging stands. */
interface Cursor {
  /** The position to read from. */
  position: bigint;
  /** Items of `position` already yielded in the promised order, the last of them `after`. */
  offset: number;
  /** Continuing by offset: the next page must begin with this item again (its request overlaps it by one). */
  after: PreparedItem | undefined;
  /** `position` holds items not yielded yet, as a page before showed: the next page must begin there. */
  known: boolean;
  /** Keys of the items of `position` already yielded, not yielded again when it is read again. */
  readonly yielded: Set<string>;
  /** A position whose continuation broke the promised order: read again without the shortcut. */
  unordered: bigint | undefined;
  done: boolean;
}

/** Fetches pages at the cursor until one can be yielded; moves the cursor past what it yields. */
async function nextPage(stream: PagedStream, read: PageReader, window: WindowRequest, cursor: Cursor): Promise<Page> {
  for (;;) {
    const at = cursor.position;
    const continuing = cursor.after;
    const request: PageRequest = { from: at, to: window.to, limit: window.limit, offset: continuing === undefined ? 0 : cursor.offset - 1, signal: window.signal };
    const fetched = await read(request);
    const { ok, rejects } = fetched;
    const ordered = rejects.length === 0 && fetched.ordered;
    const page = (items: readonly PreparedItem[], through: bigint, last = false, from: Pick<CheckedPage, 'rejects' | 'addressBook'> = fetched): Page => ({
      items: items.filter((item) => item.position !== at || !cursor.yielded.has(item.key)),
      rejects: from.rejects,
      addressBook: from.addressBook,
      request: { from: String(request.from), to: String(request.to), limit: String(request.limit), offset: String(request.offset) },
      through,
      last,
    });
    if (continuing !== undefined) {
      const resumes = ordered && ok[0] !== undefined && ok[0].key === continuing.key;
      if (!resumes) {
        // The items skipped by offset may not be the ones yielded: read the position again from its start.
        moveTo(cursor, at, { known: true });
        cursor.unordered = at;
        continue;
      }
    } else if (cursor.known && ok[0] !== undefined && ok[0].position !== at) {
      throw pagingViolation(stream, request, `its first item is at ${stream.axis} ${ok[0].position}, but ${stream.axis} ${at} holds items an earlier page showed`);
    }
    if (fetched.received < window.limit) {
      cursor.done = true;
      return page(ok, window.to, true);
    }
    if (ok.length === 0) {
      throw new ApiContractError(`${stream.endpoint}: a full page of ${fetched.received} items failed validation at position ${at}; cannot page past it (first reason: ${rejects[0]?.reason})`, {
        endpoint: stream.endpoint,
      });
    }
    const lastPosition = ok[ok.length - 1]!.position;
    const onePosition = ok[0]!.position === lastPosition;
    if (onePosition && continuing === undefined && !cursor.known && lastPosition > at && rejects.length === 0) {
      await expectNothingBefore(stream, read, request, lastPosition);
    }
    if (window.firstPageOnly !== true && cursor.unordered !== at && ordered) {
      // Keep the whole page and read on after it, skipping by offset the items of its last position.
      const offset = (lastPosition === at ? request.offset : 0) + ok.filter((item) => item.position === lastPosition).length;
      if (offset >= MAX_POSITION_PAGES * window.limit) throw pagingViolation(stream, request, `more than ${offset} items at ${stream.axis} ${lastPosition}`);
      const yielded = page(ok, lastPosition - 1n);
      moveTo(cursor, lastPosition, { offset, after: ok[ok.length - 1] });
      for (const item of ok) if (item.position === lastPosition) cursor.yielded.add(item.key);
      return yielded;
    }
    if (onePosition) {
      // A whole page at one position, in no verified order: read it by counting, and yield it whole.
      const crowded = await readCrowdedPosition(stream, read, { position: lastPosition, atLeast: ok.length, limit: window.limit, signal: window.signal });
      const done = lastPosition >= window.to;
      const yielded = page(crowded.items, lastPosition, done, crowded);
      moveTo(cursor, lastPosition + 1n);
      cursor.done = done;
      return yielded;
    }
    const yielded = page(
      ok.filter((item) => item.position < lastPosition),
      lastPosition - 1n,
    );
    moveTo(cursor, lastPosition, { known: true });
    return yielded;
  }
}

/**
 * A full page of one position above the one asked from says nothing of the positions between (a
 * page of several positions shows its order): one item asked for there must not exist.
 */
async function expectNothingBefore(stream: PagedStream, read: PageReader, request: PageRequest, position: bigint): Promise<void> {
  const probe = await read({ ...request, to: position - 1n, limit: 1, offset: 0 });
  if (probe.received === 0) return;
  const found = probe.ok[0] === undefined ? 'an item' : `${stream.axis} ${probe.ok[0].position}`;
  throw pagingViolation(stream, request, `it began at ${stream.axis} ${position}, but ${found} lies between: the items are not in ascending order`);
}

/** Moves the cursor; the keys yielded at its position are kept only while it stays there. */
function moveTo(cursor: Cursor, position: bigint, next: { offset?: number; after?: PreparedItem; known?: boolean } = {}): void {
  if (position !== cursor.position) cursor.yielded.clear();
  cursor.position = position;
  cursor.offset = next.offset ?? 0;
  cursor.after = next.after;
  cursor.known = next.known ?? false;
}
