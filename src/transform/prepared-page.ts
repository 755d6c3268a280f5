/**
 * A page's CPU work as one pure function of its body's bytes (docs/design.md §4): JSON.parse, the
 * list's envelope, item validation, the settled filter, the inputs of the page check (position and
 * key of each item, the promised order) and the rows of every item and of the address book. It runs
 * in a worker thread (page-worker.ts) or in the main thread alike; everything it returns survives
 * a structured clone (no class instances: rejects travel as their exact JSON text).
 */
import { ErrorInBodyError, jsonBody, NotJsonError, preview } from '../api/body.js';
import { isListPage, type V3Page } from '../api/v3.js';
import { parseItems } from '../api/wire.js';
import { exactJson } from '../core/exact-json.js';
import type { RowsByTable, SnapshotDefinition, StreamDefinition } from '../core/stream.js';
import type { Row } from '../core/table.js';
import { addressRows } from './address-book.js';

/**
 * A valid, settled item as paging and loading need it: where it stands (a snapshot item: its place
 * in the service's stable order), who it is, its rows.
 */
export interface PreparedItem {
  readonly position: bigint;
  readonly key: string;
  readonly rows: RowsByTable;
  /** Until when the service may change the item (`StreamDefinition.openUntil`), for streams that declare it. */
  readonly openUntil?: bigint;
}

/** A reject as it crosses threads: the item's exact JSON text (not yet redacted) and why it failed. */
export interface RejectText {
  readonly json: string;
  readonly reason: string;
}

/**
 * An address book as rows, by the key the service sent each entry under, so that books of several
 * pages merge as the raw books did (a later page's entry replaces an earlier one's).
 */
export type PreparedBook = Readonly<Record<string, { readonly row: Row } | { readonly reject: RejectText }>>;

/** The key a book that is not an object at all files its one reject under (no address looks like it). */
const NOT_A_BOOK = '\u0000address_book';

export interface PreparedPage {
  readonly ok: PreparedItem[];
  readonly rejects: (RejectText & { readonly identity: string })[];
  readonly received: number;
  readonly book: PreparedBook | undefined;
  readonly ordered: boolean;
}

/** What a body becomes: a page, or why it is none (the caller turns that into today's errors). */
export type PreparedBody =
  | { readonly kind: 'page'; readonly page: PreparedPage }
  | { readonly kind: 'not-json'; readonly detail: string; readonly startsWithTag: boolean }
  | { readonly kind: 'not-a-list'; readonly shown: string }
  | { readonly kind: 'error-body'; readonly shown: string };

export function preparePage<Item>(stream: StreamDefinition<Item, never>, body: Uint8Array): PreparedBody {
  const read = listResponse(stream.itemsKey, body);
  if (read.kind !== 'list') return read;
  const parsed = read.response;
  const raw = parsed[stream.itemsKey] ?? [];
  const { ok: valid, rejects } = parseItems(stream.item, raw);
  const ok = valid.filter((item) => stream.settled?.(item) ?? true);
  return {
    kind: 'page',
    page: {
      ok: ok.map((item) => ({
        position: stream.position(item),
        key: stream.key(item),
        rows: stream.toRows(item),
        ...(stream.openUntil === undefined ? {} : { openUntil: stream.openUntil(item) }),
      })),
      rejects: rejects.map((reject) => ({ json: exactJson(reject.raw), reason: reject.reason, identity: rejectIdentity(stream, reject.raw) })),
      received: raw.length,
      book: preparedBook(parsed.address_book),
      ordered: inPromisedOrder(stream, ok),
    },
  };
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

/**
 * Whether the items keep the order the stream promises within a position, each after `after` too
 * when it shares its position: strictly, so that no item can be both before and after an offset.
 */
export function inPromisedOrder<Item, Filters>(stream: StreamDefinition<Item, Filters>, items: readonly Item[], after?: Item): boolean {
  if (stream.orderWithinPosition === undefined) return false;
  let previous = after;
  for (const item of items) {
    if (previous !== undefined && stream.position(previous) === stream.position(item) && stream.orderWithinPosition(previous, item) >= 0) return false;
    previous = item;
  }
  return true;
}

/** A snapshot page prepared: its items' rows stamped with the snapshot's time, and what its pager checks the overlap by. */
export interface PreparedSnapshotPage {
  readonly ok: PreparedItem[];
  readonly rejects: RejectText[];
  readonly received: number;
  readonly book: PreparedBook | undefined;
  /** The first and the last listed item: `key <key>`, or `raw <exact JSON>` for one that does not parse (a reject still marks its place); undefined for an empty list. */
  readonly edges: { readonly first: string; readonly last: string } | undefined;
}

export type PreparedSnapshotBody = Exclude<PreparedBody, { kind: 'page' }> | { readonly kind: 'page'; readonly page: PreparedSnapshotPage };

/**
 * A snapshot stream's page as `preparePage` prepares a position stream's: each item as the stream
 * reads it (`withResponse`), validated, its rows stamped with `time`; an item's position is its place
 * in the service's stable order (`offset` plus its index in the list).
 */
export function prepareSnapshotPage<Item>(stream: SnapshotDefinition<Item, never>, body: Uint8Array, at: { readonly time: number; readonly offset: number }): PreparedSnapshotBody {
  const read = listResponse(stream.itemsKey, body);
  if (read.kind !== 'list') return read;
  const { response } = read;
  const listed = response[stream.itemsKey] ?? [];
  const raw = stream.withResponse === undefined ? listed : listed.map((item) => stream.withResponse!(item, response));
  const ok: PreparedItem[] = [];
  const rejects: RejectText[] = [];
  const identities: string[] = [];
  raw.forEach((item, index) => {
    const { ok: valid, rejects: failed } = parseItems(stream.item, [item]);
    const read = valid[0];
    if (read !== undefined) {
      const key = stream.key(read);
      ok.push({ position: BigInt(at.offset + index), key, rows: stream.toRows(read, at.time) });
      identities.push(`key ${key}`);
    } else {
      const json = exactJson(failed[0]!.raw);
      rejects.push({ json, reason: failed[0]!.reason });
      identities.push(`raw ${json}`);
    }
  });
  const edges = identities.length === 0 ? undefined : { first: identities[0]!, last: identities[identities.length - 1]! };
  return { kind: 'page', page: { ok, rejects, received: raw.length, book: preparedBook(response.address_book), edges } };
}

/** The body as a list response (an object with an array under `key`), or why it is none. */
function listResponse(key: string, body: Uint8Array): { readonly kind: 'list'; readonly response: V3Page<string> } | Exclude<PreparedBody, { kind: 'page' }> {
  let parsed: unknown;
  try {
    parsed = jsonBody(body);
  } catch (err) {
    if (err instanceof ErrorInBodyError) return { kind: 'error-body', shown: err.shown };
    if (!(err instanceof NotJsonError)) throw err;
    return { kind: 'not-json', detail: err.detail, startsWithTag: err.startsWithTag };
  }
  return isListPage(parsed, key) ? { kind: 'list', response: parsed } : { kind: 'not-a-list', shown: preview(parsed) };
}

function preparedBook(book: unknown): PreparedBook | undefined {
  if (book === undefined || book === null) return undefined;
  if (typeof book !== 'object' || Array.isArray(book)) return { [NOT_A_BOOK]: { reject: onlyReject(addressRows(book)) } };
  // No prototype: an entry under "__proto__" is an entry like any other.
  const prepared: Record<string, { row: Row } | { reject: RejectText }> = Object.create(null) as Record<string, never>;
  for (const [address, entry] of Object.entries(book)) {
    const parsed = addressRows({ [address]: entry });
    const row = parsed.ok[0];
    prepared[address] = row === undefined ? { reject: onlyReject(parsed) } : { row };
  }
  return prepared;
}

function onlyReject(parsed: ReturnType<typeof addressRows>): RejectText {
  const reject = parsed.rejects[0]!;
  return { json: exactJson(reject.raw), reason: reject.reason };
}
