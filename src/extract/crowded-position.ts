/**
 * Reads a position holding more items than a page without relying on an order within it: the
 * service returns items sharing a position in a fresh order per request (docs/design.md §2), so
 * offset pages of one position may overlap and miss items. The position is read alone (from = to)
 * by counting instead: first its size, paging it by offset up to the first short page (whose offset
 * plus length is the size whatever the order); then distinct items until that many are held, within
 * a bounded number of requests. A position that cannot be completed fails the run rather than store
 * part of it.
 */
import type { PageRequest } from '../core/stream.js';
import type { PreparedBook, PreparedItem } from '../transform/prepared-page.js';
import type { CheckedPage, CheckedReject, PagedStream, PageReader } from './page-reader.js';
import { pagingViolation } from './page-check.js';

/** Pages one position may span at most (50,000 items at limit 1000): a service ignoring offset ends here. */
export const MAX_POSITION_PAGES = 50;

/** Requests per page of the position's size that collecting its items may take (a shuffled order needs several passes). */
const REQUESTS_PER_PAGE = 20;

export interface CrowdedPosition {
  readonly items: PreparedItem[];
  readonly rejects: CheckedReject[];
  readonly addressBook: PreparedBook;
}

export interface CrowdedRequest {
  readonly position: bigint;
  /** Valid items a page showed at the position: it holds no fewer. */
  readonly atLeast: number;
  readonly limit: number;
  readonly signal?: AbortSignal;
}

/** Every item at `position`, or a PagingContractError. */
export async function readCrowdedPosition(stream: PagedStream, read: PageReader, at: CrowdedRequest): Promise<CrowdedPosition> {
  const held = new Held();
  let requests = 0;
  const request = (offset: number): PageRequest => ({ from: at.position, to: at.position, limit: at.limit, offset, signal: at.signal });
  const fetch = async (offset: number): Promise<CheckedPage> => {
    requests += 1;
    return read(request(offset));
  };

  let size: number | undefined;
  let previous: CheckedPage | undefined;
  for (let offset = 0; size === undefined; offset += at.limit) {
    if (offset >= MAX_POSITION_PAGES * at.limit) {
      throw pagingViolation(stream, request(offset), `more than ${offset} items at ${stream.axis} ${at.position} (every page full up to offset ${offset}): the service seems to ignore offset`);
    }
    const page = await fetch(offset);
    if (page.received < at.limit) size = offset + page.received;
    else if (previous !== undefined && samePage(page, previous)) {
      throw pagingViolation(stream, request(offset), `it repeats the page at offset ${offset - at.limit} of ${stream.axis} ${at.position}: the service ignores offset`);
    }
    held.add(page);
    previous = page;
  }

  if (size < at.atLeast) {
    throw pagingViolation(stream, request(0), `${stream.axis} ${at.position} showed ${at.atLeast} items in a page, but holds ${size} when read alone`);
  }
  const budget = REQUESTS_PER_PAGE * Math.ceil(size / at.limit);
  for (let offset = 0; held.count < size; offset = offset + at.limit < size ? offset + at.limit : 0) {
    if (requests >= budget) {
      throw pagingViolation(
        stream,
        request(offset),
        `only ${held.count} of the ${size} items at ${stream.axis} ${at.position} arrived in ${requests} requests (its pages overlap: the order within a position changes between requests)`,
      );
    }
    const page = await fetch(offset);
    const expected = Math.min(at.limit, size - offset);
    if (page.received !== expected) {
      throw pagingViolation(stream, request(offset), `it sent ${page.received} items where ${stream.axis} ${at.position} holds ${size} (expected ${expected} at this offset)`);
    }
    held.add(page);
  }
  if (held.count > size) {
    throw pagingViolation(stream, request(0), `${held.count} distinct items arrived for ${stream.axis} ${at.position}, which holds ${size}`);
  }
  return { items: held.items, rejects: held.rejects, addressBook: held.addressBook };
}

/** Whether two pages hold the same items in the same order. */
function samePage(a: CheckedPage, b: CheckedPage): boolean {
  return a.received === b.received && a.rejects.length === b.rejects.length && a.ok.every((item, i) => item.key === b.ok[i]!.key);
}

/**
 * Distinct items of a position: valid ones by key, invalid ones by the key their raw fields give
 * (else by their JSON text). An item the service sends broken in one answer and valid in another is
 * one item, held valid: counted twice, the position would look complete with another item missing.
 */
class Held {
  readonly #items = new Map<string, PreparedItem>();
  readonly #rejects = new Map<string, CheckedReject>();
  // No prototype: an entry under "__proto__" is copied in like any other, not taken as a prototype.
  readonly addressBook = Object.create(null) as Record<string, PreparedBook[string]>;

  get count(): number {
    return this.#items.size + this.#rejects.size;
  }

  get items(): PreparedItem[] {
    return [...this.#items.values()];
  }

  get rejects(): CheckedReject[] {
    return [...this.#rejects.values()];
  }

  add(page: CheckedPage): void {
    for (const item of page.ok) {
      const { key } = item;
      if (!this.#items.has(key)) this.#items.set(key, item);
      this.#rejects.delete(key);
    }
    for (const reject of page.rejects) {
      if (!this.#items.has(reject.identity) && !this.#rejects.has(reject.identity)) this.#rejects.set(reject.identity, reject);
    }
    if (page.addressBook !== undefined) Object.assign(this.addressBook, page.addressBook);
  }
}
