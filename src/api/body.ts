import { parseJson } from '../core/exact-json.js';
import { ResponseTooLargeError } from './errors.js';

/** Megabytes (2^20 bytes) one response body may take, after decompression. */
export const DEFAULT_MAX_RESPONSE_MB = 64;

const BYTES_PER_MB = 1024 * 1024;

/**
 * Reads a response body to its end as a stream, failing as soon as more than `maxMb` megabytes arrived
 * (counted after content decoding, so a compressed bomb stops at the cap too) or the declared length
 * says it would. A failure of the stream itself (connection lost) is rethrown as it is.
 */
export async function readCappedBody(response: Response, maxMb: number, endpoint: string): Promise<Uint8Array> {
  const maxBytes = Math.floor(maxMb * BYTES_PER_MB);
  const tooLarge = (): ResponseTooLargeError =>
    new ResponseTooLargeError(
      `GET ${endpoint}: the response body is larger than ${maxMb} MB (http.max_response_mb, counted after decompression): not retried; if the service really sends pages this large, raise http.max_response_mb in the pipeline file`,
      { endpoint, status: response.status, maxBytes },
    );
  if (response.body === null) return new Uint8Array(0);
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
  if (!encoded && declared > maxBytes) {
    await response.body.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return concat(chunks, received);
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const body = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/**
 * What a successful body becomes: the JSON value by default (`jsonBody`), or a caller's reading of
 * the bytes (a stream's page parsed, validated and turned into rows, possibly in a worker thread).
 * It runs inside the request's attempt, so a body that is not JSON is retried like any other.
 */
export type BodyReader<T> = (body: Uint8Array) => T | Promise<T>;

/** Thrown by a BodyReader when the body is not JSON; the client makes it an InvalidBodyError (retried). */
export class NotJsonError extends Error {
  /** `detail`: JSON.parse's own words; `startsWithTag`: the text begins with `<` (an HTML page). */
  constructor(
    readonly detail: string,
    readonly startsWithTag: boolean,
  ) {
    super(detail);
    this.name = 'NotJsonError';
  }
}

/** The body's text parsed as JSON (inexact numbers kept as their text), or a NotJsonError. */
export function jsonBody(body: Uint8Array): unknown {
  const text = new TextDecoder().decode(body);
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (cause) {
    throw new NotJsonError(String(cause), /^\s*</.test(text));
  }
  if (carriesError(value)) throw new ErrorInBodyError(preview(errorFields(value as Record<string, unknown>)));
  return value;
}

/**
 * Thrown by a BodyReader when a success body carries the service's error (`"error"`, or `"ok": false`):
 * the service failed to make the answer, whatever else the body holds (an empty list is not "nothing
 * there"). The client makes it an `ErrorBodyError` (retried).
 */
export class ErrorInBodyError extends Error {
  constructor(readonly shown: string) {
    super(shown);
    this.name = 'ErrorInBodyError';
  }
}

/** An object holding a non-null `error`, or `ok: false` (the v2 envelope's failure). */
function carriesError(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const fields = value as Record<string, unknown>;
  return (fields['error'] !== undefined && fields['error'] !== null) || fields['ok'] === false;
}

/** The fields of a body that say it failed, as it sent them (the rest is no answer). */
function errorFields(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([key]) => key === 'error' || key === 'ok' || key === 'code'));
}

/** A body as an error message shows it: its JSON, cut at 120 characters. */
export function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
