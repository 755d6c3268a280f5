import type { ApiError } from './api-error.js';
import type { ApiVersion } from './types.js';

export type JsonObject = Record<string, unknown>;

/** v2 wraps the payload as `{ok, result, @extra}`; v3 sends the payload itself. */
export function successBody(version: ApiVersion, payload: unknown, extra: string): unknown {
  return version === 'v2' ? { ok: true, result: payload, '@extra': extra } : payload;
}

export function failureBody(version: ApiVersion, err: ApiError): JsonObject {
  return version === 'v2'
    ? { ok: false, code: err.status, error: err.message }
    : { code: err.status, error: err.message };
}

export function withJsonRpc(body: unknown, id: unknown): JsonObject {
  return { ...(body as JsonObject), jsonrpc: '2.0', id };
}
