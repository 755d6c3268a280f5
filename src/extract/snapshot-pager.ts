/**
 * Reads a snapshot stream's whole scope by offset in the service's stable order (internal id
 * ascending, docs/design.md §2), checking as it goes that the list did not shift under it: each page
 * after the first begins with the last item of the page before it (pages overlap by one item), and
 * no key comes twice. An item leaving the scope before the offset shifts the rest back and would be
 * skipped unseen; that is seen as a broken overlap and the read begins again, at most
 * `SNAPSHOT_PASSES` times.
 */
import type { V3Api } from '../api/v3.js';
import { parseItems } from '../api/wire.js';
import { exactJson } from '../core/exact-json.js';
import type { QueryParams } from '../core/query-params.js';
import type { SnapshotDefinition, SnapshotPageRequest } from '../core/stream.js';
import type { Reject } from './page-reader.js';
import { PagingContractError } from './page-check.js';

/** Reads of the whole scope a snapshot may begin before it gives up on a list that keeps shifting. */
export const SNAPSHOT_PASSES = 3;

export interface SnapshotPage<Item> {
  /** Valid items not yielded before in this read (the overlap item is dropped). */
  readonly items: Item[];
  readonly rejects: Reject[];
  /** The raw `address_book` of the response, when the API sent one. */
  readonly addressBook: unknown;
  readonly request: { readonly limit: number; readonly offset: number };
}

export interface SnapshotRead {
  readonly limit: number;
  readonly signal?: AbortSignal;
}

/** Yields the scope page by page (a page shorter than the limit ends it); after a shift, from offset 0 again. */
export async function* snapshotPages<Item, Filters>(
  stream: SnapshotDefinition<Item, Filters>,
  api: V3Api,
  filters: Filters,
  read: SnapshotRead,
): AsyncGenerator<SnapshotPage<Item>> {
  if (read.limit < 2) throw new Error(`a snapshot reads pages of at least 2 items (they overlap by one), got ${read.limit}`);
  let shifted: string | undefined;
  for (let pass = 1; pass <= SNAPSHOT_PASSES; pass += 1) {
    shifted = yield* onePass(stream, api, filters, read);
    if (shifted === undefined) return;
  }
  throw new PagingContractError(
    `${stream.endpoint} changed while it was read ${SNAPSHOT_PASSES} times over (last: ${shifted}): the snapshot is not stored complete; ` +
      'narrow the scope with the stream\'s filters, or run again when the service is quieter',
    { endpoint: stream.endpoint },
  );
}

/** One read from offset 0; returns why the list shifted, or undefined once it is read whole. */
async function* onePass<Item, Filters>(
  stream: SnapshotDefinition<Item, Filters>,
  api: V3Api,
  filters: Filters,
  read: SnapshotRead,
): AsyncGenerator<SnapshotPage<Item>, string | undefined> {
  const seen = new Set<string>();
  let offset = 0;
  let boundary: string | undefined;
  for (;;) {
    const request: SnapshotPageRequest = { limit: read.limit, offset, signal: read.signal };
    const { raw, addressBook } = await readSnapshotPage(stream, api, stream.query(filters, request), read.signal);
    if (raw.length > read.limit) {
      throw new PagingContractError(`${stream.endpoint}?limit=${read.limit}&offset=${offset} sent ${raw.length} items, more than the limit`, { endpoint: stream.endpoint });
    }
    if (boundary !== undefined && (raw.length === 0 || identity(stream, raw[0]) !== boundary)) {
      return `the page at offset ${offset} does not begin with the last item of the page before it`;
    }
    const fresh = boundary === undefined ? raw : raw.slice(1);
    const { ok, rejects } = parseItems(stream.item, fresh);
    for (const item of ok) {
      const key = stream.key(item);
      if (seen.has(key)) return `${key} came twice`;
      seen.add(key);
    }
    yield { items: ok, rejects, addressBook, request: { limit: read.limit, offset } };
    if (raw.length < read.limit) return undefined;
    boundary = identity(stream, raw[raw.length - 1]);
    offset += read.limit - 1;
  }
}

/** A snapshot stream's page as the service sent it. */
export interface ListedPage {
  /** Each item as the stream reads it: with its part of the response beside the list (`withResponse`). */
  readonly raw: unknown[];
  /** The raw `address_book` of the response, when the API sent one. */
  readonly addressBook: unknown;
}

/** The one place a snapshot stream's list request is sent: its scope by offset, a read by key, the dry-run's probe. */
export async function readSnapshotPage<Item, Filters>(stream: SnapshotDefinition<Item, Filters>, api: V3Api, query: QueryParams, signal: AbortSignal | undefined): Promise<ListedPage> {
  const response = await api.list(stream.endpoint, stream.itemsKey, query, { metadata: stream.metadata, signal });
  const listed = (response[stream.itemsKey] ?? []) as unknown[];
  return { raw: stream.withResponse === undefined ? listed : listed.map((item) => stream.withResponse!(item, response)), addressBook: response.address_book };
}

/** The item's key, or its exact JSON when it does not parse (a reject still marks its place). */
function identity<Item, Filters>(stream: SnapshotDefinition<Item, Filters>, raw: unknown): string {
  const parsed = stream.item.safeParse(raw);
  return parsed.success ? `key ${stream.key(parsed.data)}` : `raw ${exactJson(raw)}`;
}
