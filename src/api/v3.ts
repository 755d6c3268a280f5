/**
 * Typed calls to the v3 index used by the ETL. Lists always go `sort=asc` with an explicit `limit`,
 * and the lt-paged endpoints accept no utime filter (it would switch the sort column;
 * docs/design.md §2). Pages come back raw (after an envelope check): each stream owns its item
 * schema.
 */
import { z } from 'zod';
import { FatalError } from '../core/errors.js';
import { ApiContractError } from './errors.js';
import type { ApiClient } from './http-client.js';
import type { QueryParams } from './query.js';
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

export interface CallOptions {
  /** Ask for `address_book` (false sends `X-No-Address-Book: true`). @default true */
  readonly addressBook?: boolean;
  /** Ask for `metadata` (false sends `X-No-Metadata: true`). @default true */
  readonly metadata?: boolean;
  /** Cancels the call (waiting, retries, request in flight). @default undefined */
  readonly signal?: AbortSignal;
}

/** Inclusive lt bounds and paging shared by the lt-paged lists. */
export interface LtPage {
  /** Lower bound, inclusive. */
  readonly start_lt: bigint;
  /** Upper bound, inclusive (the run's frozen tip). */
  readonly end_lt: bigint;
  /** @default 1000 */
  readonly limit?: number;
  /** Only inside one lt (the tie fallback); page by lt otherwise. @default 0 */
  readonly offset?: number;
}

export interface TransactionsParams extends LtPage {
  /** Accounts, any address form; absent means all. @default undefined */
  readonly account?: readonly string[];
}

export interface ActionsParams extends LtPage {
  /** Pinned type set (`v5`, `latest`, names, groups) so classification stays stable across runs. */
  readonly supported_action_types: readonly string[];
  /** One account (the server reads a single value). @default undefined */
  readonly account?: string;
  /** @default undefined */
  readonly action_type?: readonly string[];
  /** @default undefined */
  readonly exclude_action_type?: readonly string[];
  /** Restrict to traces (re-scan of an overlap). @default undefined */
  readonly trace_id?: readonly string[];
  /** Adds `accounts[]` to each action. @default true */
  readonly include_accounts?: boolean;
  /** Adds `transactions_full[]` to each action. @default false */
  readonly include_transactions?: boolean;
}

export interface JettonTransfersParams extends LtPage {
  /** Source or destination owners. @default undefined */
  readonly owner_address?: readonly string[];
  /** @default undefined */
  readonly jetton_wallet?: readonly string[];
  /** One jetton master (the server reads a single value). @default undefined */
  readonly jetton_master?: string;
  /** Only with owner_address. @default undefined (both) */
  readonly direction?: 'in' | 'out';
}

/** Validator events have no lt filter: they page by utime windows on `tx_now`. */
export interface ValidatorEventsParams {
  /** Inclusive. */
  readonly start_utime: number;
  /** Inclusive. */
  readonly end_utime: number;
  /** Not together with adnl_address. @default undefined */
  readonly stake_holder_address?: string;
  /** @default undefined */
  readonly adnl_address?: string;
  /** @default undefined */
  readonly validator_pubkey?: string;
  /** @default undefined (all types) */
  readonly type?: 'stake_accepted' | 'stake_rejected' | 'stake_recovered';
  /** @default 1000 */
  readonly limit?: number;
  /** Not supported by builds before 2026-07 (#432): prefer shrinking the window. @default undefined */
  readonly offset?: number;
}

/** A list response: the items array under its key, the rest (address_book, metadata, …) untouched. */
export type V3Page<K extends string> = Readonly<Record<K, readonly unknown[]>> & Readonly<Record<string, unknown>>;

export class V3Api {
  readonly #http: ApiClient;

  constructor(http: ApiClient) {
    this.#http = http;
  }

  async masterchainInfo(options: Pick<CallOptions, 'signal'> = {}): Promise<MasterchainInfo> {
    const endpoint = '/api/v3/masterchainInfo';
    const body = await this.#http.get(endpoint, {}, { signal: options.signal });
    const parsed = masterchainInfo.safeParse(body);
    if (!parsed.success) {
      throw new ApiContractError(`GET ${endpoint}: unexpected response: ${describeIssues(parsed.error)}`, {
        endpoint,
        cause: parsed.error,
      });
    }
    return parsed.data;
  }

  async transactions(params: TransactionsParams, options: CallOptions = {}): Promise<V3Page<'transactions'>> {
    return this.#list('/api/v3/transactions', 'transactions', { ...ltQuery(params), account: params.account }, options);
  }

  async actions(params: ActionsParams, options: CallOptions = {}): Promise<V3Page<'actions'>> {
    return this.#list(
      '/api/v3/actions',
      'actions',
      {
        ...ltQuery(params),
        account: params.account,
        supported_action_types: params.supported_action_types,
        action_type: params.action_type,
        exclude_action_type: params.exclude_action_type,
        trace_id: params.trace_id,
        include_accounts: params.include_accounts ?? true,
        include_transactions: params.include_transactions,
      },
      options,
    );
  }

  async jettonTransfers(params: JettonTransfersParams, options: CallOptions = {}): Promise<V3Page<'jetton_transfers'>> {
    return this.#list(
      '/api/v3/jetton/transfers',
      'jetton_transfers',
      {
        ...ltQuery(params),
        owner_address: params.owner_address,
        jetton_wallet: params.jetton_wallet,
        jetton_master: params.jetton_master,
        direction: params.direction,
      },
      options,
    );
  }

  async validatorEvents(params: ValidatorEventsParams, options: CallOptions = {}): Promise<V3Page<'events'>> {
    return this.#list(
      '/api/v3/validators/events',
      'events',
      {
        start_utime: params.start_utime,
        end_utime: params.end_utime,
        stake_holder_address: params.stake_holder_address,
        adnl_address: params.adnl_address,
        validator_pubkey: params.validator_pubkey,
        type: params.type,
        limit: checkedLimit(params.limit),
        offset: params.offset,
        sort: 'asc',
      },
      options,
    );
  }

  async #list<K extends string>(endpoint: string, key: K, query: QueryParams, options: CallOptions): Promise<V3Page<K>> {
    const body = await this.#http.get(endpoint, query, {
      headers: enrichmentHeaders(options),
      signal: options.signal,
    });
    if (typeof body !== 'object' || body === null || !Array.isArray((body as Record<string, unknown>)[key])) {
      throw new ApiContractError(`GET ${endpoint}: expected an object with a "${key}" array, got ${preview(body)}`, {
        endpoint,
      });
    }
    return body as V3Page<K>;
  }
}

/** Headers that switch off the `address_book` / `metadata` enrichment when a stream does not need it. */
export function enrichmentHeaders(options: Pick<CallOptions, 'addressBook' | 'metadata'>): Record<string, string> {
  const headers: Record<string, string> = {};
  if (options.addressBook === false) headers['X-No-Address-Book'] = 'true';
  if (options.metadata === false) headers['X-No-Metadata'] = 'true';
  return headers;
}

function ltQuery(page: LtPage): QueryParams {
  if (page.start_lt > page.end_lt) {
    throw new FatalError(`Expected start_lt ≤ end_lt, got ${page.start_lt} > ${page.end_lt}`);
  }
  return {
    start_lt: page.start_lt,
    end_lt: page.end_lt,
    limit: checkedLimit(page.limit),
    offset: page.offset,
    sort: 'asc',
  };
}

function checkedLimit(limit = MAX_LIMIT): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new FatalError(`Expected limit to be an integer from 1 to ${MAX_LIMIT}, got ${String(limit)}`);
  }
  return limit;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
