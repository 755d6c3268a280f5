/**
 * A stream's filter lists against the URL the client keeps to (MAX_QUERY_BYTES): the pipeline is
 * refused at load when a request of the stream would carry a longer query, since the service (or the
 * proxy before it) refuses such a URL on every attempt and the run would stop part-way.
 */
import { z } from 'zod';
import { MAX_QUERY_BYTES, queryBytes } from '../api/url-limit.js';
import { MAX_LIMIT } from '../api/v3.js';
import { byKind, presentFilters, type AnyStream } from '../core/stream.js';
import type { QueryParams } from '../core/query-params.js';
import '../options/meta.js';

const UINT64_MAX = 2n ** 64n - 1n;

/** A list filter too long for one request: which, how many items, and how many of them fit. */
export interface LongList {
  readonly filter: string;
  readonly given: number;
  readonly fitting: number;
  readonly bytes: number;
}

/**
 * The list filter (those whose schema declares `listOf`) that makes the stream's request longer
 * than MAX_QUERY_BYTES, counted at the widest paging parameters with the filters as sent (addresses
 * raw); the one with the most items when several together do. Undefined when every request fits.
 */
export function longListIn(stream: AnyStream, filters: Readonly<Record<string, unknown>>): LongList | undefined {
  const lists = Object.entries(filters).filter(
    (entry): entry is [string, readonly unknown[]] => listNoun(stream, entry[0]) !== undefined && Array.isArray(entry[1]),
  );
  if (lists.length === 0) return undefined;
  const bytesWith = (override: Readonly<Record<string, unknown>>): number => queryBytes(widestQuery(stream, { ...filters, ...override }));
  const bytes = bytesWith({});
  if (bytes <= MAX_QUERY_BYTES) return undefined;
  const [filter, items] = lists.reduce((longest, list) => (list[1].length > longest[1].length ? list : longest));
  return { filter, given: items.length, fitting: mostFitting(items.length, (count) => bytesWith({ [filter]: items.slice(0, count) })), bytes };
}

/** The largest count in [0, given) whose request fits, by bisection (bytes grow with the count). */
function mostFitting(given: number, bytesOf: (count: number) => number): number {
  let fits = 0;
  let tooMany = given;
  while (tooMany - fits > 1) {
    const middle = Math.floor((fits + tooMany) / 2);
    if (bytesOf(middle) <= MAX_QUERY_BYTES) fits = middle;
    else tooMany = middle;
  }
  return fits;
}

/** The stream's query with its largest position bounds, page size and offset. */
function widestQuery(stream: AnyStream, filters: Readonly<Record<string, unknown>>): QueryParams {
  const resolved = presentFilters(filters);
  const page = { limit: MAX_LIMIT, offset: Number.MAX_SAFE_INTEGER };
  return byKind(stream, {
    position: (positioned) => positioned.query(resolved, { ...page, from: UINT64_MAX, to: UINT64_MAX }),
    snapshot: (snapshot) => snapshot.query(resolved, page),
  });
}

/** `95 addresses make …: at most 85 fit; split …`, the end of the pipeline file's error line. */
export function tooLongMessage(stream: AnyStream, long: LongList): string {
  const items = listNoun(stream, long.filter) ?? 'items';
  return (
    `${long.given} ${items} make each request of ${stream.name} too long for a URL (a query of ${long.bytes} bytes, the most ${MAX_QUERY_BYTES}: ` +
    `proxies such as nginx refuse a request line over 8 KB): at most ${long.fitting} fit; split them over several pipelines of at most ${long.fitting} ${items} each`
  );
}

/** What the filter lists, when it is a list (its schema's `listOf`). */
function listNoun(stream: AnyStream, filter: string): string | undefined {
  const schema = stream.filters[filter];
  return schema === undefined ? undefined : z.globalRegistry.get(schema)?.listOf;
}
