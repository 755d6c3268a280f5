/**
 * Pages one window [from, to] of a stream by position (D4): ask for `limit` items from the cursor;
 * when a page is full, keep only the items before the page's last position and restart AT that
 * position (inclusive), because items sharing a position may come back in any order (jetton
 * transfers, lt ties across accounts). A position holding more items than a page is read by offset,
 * which is exact only where the service orders items within a position (transactions by account,
 * actions by trace_id); jetton transfers have no such order, but no lt holds 1000 of them.
 */
import type { V3Api } from '../api/v3.js';
import { parseItems } from '../api/wire.js';
import type { StreamDefinition } from '../core/stream.js';
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
}

export async function* pageWindow<Item, Filters>(
  stream: StreamDefinition<Item, Filters>,
  api: V3Api,
  filters: Filters,
  window: WindowRequest,
): AsyncGenerator<Page<Item>> {
  let cursor = window.from;
  let offset = 0;
  const seenAtCursor = new Set<string>();
  while (cursor <= window.to) {
    const to = offset > 0 ? cursor : window.to;
    const request = { from: cursor, to, limit: window.limit, offset, signal: window.signal };
    const response = await stream.fetchPage(api, filters, request);
    const raw = response[stream.itemsKey] ?? [];
    const { ok, rejects } = parseItems(stream.item, raw);
    const params = { from: String(cursor), to: String(to), limit: String(window.limit), offset: String(offset) };
    const full = raw.length >= window.limit;
    const first = ok[0];

    if (!full) {
      const fresh = ok.filter((item) => !seenAtCursor.has(stream.key(item)));
      if (offset > 0 && to < window.to) {
        // Finished the crowded position; carry on after it.
        yield { items: fresh, rejects, addressBook: response.address_book, request: params, through: cursor, last: false };
        cursor += 1n;
        offset = 0;
        seenAtCursor.clear();
        continue;
      }
      yield { items: fresh, rejects, addressBook: response.address_book, request: params, through: window.to, last: true };
      return;
    }

    if (ok.length === 0) {
      throw new ApiContractError(`${stream.endpoint}: a full page of ${raw.length} items failed validation at position ${cursor}; cannot page past it (first reason: ${rejects[0]?.reason})`, { endpoint: stream.endpoint });
    }
    const lastPosition = stream.position(ok[ok.length - 1]!);
    if (first !== undefined && stream.position(first) === lastPosition) {
      // A whole page at one position: read that position by offset, deduping by key.
      const fresh = ok.filter((item) => !seenAtCursor.has(stream.key(item)));
      for (const item of fresh) seenAtCursor.add(stream.key(item));
      if (cursor !== lastPosition) {
        cursor = lastPosition;
        offset = 0;
      }
      offset += window.limit;
      yield { items: fresh, rejects, addressBook: response.address_book, request: params, through: cursor - 1n, last: false };
      continue;
    }
    const before = ok.filter((item) => stream.position(item) < lastPosition);
    yield { items: before, rejects, addressBook: response.address_book, request: params, through: lastPosition - 1n, last: false };
    cursor = lastPosition;
    offset = 0;
    seenAtCursor.clear();
  }
}
