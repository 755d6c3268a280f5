import type { QueryParams } from '../core/query-params.js';
import { buildUrl } from './query.js';

/**
 * The most bytes the query string of one request (after `?`) may take. A GET names its filter lists
 * in the URL, and 1000 raw addresses make 77 KB: nginx, in front of TON Center, answers 414 above its
 * default 8 KB request line (`large_client_header_buffers 4 8k`), the devnet (Node) 431 above 16 KB
 * of request head, and neither is retried. 7 KB leaves 1 KB for the method, the path and the
 * protocol (docs/design.md §2).
 */
export const MAX_QUERY_BYTES = 7 * 1024;

/** The bytes `params` take in the query string the client sends (percent-encoded, lists as repeated keys). */
export function queryBytes(params: QueryParams): number {
  return buildUrl('http://localhost', '/', params).searchParams.toString().length;
}
