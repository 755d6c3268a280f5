/**
 * Reads a snapshot stream's whole scope by offset in the service's stable order (internal id
 * ascending, docs/design.md §2), checking as it goes that the list did not shift under it: each page
 * after the first begins with the last item of the page before it (pages overlap by one item), and
 * no key comes twice. An item leaving the scope before the offset shifts the rest back and would be
 * skipped unseen; that is seen as a broken overlap and the read begins again, at most
 * `SNAPSHOT_PASSES` times.
 */
import type { V3Api } from '../api/v3.js';
import type { QueryParams } from '../core/query-params.js';
import type { SnapshotDefinition, SnapshotPageRequest } from '../core/stream.js';
import { prepareSnapshotPage, type PreparedBook, type PreparedItem, type PreparedSnapshotPage } from '../transform/prepared-page.js';
import { bodyError, rejectOf, type Reject } from './page-reader.js';
import { PagingContractError } from './page-check.js';

/** Reads of the whole scope a snapshot may begin before it gives up on a list that keeps shifting. */
export const SNAPSHOT_PASSES = 3;

export interface SnapshotPage {
  /** Valid items not yielded before in this read (the overlap item is dropped), their rows stamped with the snapshot's time. */
  readonly items: PreparedItem[];
  readonly rejects: Reject[];
  /** The address book of the response as rows, when the API sent one. */
  readonly addressBook: PreparedBook | undefined;
  readonly request: { readonly limit: number; readonly offset: number };
}

export interface SnapshotRead {
  readonly limit: number;
  /** The snapshot's time, unix seconds: its rows' `snapshot_time`. */
  readonly time: number;
  readonly signal?: AbortSignal;
}

/** Yields the scope page by page (a page shorter than the limit ends it); after a shift, from offset 0 again. */
export async function* snapshotPages<Filters>(stream: SnapshotDefinition<unknown, Filters>, api: V3Api, filters: Filters, read: SnapshotRead): AsyncGenerator<SnapshotPage> {
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
async function* onePass<Filters>(stream: SnapshotDefinition<unknown, Filters>, api: V3Api, filters: Filters, read: SnapshotRead): AsyncGenerator<SnapshotPage, string | undefined> {
  const seen = new Set<string>();
  let offset = 0;
  let boundary: string | undefined;
  for (;;) {
    const request: SnapshotPageRequest = { limit: read.limit, offset, signal: read.signal };
    const page = await readSnapshotPage(stream, api, stream.query(filters, request), { time: read.time, offset, signal: read.signal });
    if (page.received > read.limit) {
      throw new PagingContractError(`${stream.endpoint}?limit=${read.limit}&offset=${offset} sent ${page.received} items, more than the limit`, { endpoint: stream.endpoint });
    }
    if (boundary !== undefined && page.edges?.first !== boundary) {
      return `the page at offset ${offset} does not begin with the last item of the page before it`;
    }
    // The overlap item (the page's first, at `offset`) was yielded with the page before, valid or not.
    const items = boundary === undefined ? page.ok : page.ok.filter((item) => item.position !== BigInt(offset));
    const rejects = boundary === undefined || page.ok[0]?.position === BigInt(offset) ? page.rejects : page.rejects.slice(1);
    for (const item of items) {
      if (seen.has(item.key)) return `${item.key} came twice`;
      seen.add(item.key);
    }
    yield { items, rejects, addressBook: page.book, request: { limit: read.limit, offset } };
    if (page.received < read.limit) return undefined;
    boundary = page.edges!.last;
    offset += read.limit - 1;
  }
}

/** A snapshot page as read: prepared, its rejects redacted as the warehouse keeps them. */
export type ReadSnapshotPage = Omit<PreparedSnapshotPage, 'rejects'> & { readonly rejects: Reject[] };

/**
 * The one place a snapshot stream's list request is sent (its scope by offset, a read by key, the
 * dry-run's probe): the body prepared inside the request's attempt, as a position stream's page is.
 */
export async function readSnapshotPage<Filters>(
  stream: SnapshotDefinition<unknown, Filters>,
  api: V3Api,
  query: QueryParams,
  at: { readonly time: number; readonly offset: number; readonly signal: AbortSignal | undefined },
): Promise<ReadSnapshotPage> {
  const prepared = (body: Uint8Array): PreparedSnapshotPage => {
    const result = prepareSnapshotPage(stream as SnapshotDefinition<unknown, never>, body, at);
    if (result.kind === 'page') return result.page;
    throw bodyError(stream, result);
  };
  const page = await api.listRead(stream.endpoint, query, prepared, { metadata: stream.metadata, signal: at.signal });
  return { ...page, rejects: page.rejects.map(rejectOf) };
}
