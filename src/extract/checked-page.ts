/** One page of a stream, fetched, validated item by item and checked against its request. */
import type { V3Api, V3Page } from '../api/v3.js';
import { parseItems } from '../api/wire.js';
import type { PageRequest, StreamDefinition } from '../core/stream.js';
import { checkPage, inPromisedOrder } from './page-check.js';

export interface Reject {
  readonly raw: unknown;
  readonly reason: string;
}

/** A reject of a checked page, with what tells it apart from the other items of its position. */
export interface CheckedReject extends Reject {
  /** The key its raw fields give when they are sound, else `raw:` and its JSON text (`rejectIdentity`). */
  readonly identity: string;
}

export interface CheckedPage<Item> {
  /** The valid items that are settled, in the order received. */
  readonly ok: Item[];
  readonly rejects: CheckedReject[];
  /** Items the response carried, valid or not. */
  readonly received: number;
  /** The address book of the response, when the API sent one, as the reader keeps it (raw, or as rows). */
  readonly addressBook: unknown;
  /** The items keep the order the stream promises within a position (`inPromisedOrder`); false where it promises none. */
  readonly ordered: boolean;
}

/** What paging needs of a stream: where an item stands, who it is, and names for messages. */
export type PagedStream<Item> = Pick<StreamDefinition<Item, never>, 'endpoint' | 'axis' | 'position' | 'key'>;

/** Reads one page of a window: fetched, validated and checked against its request (a PagingContractError when it breaks it). */
export type PageReader<Item> = (request: PageRequest) => Promise<CheckedPage<Item>>;

/** The stream's pages read in this thread: `fetchCheckedPage` for every request. */
export function checkedPages<Item, Filters>(stream: StreamDefinition<Item, Filters>, api: V3Api, filters: Filters): PageReader<Item> {
  return (request) => fetchCheckedPage(stream, api, filters, request);
}

/**
 * Fetches the page and throws a PagingContractError when it breaks its request. The response itself
 * is dropped here, not kept by a window's generator while it waits for its next page.
 */
export async function fetchCheckedPage<Item, Filters>(
  stream: StreamDefinition<Item, Filters>,
  api: V3Api,
  filters: Filters,
  request: PageRequest,
): Promise<CheckedPage<Item>> {
  const response = await requestPage(stream, api, filters, request);
  const raw = response[stream.itemsKey] ?? [];
  const { ok: valid, rejects } = parseItems(stream.item, raw);
  const ok = valid.filter((item) => stream.settled?.(item) ?? true);
  checkPage(stream, request, ok, raw.length);
  return {
    ok,
    rejects: rejects.map((reject) => ({ ...reject, identity: rejectIdentity(stream, reject.raw) })),
    received: raw.length,
    addressBook: response.address_book,
    ordered: inPromisedOrder(stream, ok),
  };
}

/** The page as the service sent it: the stream's declared request, through the v3 client's list call. */
export async function requestPage<Item, Filters>(stream: StreamDefinition<Item, Filters>, api: V3Api, filters: Filters, request: PageRequest): Promise<V3Page<string>> {
  return api.list(stream.endpoint, stream.itemsKey, stream.query(filters, request), { metadata: stream.metadata, signal: request.signal });
}

/**
 * The key a rejected item's raw fields give when the key fields themselves are sound, else its JSON
 * text: an item the service sends broken in one answer and valid in another is one item.
 */
export function rejectIdentity<Item>(stream: Pick<StreamDefinition<Item, never>, 'key'>, raw: unknown): string {
  try {
    const key = stream.key(raw as Item);
    if (typeof key === 'string') return key;
  } catch {
    // The key fields are what is broken.
  }
  return `raw:${JSON.stringify(raw)}`;
}
