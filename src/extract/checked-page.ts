/** One page of a stream, fetched, validated item by item and checked against its request. */
import type { V3Api, V3Page } from '../api/v3.js';
import { parseItems } from '../api/wire.js';
import type { PageRequest, StreamDefinition } from '../core/stream.js';
import { checkPage } from './page-check.js';

export interface Reject {
  readonly raw: unknown;
  readonly reason: string;
}

export interface CheckedPage<Item> {
  /** The valid items that are settled, in the order received. */
  readonly ok: Item[];
  readonly rejects: Reject[];
  /** Items the response carried, valid or not. */
  readonly received: number;
  /** The raw `address_book` of the response, when the API sent one. */
  readonly addressBook: unknown;
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
  return { ok, rejects, received: raw.length, addressBook: response.address_book };
}

/** The page as the service sent it: the stream's declared request, through the v3 client's list call. */
export async function requestPage<Item, Filters>(stream: StreamDefinition<Item, Filters>, api: V3Api, filters: Filters, request: PageRequest): Promise<V3Page<string>> {
  return api.list(stream.endpoint, stream.itemsKey, stream.query(filters, request), { metadata: stream.metadata, signal: request.signal });
}
