/** Calls devnet endpoint handlers without HTTP, returning the wire JSON (a JSON round trip of the payload). */
import { devnetRoutes } from '../../src/devnet/api/routes.js';
import type { DevnetApi } from '../../src/devnet/api/context.js';
import { QueryParams } from '../../src/devnet/http/query-params.js';
import type { DevnetRequest, RouteTable } from '../../src/devnet/http/types.js';
import { queryString, type Query } from './http.js';

const tables = new WeakMap<DevnetApi, RouteTable>();

export function callV3<T = Record<string, unknown>>(api: DevnetApi, endpoint: string, query: Query = {}, headers: Record<string, string> = {}): T {
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return call<T>(api, endpoint, { method: 'GET', query: new QueryParams(new URLSearchParams(queryString(query).slice(1))), body: undefined, headers: lower });
}

/** A v3 POST with a JSON body (the body is passed through a JSON round trip, as the server parses it). */
export function postV3<T = Record<string, unknown>>(api: DevnetApi, endpoint: string, body: unknown): T {
  return call<T>(api, endpoint, { method: 'POST', query: new QueryParams(), body: JSON.parse(JSON.stringify(body)) as unknown, headers: {} });
}

function call<T>(api: DevnetApi, endpoint: string, request: Pick<DevnetRequest, 'method' | 'query' | 'body' | 'headers'>): T {
  let routes = tables.get(api);
  if (routes === undefined) tables.set(api, (routes = devnetRoutes(api)));
  const handler = routes.v3[endpoint];
  if (handler === undefined) throw new Error(`the devnet has no v3 endpoint ${endpoint}`);
  return JSON.parse(JSON.stringify(handler({ ...request, version: 'v3', endpoint }))) as T;
}
