/**
 * Paging over the chain's side records (jetton transfers and burns, NFT transfers, validator events),
 * which are stored in tx lt order. The real service orders them by one column only: `tx_lt`, or
 * `tx_now` when a utime filter is given; rows sharing that value come back in a random order.
 */
import type { QueryParams } from '../http/query-params.js';
import { accountParam, accountsParam, ltParam, type DevnetApi } from './context.js';
import { lowerBound, selectPage, type PageRequest } from './paging.js';

/** Inclusive bounds on the record's transaction lt and utime. */
export interface TxWindow {
  readonly startLt?: number;
  readonly endLt?: number;
  readonly startUtime?: number;
  readonly endUtime?: number;
}

export function txWindowParams(query: QueryParams, withLt = true): TxWindow {
  return {
    startLt: withLt ? ltParam(query, 'start_lt') : undefined,
    endLt: withLt ? ltParam(query, 'end_lt') : undefined,
    startUtime: query.int('start_utime', { min: 0 }),
    endUtime: query.int('end_utime', { min: 0 }),
  };
}

export interface RecordOrder {
  /** Rows with equal sort values come in a random order (true), or in stored order (false). @default true */
  readonly randomTies?: boolean;
}

/**
 * The page of visible records inside the window that `accept` keeps. The sort value is `tx_now` when a
 * utime bound is given, else `tx_lt`; both grow with the stored order, so bounds are binary searches.
 */
export function selectRecords<T extends { readonly tx: number }>(
  api: DevnetApi,
  records: readonly T[],
  window: TxWindow,
  accept: (record: T) => boolean,
  page: PageRequest,
  order: RecordOrder = {},
): T[] {
  const chain = api.view.chain;
  const visible = api.view.visibleRecords(records);
  const ltAt = (i: number): number => chain.tx(records[i]!.tx).lt;
  const nowAt = (i: number): number => chain.tx(records[i]!.tx).now;
  let lo = 0;
  let hi = visible;
  if (window.startLt !== undefined) lo = Math.max(lo, lowerBound(visible, ltAt, window.startLt));
  if (window.endLt !== undefined) hi = Math.min(hi, lowerBound(visible, ltAt, window.endLt, true));
  if (window.startUtime !== undefined) lo = Math.max(lo, lowerBound(visible, nowAt, window.startUtime));
  if (window.endUtime !== undefined) hi = Math.min(hi, lowerBound(visible, nowAt, window.endUtime, true));
  const byUtime = window.startUtime !== undefined || window.endUtime !== undefined;
  const key = (record: T): number => (byUtime ? chain.tx(record.tx).now : chain.tx(record.tx).lt);
  const tie = order.randomTies === false ? undefined : { key, rng: api.tieRng };
  return selectPage(lo, hi, (i) => records[i]!, accept, page, tie);
}

/** A single-valued address parameter: its account index (-1 when unknown), or undefined when absent. */
export function optionalAccountParam(api: DevnetApi, query: QueryParams, name: string): number | undefined {
  const text = query.get(name);
  return text === undefined || text === '' ? undefined : accountParam(api, name, text);
}

/** `owner_address[]`, or the undocumented single `address` the service reads when it is absent. */
export function ownersParam(api: DevnetApi, query: QueryParams): number[] | undefined {
  const owners = accountsParam(api, query, 'owner_address');
  if (owners !== undefined) return owners;
  const single = optionalAccountParam(api, query, 'address');
  return single === undefined ? undefined : [single];
}

export type Direction = 'in' | 'out' | 'both';

/** Whether a transfer from `source` to `destination` involves one of the owners in the direction asked. */
export function ownerMatches(owners: readonly number[], source: number, destination: number, direction: Direction | undefined): boolean {
  if (direction === 'in') return owners.includes(destination);
  if (direction === 'out') return owners.includes(source);
  return owners.includes(source) || owners.includes(destination);
}
