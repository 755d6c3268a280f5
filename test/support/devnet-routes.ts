/** Calls devnet endpoint handlers without HTTP, returning the wire JSON (a JSON round trip of the payload). */
import { devnetRoutes } from '../../src/devnet/api/routes.js';
import type { DevnetApi } from '../../src/devnet/api/context.js';
import { QueryParams } from '../../src/devnet/http/query-params.js';
import type { DevnetRequest, RouteTable } from '../../src/devnet/http/types.js';
import { queryString, type Query } from './http.js';

const tables = new WeakMap<DevnetApi, RouteTable>();

export function callV3<T = Record<string, unknown>>(api: DevnetApi, endpoint: string, query: Query = {}, headers: Record<string, string> = {}): T {
  let routes = tables.get(api);
  if (routes === undefined) tables.set(api, (routes = devnetRoutes(api)));
  const handler = routes.v3[endpoint];
  if (handler === undefined) throw new Error(`the devnet has no v3 endpoint ${endpoint}`);
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const request: DevnetRequest = {
    method: 'GET',
    version: 'v3',
    endpoint,
    query: new QueryParams(new URLSearchParams(queryString(query).slice(1))),
    body: undefined,
    headers: lower,
  };
  return JSON.parse(JSON.stringify(handler(request))) as T;
}
