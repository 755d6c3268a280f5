/**
 * Calls to the v3 index used by the ETL: the indexed head, masterchain blocks, and one list call
 * that every stream's request goes through (each stream declares its path, items key and query).
 * Lists always go `sort=asc` with an explicit `limit`, and the lt-paged endpoints accept no utime
 * filter (it would switch the sort column; docs/design.md §2). Pages come back raw (after an envelope
 * check): each stream owns its item schema.
 */
import { z } from 'zod';
import { FatalError } from '../core/errors.js';
import type { QueryParams } from '../core/query-params.js';
import type { PageRequest, SnapshotPageRequest } from '../core/stream.js';
import { ApiContractError } from './errors.js';
import { preview, type BodyReader } from './body.js';
import type { ApiClient } from './http-client.js';
import { describeIssues, looseObject, safeUint, uint64String } from './wire.js';

/** The largest page the service serves (above → 422). */
export const MAX_LIMIT = 1000;

export const masterchainBlock = looseObject({
  workchain: z.number().int(),
  shard: z.string(),
  seqno: safeUint,
  root_hash: z.string(),
  file_hash: z.string(),
  gen_utime: safeUint,
  start_lt: uint64String,
  end_lt: uint64String,
});

export type MasterchainBlock = z.output<typeof masterchainBlock>;

/** Oldest and newest indexed masterchain blocks; `last` is the indexer's high-water mark, not the chain head. */
export const masterchainInfo = looseObject({
  last: masterchainBlock,
  first: masterchainBlock.optional(),
});

export type MasterchainInfo = z.output<typeof masterchainInfo>;

const masterchainBlocks = looseObject({ blocks: z.array(masterchainBlock) });

/** The masterchain's workchain and shard, sent with every `/blocks` request. */
const MASTERCHAIN = { workchain: -1, shard: '8000000000000000' } as const;

export interface CallOptions {
  /** Ask for `address_book` (false sends `X-No-Address-Book: true`). @default true */
  readonly addressBook?: boolean;
  /** Ask for `metadata` (false sends `X-No-Metadata: true`). @default true */
  readonly metadata?: boolean;
  /** Cancels the call (waiting, retries, request in flight). @default undefined */
  readonly signal?: AbortSignal;
}

/** A list response: the items array under its key, the rest (address_book, metadata, …) untouched. */
export type V3Page<K extends string> = Readonly<Record<K, readonly unknown[]>> & Readonly<Record<string, unknown>>;

export class V3Api {
  readonly #http: ApiClient;

  constructor(http: ApiClient) {
    this.#http = http;
  }

  async masterchainInfo(options: Pick<CallOptions, 'signal'> = {}): Promise<MasterchainInfo> {
    return this.#parsed('/api/v3/masterchainInfo', {}, masterchainInfo, options.signal);
  }

  /** Masterchain blocks matching `query` (seqno, lt or utime bounds, sort, limit). */
  async masterchainBlocks(query: QueryParams, options: Pick<CallOptions, 'signal'> = {}): Promise<MasterchainBlock[]> {
    return (await this.#parsed('/api/v3/blocks', { ...MASTERCHAIN, ...query }, masterchainBlocks, options.signal)).blocks;
  }

  /** One page of a list: the items under `key`, the rest of the response (address_book…) as sent. */
  async list<K extends string>(endpoint: string, key: K, query: QueryParams, options: CallOptions = {}): Promise<V3Page<K>> {
    const body = await this.#http.get(endpoint, query, {
      headers: enrichmentHeaders(options),
      signal: options.signal,
    });
    if (!isListPage(body, key)) throw notAList(endpoint, key, preview(body));
    return body;
  }

  /**
   * One page of a list as `read` makes it of the body's bytes (parsed, checked against the list's
   * envelope with `isListPage`/`notAList`, turned into rows), inside the request's attempt.
   */
  async listRead<T>(endpoint: string, query: QueryParams, read: BodyReader<T>, options: CallOptions = {}): Promise<T> {
    return this.#http.get(endpoint, query, { headers: enrichmentHeaders(options), signal: options.signal, read });
  }

  async #parsed<T>(endpoint: string, query: QueryParams, schema: z.ZodType<T>, signal: AbortSignal | undefined): Promise<T> {
    const body = await this.#http.get(endpoint, query, { signal });
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new ApiContractError(`GET ${endpoint}: unexpected response: ${describeIssues(parsed.error)}`, {
        endpoint,
        cause: parsed.error,
      });
    }
    return parsed.data;
  }
}

/** Headers that switch off the `address_book` / `metadata` enrichment when a stream does not need it. */
export function enrichmentHeaders(options: Pick<CallOptions, 'addressBook' | 'metadata'>): Record<string, string> {
  const headers: Record<string, string> = {};
  if (options.addressBook === false) headers['X-No-Address-Book'] = 'true';
  if (options.metadata === false) headers['X-No-Metadata'] = 'true';
  return headers;
}

/** The paging of an lt-paged list: inclusive bounds, limit, offset, ascending; checked before any request. */
export function ltPage(page: PageRequest): QueryParams {
  if (page.from > page.to) {
    throw new FatalError(`Expected start_lt ≤ end_lt, got ${page.from} > ${page.to}`);
  }
  return {
    start_lt: page.from,
    end_lt: page.to,
    limit: checkedLimit(page.limit),
    offset: page.offset,
    sort: 'asc',
  };
}

/** The paging of a utime-paged list (bounds on the endpoint's own time column), as `ltPage` pages by lt. */
export function utimePage(page: PageRequest): QueryParams {
  if (page.from > page.to) {
    throw new FatalError(`Expected start_utime ≤ end_utime, got ${page.from} > ${page.to}`);
  }
  return {
    start_utime: Number(page.from),
    end_utime: Number(page.to),
    limit: checkedLimit(page.limit),
    offset: page.offset,
    sort: 'asc',
  };
}

/** The paging of a snapshot (docs/design.md §2): limit and offset only, no sort, so the service keeps its stable internal-id order. */
export function snapshotPage(page: SnapshotPageRequest): QueryParams {
  return { limit: checkedLimit(page.limit), offset: page.offset };
}

/** A page size the service serves; anything else fails before the request. */
export function checkedLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new FatalError(`Expected limit to be an integer from 1 to ${MAX_LIMIT}, got ${String(limit)}`);
  }
  return limit;
}

/** Whether a parsed body is a list page: an object with an array under `key`. */
export function isListPage<K extends string>(body: unknown, key: K): body is V3Page<K> {
  return typeof body === 'object' && body !== null && Array.isArray((body as Record<string, unknown>)[key]);
}

/** The error of a body that is not a list page; `shown` is `preview` of the body. */
export function notAList(endpoint: string, key: string, shown: string): ApiContractError {
  return new ApiContractError(`GET ${endpoint}: expected an object with a "${key}" array, got ${shown}`, { endpoint });
}

