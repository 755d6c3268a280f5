/**
 * A stream: one kind of API item, how to fetch a page of it, and how it becomes rows. Declared once
 * in its own file under src/streams/, registered with one line in src/streams/index.ts.
 */
import type { z } from 'zod';
import type { V3Api, V3Page } from '../api/v3.js';
import type { AnyTable } from './table.js';
import type { Row } from '../load/sink.js';

/** What a stream pages and checkpoints on: logical time, or unix time where the API has no lt filter. */
export type PositionAxis = 'lt' | 'utime';

/** One request of a page: items with position in [from, to] (inclusive), ascending. */
export interface PageRequest {
  readonly from: bigint;
  readonly to: bigint;
  readonly limit: number;
  /** Items of position `from` to skip: non-zero inside a position holding more items than a page, or after a full page of a stream with `orderWithinPosition`. */
  readonly offset: number;
  readonly signal?: AbortSignal;
}

/** Rows per table name, as `toRows` returns them. */
export type RowsByTable = ReadonlyMap<string, readonly Row[]>;

export interface StreamDefinition<Item = unknown, Filters = unknown> {
  /** Stream name as written in pipeline files. */
  readonly name: string;
  /** What the stream holds, for help and the README. */
  readonly doc: string;
  /** Tables its rows go to (the `addresses` dimension is filled by every stream from address books). */
  readonly tables: readonly AnyTable[];
  readonly axis: PositionAxis;
  /** API path it reads, e.g. `/api/v3/transactions` (for rejects and stats). */
  readonly endpoint: string;
  /** Where the items are in a response page. */
  readonly itemsKey: string;
  /** The item's wire schema: the API's JSON → a validated Item (bigints for 64-bit values). */
  readonly item: z.ZodType<Item>;
  /** Re-scanned over a trailing overlap on every run and replaced by `replaceBy` (actions: trace completion is late). */
  readonly rescansOverlap: boolean;
  /**
   * The order the service promises for items sharing a position (transactions: by account), a total
   * order; undefined when it promises none. Where a page is verified to keep it, a full page
   * continues inside its last position by offset instead of reading that position again
   * (docs/design.md §2). A stream whose tables are replaced by a group sharing a position (actions
   * by trace) declares none: each of its positions must arrive in one page.
   */
  orderWithinPosition?(a: Item, b: Item): number;
  /** Fetches one page; filters are the pipeline's, already normalised. */
  fetchPage(api: V3Api, filters: Filters, request: PageRequest): Promise<V3Page<string>>;
  /** The item's position on the stream's axis (tx lt, trace_end_lt, utime…). */
  position(item: Item): bigint;
  /** Identity of the item within the stream (dedupes items seen twice at a page edge). */
  key(item: Item): string;
  /** Pure and synchronous: the rows one item contributes to each table. */
  toRows(item: Item): RowsByTable;
}

/** Identity helper that keeps a definition's item and filter types. */
export function defineStream<Item, Filters>(definition: StreamDefinition<Item, Filters>): StreamDefinition<Item, Filters> {
  return definition;
}
