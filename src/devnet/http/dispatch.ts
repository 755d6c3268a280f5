import { ApiError } from './api-error.js';
import { QueryParams } from './query-params.js';
import type { ApiVersion, DevnetRequest, Handler, RequestHeaders, RouteTable } from './types.js';

export interface Route {
  readonly version: ApiVersion;
  readonly endpoint: string;
}

export interface Call {
  readonly handler: Handler;
  readonly request: DevnetRequest;
}

const ROUTE = /^\/api\/(v2|v3)\/(.+?)\/?$/;
export const JSON_RPC = 'jsonRPC';

export function matchRoute(pathname: string): Route | undefined {
  const m = ROUTE.exec(pathname);
  if (!m?.[1] || !m[2]) return undefined;
  return { version: m[1] as ApiVersion, endpoint: m[2] };
}

export function isJsonRpc(route: Route): boolean {
  return route.version === 'v2' && route.endpoint === JSON_RPC;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function lookup(routes: RouteTable, version: ApiVersion, endpoint: string): Handler {
  const table = routes[version];
  const handler = Object.hasOwn(table, endpoint) ? table[endpoint] : undefined;
  if (!handler) throw new ApiError(404, 'not found');
  return handler;
}

/** The id to echo in a JSON-RPC answer (null when the request has none). */
export function jsonRpcId(body: unknown): unknown {
  return isObject(body) ? (body['id'] ?? null) : null;
}

/** JSON-RPC 2.0 over POST /api/v2/jsonRPC: `method` names the v2 handler, `params` are its query. */
function jsonRpcCall(routes: RouteTable, body: unknown, headers: RequestHeaders): Call {
  if (!isObject(body)) throw new ApiError(422, 'request must be a JSON object');
  const method = body['method'];
  if (typeof method !== 'string' || method === '') throw new ApiError(422, 'method must be a non-empty string');
  const params = body['params'] ?? {};
  if (!isObject(params)) throw new ApiError(422, 'params must contain an object');
  const handler = lookup(routes, 'v2', method);
  const request: DevnetRequest = {
    method: 'POST',
    version: 'v2',
    endpoint: method,
    query: QueryParams.fromFields(params),
    body: params,
    headers,
  };
  return { handler, request };
}

/** Finds the handler of a request and builds what it receives; throws ApiError 404/405/422. */
export function resolveCall(
  routes: RouteTable,
  route: Route,
  method: 'GET' | 'POST',
  search: URLSearchParams,
  body: unknown,
  headers: RequestHeaders,
): Call {
  if (isJsonRpc(route)) {
    if (method !== 'POST') throw new ApiError(405, 'method not allowed');
    return jsonRpcCall(routes, body, headers);
  }
  const handler = lookup(routes, route.version, route.endpoint);
  const query =
    route.version === 'v2' && isObject(body) ? QueryParams.fromFields(body, search) : new QueryParams(search);
  return { handler, request: { method, version: route.version, endpoint: route.endpoint, query, body, headers } };
}
