/**
 * A window's pages read through `preparePage`, in a worker thread (page-pool.ts) or in this one:
 * the body's bytes go to it inside the request's attempt (a body that is not JSON is retried as
 * before), and what comes back is checked against the request here (page-check.ts). Rejects are
 * redacted here, in the command's secret scope: the key never goes to a worker.
 */
import { ErrorInBodyError, NotJsonError } from '../../api/body.js';
import { notAList, type V3Api } from '../../api/v3.js';
import { parseJson } from '../../core/exact-json.js';
import { activeRedactor } from '../../core/secret-scope.js';
import type { StreamDefinition } from '../../core/stream.js';
import type { CheckedPage, PagedStream, PageReader, Reject } from '../../extract/checked-page.js';
import { checkPage } from '../../extract/page-check.js';
import { preparePage, type PreparedBody, type PreparedItem, type RejectText } from './prepared-page.js';

/** Runs `preparePage` for a stream's body somewhere: `inThisThread`, or a PagePool's `prepare`. */
export type PagePreparer = (stream: StreamDefinition, body: Uint8Array) => Promise<PreparedBody>;

export const inThisThread: PagePreparer = async (stream, body) => preparePage(stream, body);

/** The stream's pages, prepared by `prepare` and checked against their requests. */
export function preparedPages(stream: StreamDefinition, api: V3Api, filters: unknown, prepare: PagePreparer): PageReader<PreparedItem> {
  const view = preparedView(stream);
  return async (request) => {
    const read = (body: Uint8Array): Promise<CheckedPage<PreparedItem>> => checkedPageOf(stream, body, prepare);
    const page = await api.listRead(stream.endpoint, stream.query(filters, request), read, { metadata: stream.metadata, signal: request.signal });
    checkPage(view, request, page.ok, page.received);
    return page;
  };
}

/** The stream as paging sees its prepared items. */
export function preparedView(stream: StreamDefinition): PagedStream<PreparedItem> {
  return { endpoint: stream.endpoint, axis: stream.axis, position: (item) => item.position, key: (item) => item.key };
}

/** A reject as the warehouse keeps it: the item as sent (exact numbers), the secret scope's keys redacted. */
export function rejectOf(text: RejectText): Reject {
  const redactor = activeRedactor();
  return { raw: redactor.redactValue(parseJson(text.json)), reason: redactor.redact(text.reason) };
}

async function checkedPageOf(stream: StreamDefinition, body: Uint8Array, prepare: PagePreparer): Promise<CheckedPage<PreparedItem>> {
  const prepared = await prepare(stream, body);
  if (prepared.kind === 'not-json') throw new NotJsonError(prepared.detail, prepared.startsWithTag);
  if (prepared.kind === 'error-body') throw new ErrorInBodyError(prepared.shown);
  if (prepared.kind === 'not-a-list') throw notAList(stream.endpoint, stream.itemsKey, prepared.shown);
  const { page } = prepared;
  return {
    ok: page.ok,
    rejects: page.rejects.map((reject) => ({ ...rejectOf(reject), identity: reject.identity })),
    received: page.received,
    addressBook: page.book,
    ordered: page.ordered,
  };
}
