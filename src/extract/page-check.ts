/**
 * Checks every page against the request that asked for it (docs/design.md §2): each position inside
 * the requested bounds, ascending, no item twice, at most `limit` items. The pager trusts a page
 * only as far as it is verified; a page that breaks the contract fails the run (exit 1) instead of
 * storing a guess.
 */
import { ApiContractError } from '../api/errors.js';
import type { PageRequest, PositionAxis } from '../core/stream.js';

/** The service answered a page that contradicts its request or the pages before it. */
export class PagingContractError extends ApiContractError {}

/** A one-line error naming the endpoint, the request and what was wrong, and what to do. */
export function pagingViolation(stream: { readonly endpoint: string; readonly axis: PositionAxis }, request: PageRequest, problem: string): PagingContractError {
  const axis = stream.axis;
  const params = `start_${axis}=${request.from}&end_${axis}=${request.to}&limit=${request.limit}&offset=${request.offset}`;
  return new PagingContractError(
    `${stream.endpoint}?${params} broke the paging contract: ${problem}; nothing of it was stored and the checkpoint stays before it: ` +
      'run again once the service pages correctly (or point base_url at one that does)',
    { endpoint: stream.endpoint },
  );
}

/** Throws a PagingContractError unless the page keeps the request's bounds, order, uniqueness and limit. */
export function checkPage(stream: { readonly endpoint: string; readonly axis: PositionAxis }, request: PageRequest, items: readonly { readonly position: bigint; readonly key: string }[], received: number): void {
  const axis = stream.axis;
  if (received > request.limit) throw pagingViolation(stream, request, `it sent ${received} items for limit ${request.limit}`);
  const keys = new Set<string>();
  let previous: bigint | undefined;
  for (const item of items) {
    const { position, key } = item;
    if (position < request.from || position > request.to) {
      throw pagingViolation(stream, request, `item ${key} is at ${axis} ${position}, outside the requested ${request.from}..${request.to}`);
    }
    if (previous !== undefined && position < previous) {
      throw pagingViolation(stream, request, `items are not in ascending ${axis} order (${axis} ${position} after ${previous})`);
    }
    if (keys.has(key)) throw pagingViolation(stream, request, `item ${key} appears twice in one page`);
    keys.add(key);
    previous = position;
  }
}
