/**
 * Reference pagers of docs/design.md §2, written against the devnet's HTTP API: what an extractor
 * must do to get every row exactly once from endpoints whose sort column (lt) is not unique.
 */
import type { DevnetClient, Query } from './http.js';

export type Row = Record<string, unknown>;

export interface LtPage {
  readonly rows: Row[];
  /** Requests sent. */
  readonly requests: number;
  /** Page edges that fell inside a run of rows sharing one lt (the cursor case the pager must handle). */
  readonly splitTies: number;
}

/**
 * /transactions by lt cursor: `start_lt`..`end_lt` inclusive, `limit` per page; restart at the last lt
 * seen (inclusive; `end_lt` when descending) and drop the hashes already taken.
 */
export async function pageTransactionsByLt(
  client: DevnetClient,
  opts: { readonly startLt: string; readonly endLt: string; readonly limit: number; readonly sort: 'asc' | 'desc'; readonly query?: Query },
): Promise<LtPage> {
  const rows: Row[] = [];
  const seen = new Set<string>();
  let lo = opts.startLt;
  let hi = opts.endLt;
  let requests = 0;
  let splitTies = 0;
  let lastLt: string | undefined;
  for (;;) {
    const page = await client.items('transactions', 'transactions', { ...opts.query, start_lt: lo, end_lt: hi, limit: opts.limit, sort: opts.sort });
    requests += 1;
    const fresh = page.filter((row) => !seen.has(row.hash as string));
    if (lastLt !== undefined && fresh[0]?.lt === lastLt) splitTies += 1;
    for (const row of fresh) {
      seen.add(row.hash as string);
      rows.push(row);
    }
    if (page.length < opts.limit) return { rows, requests, splitTies };
    if (fresh.length === 0) throw new Error(`more than ${opts.limit} transactions share lt ${String(page[0]?.lt)}: raise the limit`);
    lastLt = page[page.length - 1]!.lt as string;
    if (opts.sort === 'asc') lo = lastLt;
    else hi = lastLt;
  }
}

/** Pages an endpoint by `offset` with a fixed query until a short page. */
export async function pageByOffset(client: DevnetClient, endpoint: string, key: string, query: Query, limit: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (let offset = 0; ; offset += limit) {
    const page = await client.items(endpoint, key, { ...query, limit, offset });
    rows.push(...page);
    if (page.length < limit) return rows;
  }
}

export interface RecordPage {
  readonly rows: Row[];
  readonly requests: number;
  /** Rows dropped because they sat at the last lt of a full page (fetched again by the next page). */
  readonly discarded: number;
  /** Rows that arrived a second time although the pager had kept them (must stay 0). */
  readonly duplicates: number;
}

/**
 * /jetton/transfers (and other tx_lt-ordered records) by the page-edge rule of docs/design.md §2:
 * ascending by lt window; when a page is full, discard its rows at the page's last lt and restart at
 * that lt (inclusive). When a whole
 * full page shares one lt, that lt alone is fetched with the endpoint maximum (1000) instead.
 */
export async function pageRecordsAtLtEdges(
  client: DevnetClient,
  endpoint: string,
  key: string,
  opts: { readonly startLt?: string; readonly endLt?: string; readonly limit: number; readonly query?: Query },
): Promise<RecordPage> {
  const rows: Row[] = [];
  const kept = new Set<string>();
  let requests = 0;
  let discarded = 0;
  let duplicates = 0;
  const keep = (row: Row): void => {
    const hash = row.transaction_hash as string;
    if (kept.has(hash)) duplicates += 1;
    else {
      kept.add(hash);
      rows.push(row);
    }
  };
  let lo = opts.startLt ?? '0';
  for (;;) {
    const page = await client.items(endpoint, key, { ...opts.query, start_lt: lo, end_lt: opts.endLt, limit: opts.limit, sort: 'asc' });
    requests += 1;
    if (page.length < opts.limit) {
      page.forEach(keep);
      return { rows, requests, discarded, duplicates };
    }
    const lastLt = page[page.length - 1]!.transaction_lt as string;
    if (page.every((row) => row.transaction_lt === lastLt)) {
      const all = await client.items(endpoint, key, { ...opts.query, start_lt: lastLt, end_lt: lastLt, limit: 1000, sort: 'asc' });
      requests += 1;
      all.forEach(keep);
      lo = (BigInt(lastLt) + 1n).toString();
      continue;
    }
    for (const row of page) {
      if (row.transaction_lt === lastLt) discarded += 1;
      else keep(row);
    }
    lo = lastLt;
  }
}
