/**
 * The one place a position stream's list request is sent and its answer read: the body's bytes go
 * to `preparePage` (transform/prepared-page.ts) inside the request's attempt, so a body that is not
 * JSON is retried, in a page worker (run/workers/page-pool.ts) or in this thread alike; what comes
 * back is checked against the request here (page-check.ts). Rejects are redacted here, in the
 * command's secret scope: the key never goes to a worker. Runs, the dry-run's probe and the pagers'
 * unit tests all read pages through it.
 */
import { ErrorInBodyError, NotJsonError } from '../api/body.js';
import { notAList, type V3Api } from '../api/v3.js';
import { parseJson } from '../core/exact-json.js';
import { activeRedactor } from '../core/secret-scope.js';
import type { PageRequest, StreamDefinition } from '../core/stream.js';
import { checkPage } from './page-check.js';
import { preparePage, type PreparedBody, type PreparedBook, type PreparedItem, type RejectText } from '../transform/prepared-page.js';

export interface Reject {
  readonly raw: unknown;
  readonly reason: string;
}

/** A reject of a checked page, with what tells it apart from the other items of its position. */
export interface CheckedReject extends Reject {
  /** The key its raw fields give when they are sound, else `raw:` and its JSON text (`rejectIdentity`). */
  readonly identity: string;
}

export interface CheckedPage {
  /** The valid items that are settled, in the order received. */
  readonly ok: PreparedItem[];
  readonly rejects: CheckedReject[];
  /** Items the response carried, valid or not. */
  readonly received: number;
  /** The address book of the response as rows, when the API sent one. */
  readonly addressBook: PreparedBook | undefined;
  /** The items keep the order the stream promises within a position (`inPromisedOrder`); false where it promises none. */
  readonly ordered: boolean;
}

/** What paging needs of a stream: names for its messages (items carry their positions and keys). */
export type PagedStream = Pick<StreamDefinition, 'endpoint' | 'axis'>;

/** Reads one page of a window: fetched, validated and checked against its request (a PagingContractError when it breaks it). */
export type PageReader = (request: PageRequest) => Promise<CheckedPage>;

/** Runs `preparePage` for a stream's body somewhere: `inThisThread`, or a PagePool's `prepare`. */
export type PagePreparer = (stream: StreamDefinition, body: Uint8Array) => Promise<PreparedBody>;

export const inThisThread: PagePreparer = async (stream, body) => preparePage(stream, body);

/** The stream's pages, prepared by `prepare` (in this thread unless a PagePool's) and checked against their requests. */
export function pageReader(stream: StreamDefinition, api: V3Api, filters: unknown, prepare: PagePreparer = inThisThread): PageReader {
  return async (request) => {
    const read = (body: Uint8Array): Promise<CheckedPage> => checkedPageOf(stream, body, prepare);
    const page = await api.listRead(stream.endpoint, stream.query(filters, request), read, { metadata: stream.metadata, signal: request.signal });
    checkPage(stream, request, page.ok, page.received);
    return page;
  };
}

/** A reject as the warehouse keeps it: the item as sent (exact numbers), the secret scope's keys redacted. */
export function rejectOf(text: RejectText): Reject {
  const redactor = activeRedactor();
  return { raw: redactor.redactValue(parseJson(text.json)), reason: redactor.redact(text.reason) };
}

async function checkedPageOf(stream: StreamDefinition, body: Uint8Array, prepare: PagePreparer): Promise<CheckedPage> {
  const prepared = await prepare(stream, body);
  if (prepared.kind !== 'page') throw bodyError(stream, prepared);
  const { page } = prepared;
  return {
    ok: page.ok,
    rejects: page.rejects.map((reject) => ({ ...rejectOf(reject), identity: reject.identity })),
    received: page.received,
    addressBook: page.book,
    ordered: page.ordered,
  };
}

/** The error of a body that is no page: not JSON and an error in the body are retried, not a list fails the run. */
export function bodyError(stream: Pick<StreamDefinition, 'endpoint' | 'itemsKey'>, body: Exclude<PreparedBody, { kind: 'page' }>): Error {
  if (body.kind === 'not-json') return new NotJsonError(body.detail, body.startsWithTag);
  if (body.kind === 'error-body') return new ErrorInBodyError(body.shown);
  return notAList(stream.endpoint, stream.itemsKey, body.shown);
}
