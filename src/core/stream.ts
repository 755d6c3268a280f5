/**
 * A stream: the filters a pipeline file may give it, the request of one page, the API item it reads
 * and the rows an item becomes. Declared once in its own file under src/streams/ and registered with
 * one line in src/streams/index.ts; the pipeline schema, its docs and the API calls come from there.
 */
import type { z } from 'zod';
import type { QueryParams } from './query-params.js';
import type { AnyTable, Row, RowOf } from './table.js';

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

/**
 * A stream's filters as the pipeline file writes them under `streams.<name>`: each key a zod schema
 * (optional: none means the whole chain) whose `.meta({ description, typeLabel })` documents it.
 */
export type FilterShape = z.ZodRawShape;

/** A stream's filters as `query` receives them, in the pipeline file's names: an absent filter absent (no key holding `undefined`). */
export function presentFilters(filters: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined));
}

/** The filters a shape resolves to (what `query` receives): the pipeline file's names, an absent filter absent. */
export type FiltersOf<Shape extends FilterShape> = {
  readonly [Name in keyof z.output<z.ZodObject<Shape>>]?: Exclude<z.output<z.ZodObject<Shape>>[Name], undefined>;
};

/** What every stream declares, whether paged by a position or read as a snapshot. */
export interface StreamBase<Item, Filters> {
  /** Stream name as written in pipeline files. */
  readonly name: string;
  /** What the stream holds, one sentence for the pipeline file's docs (`streams.<name>`). */
  readonly doc: string;
  /** Its filters in the pipeline file's names (config builds `streams.<name>` and its docs from them). */
  readonly filters: FilterShape;
  /**
   * A problem its filters make together though each is valid alone, as the end of the pipeline
   * file's error message ("…: remove one of them"); undefined when there is none. Config refuses the
   * file with it before any request.
   */
  conflictIn?(filters: Filters): string | undefined;
  /** Tables its rows go to (the `addresses` dimension is filled by every stream from address books). */
  readonly tables: readonly AnyTable[];
  /** API path it reads, e.g. `/api/v3/transactions` (also names it in rejects and errors). */
  readonly endpoint: string;
  /** Where the items are in a response page. */
  readonly itemsKey: string;
  /** Whether the stream asks for the response's `metadata` (false sends `X-No-Metadata: true`). */
  readonly metadata: boolean;
  /** The item's wire schema: the API's JSON → a validated Item (bigints for 64-bit values). */
  readonly item: z.ZodType<Item>;
  /** The largest page the service serves for this stream's query (100 where a response lists members), when below the run's page size. */
  readonly maxPageLimit?: number;
  /** Identity of the item within the stream (dedupes items seen twice at a page edge; a snapshot's key seen twice breaks its paging contract). */
  key(item: Item): string;
}

export interface StreamDefinition<Item = unknown, Filters = unknown> extends StreamBase<Item, Filters> {
  readonly axis: PositionAxis;
  /** The query of one page, its keys in the order they are sent. */
  query(filters: Filters, page: PageRequest): QueryParams;
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
  /**
   * Whether an item the service lists is final (traces: complete). One that is not is left out as
   * soon as its page is parsed, as if not listed yet: its position may still move, so it takes no
   * part in the page's checks, and a later run reads it once final (docs/design.md §2). Undefined:
   * every listed item is final.
   */
  settled?(item: Item): boolean;
  /**
   * Unix time until which the service may still change what it lists for the item (a validator
   * cycle's complaints, until its stakes are released). A sync reads the stream again from the
   * earliest item whose time had not passed at the settled tip of the run that read it (the
   * checkpoint's `open`). Undefined: an item never changes once listed.
   */
  openUntil?(item: Item): bigint;
  /** The item's position on the stream's axis (tx lt, trace_end_lt, utime…). */
  position(item: Item): bigint;
  /** Pure and synchronous: the rows one item contributes to each table. */
  toRows(item: Item): RowsByTable;
}

/** Identity helper that keeps a definition's name and item type and takes its filter type from its filter shape. */
export function defineStream<const Name extends string, Item, const Shape extends FilterShape>(
  definition: StreamDefinition<Item, FiltersOf<Shape>> & { readonly name: Name; readonly filters: Shape },
): StreamDefinition<Item, FiltersOf<Shape>> & { readonly name: Name } {
  return definition;
}

/** A typed `[table name, rows]` entry of `toRows`: `new Map([tableRows(t, rows)])`. */
export function tableRows<T extends AnyTable>(table: T, rows: readonly RowOf<T>[]): [string, readonly Row[]] {
  return [table.name, rows];
}

/** One request of a snapshot page: `limit` items from `offset` in the service's stable order. */
export interface SnapshotPageRequest {
  readonly limit: number;
  readonly offset: number;
  readonly signal?: AbortSignal;
}

/**
 * A snapshot stream: state, not events (jetton wallets, NFT items). The service lists the current
 * state in a stable order and has no position filter, so every run reads the whole scope its filters
 * select by offset, stamps each row with the run's `snapshot_time`, upserts by key, and at the end
 * deletes the rows it did not see (docs/design.md §2). A pipeline may run it less often (`refresh`).
 */
export interface SnapshotDefinition<Item = unknown, Filters = unknown> extends StreamBase<Item, Filters> {
  readonly kind: 'snapshot';
  /** The query of one page (filters, limit, offset; never a sort, which would leave the stable order). */
  query(filters: Filters, page: SnapshotPageRequest): QueryParams;
  /**
   * The item as the stream reads it, when part of it comes in the response beside the list
   * (jetton_masters: its entry of `metadata`); the raw item itself when absent.
   */
  withResponse?(raw: unknown, response: Readonly<Record<string, unknown>>): unknown;
  /** Pure and synchronous: the rows one item contributes to each table (each has `snapshot_time`), stamped with the snapshot's time (unix seconds). */
  toRows(item: Item, snapshotTime: number): RowsByTable;
  /** Keys other streams' rows name, read by key beside the scope when the run has those streams (docs/design.md §2). */
  readonly byKey?: SnapshotByKey;
}

/** A column of another stream's table whose values are keys of a snapshot stream (jetton_transfers.jetton_master). */
export interface NamingColumn {
  readonly table: string;
  readonly column: string;
}

/**
 * How a snapshot stream reads the items other streams name (jetton_masters: the masters of stored
 * transfers and burns), whatever its filters: those its table lacks, or that its snapshot did not
 * list, are asked for by key, `param` repeated once per key, one page per request (a key is at most
 * one item).
 */
export interface SnapshotByKey {
  readonly namedBy: readonly NamingColumn[];
  /** The list filter that selects items by key (`address`). */
  readonly param: string;
  /** The most keys one request may name (the service's limit on that filter). */
  readonly maxKeys: number;
}

/** Any registered stream: paged by a position, or read whole as a snapshot. */
export type AnyStream = StreamDefinition | SnapshotDefinition;

export function isSnapshot(stream: AnyStream): stream is SnapshotDefinition {
  return 'kind' in stream && stream.kind === 'snapshot';
}

/** What to do with a stream of each kind: paged by a position, or read whole as a snapshot. */
export interface ByKind<T> {
  position(stream: StreamDefinition): T;
  snapshot(stream: SnapshotDefinition): T;
}

/**
 * `on`'s function for the stream's kind. Code outside the pagers and the plan that treats the kinds
 * apart goes through here, so that a new kind is a compile error at each place that must decide.
 */
export function byKind<T>(stream: AnyStream, on: ByKind<T>): T {
  return isSnapshot(stream) ? on.snapshot(stream) : on.position(stream);
}

/** As `defineStream`, for a snapshot stream. */
export function defineSnapshot<const Name extends string, Item, const Shape extends FilterShape>(
  definition: SnapshotDefinition<Item, FiltersOf<Shape>> & { readonly name: Name; readonly filters: Shape },
): SnapshotDefinition<Item, FiltersOf<Shape>> & { readonly name: Name } {
  return definition;
}
