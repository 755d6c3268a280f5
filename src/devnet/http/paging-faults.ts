/**
 * Faults of the paging contract, so tests can drive the client against a service that pages wrongly:
 * pages in descending order, items past the requested end, `offset` ignored, items sharing a position
 * shuffled, the previous page sent again, one item more than the limit. Each is a probability per
 * request of the position-paged lists (transactions, jetton transfers, actions, validator events).
 */
import { z } from 'zod';
import { QueryParams } from './query-params.js';
import type { DevnetRequest, Handler, RouteTable } from './types.js';

const rate = z.number().min(0).max(1);

export const pagingFaultSchema = z.strictObject({
  /** Answer `sort=desc` whatever was asked. */
  descending: rate.optional(),
  /** Ignore the end bound (`end_lt`, `end_utime`): the page runs on past it. */
  beyondBounds: rate.optional(),
  /** Ignore `offset`. */
  ignoreOffset: rate.optional(),
  /** Send the items sharing a position in a fresh random order (the real service keeps none but on transactions). */
  shuffleTies: rate.optional(),
  /** Send the endpoint's previous page again instead of this one. */
  repeatPages: rate.optional(),
  /** Send one item more than `limit`. */
  overLimit: rate.optional(),
});

export type PagingFaults = Readonly<z.infer<typeof pagingFaultSchema>>;

/** A position-paged list: where its items are, what orders them, and the names of its bounds. */
interface PagedList {
  readonly itemsKey: string;
  readonly positionField: string;
  readonly axis: 'lt' | 'utime';
}

const PAGED_LISTS: Readonly<Record<string, PagedList>> = {
  transactions: { itemsKey: 'transactions', positionField: 'lt', axis: 'lt' },
  'jetton/transfers': { itemsKey: 'jetton_transfers', positionField: 'transaction_lt', axis: 'lt' },
  actions: { itemsKey: 'actions', positionField: 'trace_end_lt', axis: 'lt' },
  'validators/events': { itemsKey: 'events', positionField: 'utime', axis: 'utime' },
};

type Payload = Record<string, unknown>;

/** The routes with the paged lists of v3 answering under `faults`, drawn per request from `random`. */
export function withPagingFaults(routes: RouteTable, faults: PagingFaults, random: () => number): RouteTable {
  const v3: Record<string, Handler> = { ...routes.v3 };
  for (const [endpoint, list] of Object.entries(PAGED_LISTS)) {
    const handler = routes.v3[endpoint];
    if (handler === undefined) continue;
    let previous: unknown;
    v3[endpoint] = async (req) => {
      const hit = (probability: number | undefined): boolean => probability !== undefined && random() < probability;
      const repeat = hit(faults.repeatPages) && previous !== undefined;
      const query = new URLSearchParams(pairs(req.query));
      if (hit(faults.descending)) query.set('sort', 'desc');
      if (hit(faults.beyondBounds)) query.delete(`end_${list.axis}`);
      if (hit(faults.ignoreOffset)) query.delete('offset');
      const overLimit = hit(faults.overLimit);
      const shuffle = hit(faults.shuffleTies);
      const call = (params: URLSearchParams): Promise<Payload> => Promise.resolve(handler({ ...req, query: new QueryParams(params) }) as Payload);
      let payload = await call(query);
      if (overLimit) payload = await withOneMore(payload, list, query, call);
      if (shuffle) payload = { ...payload, [list.itemsKey]: shuffledTies(items(payload, list), list, random) };
      const answer = repeat ? previous : payload;
      previous = payload;
      return answer;
    };
  }
  return { v2: routes.v2, v3 };
}

function pairs(query: DevnetRequest['query']): [string, string][] {
  return query.names().flatMap((name) => query.getAll(name).map((value): [string, string] => [name, value]));
}

function items(payload: Payload, list: PagedList): Payload[] {
  const found = payload[list.itemsKey];
  return Array.isArray(found) ? (found as Payload[]) : [];
}

/** The page and the item after its last one (the next item of the same query), when there is one. */
async function withOneMore(payload: Payload, list: PagedList, query: URLSearchParams, call: (params: URLSearchParams) => Promise<Payload>): Promise<Payload> {
  const page = items(payload, list);
  const next = new URLSearchParams(query);
  next.set('offset', String(Number(query.get('offset') ?? 0) + page.length));
  next.set('limit', '1');
  return { ...payload, [list.itemsKey]: [...page, ...items(await call(next), list)] };
}

function shuffledTies(page: readonly Payload[], list: PagedList, random: () => number): Payload[] {
  const out = [...page];
  let start = 0;
  while (start < out.length) {
    let end = start + 1;
    while (end < out.length && out[end]![list.positionField] === out[start]![list.positionField]) end++;
    for (let i = end - 1; i > start; i--) {
      const j = start + Math.floor(random() * (i - start + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    start = end;
  }
  return out;
}
