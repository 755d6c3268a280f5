import { setTimeout as sleep } from 'node:timers/promises';
import { pino, type Logger } from 'pino';
import { ConfigError, RetryableError } from '../core/errors.js';
import { publishAccepted } from './answers.js';
import { backoffDelay, DEFAULT_BACKOFF, retryAfterMs, type BackoffOptions } from './backoff.js';
import { DEFAULT_MAX_RESPONSE_MB, ErrorInBodyError, jsonBody, NotJsonError, readCappedBody, type BodyReader } from './body.js';
import {
  ApiNetworkError,
  ApiRequestError,
  ApiServerError,
  ApiTimeoutError,
  AuthError,
  ErrorBodyError,
  InvalidBodyError,
  RateLimitedError,
  RedirectError,
  ResponseTooLargeError,
  RetriesExhaustedError,
  RetryAfterTooLongError,
  UrlTooLongError,
} from './errors.js';
import type { QueryParams } from '../core/query-params.js';
import { utcTime } from '../core/utc-time.js';
import { buildUrl, normalizeBaseUrl } from './query.js';
import { RateLimiter } from './rate-limiter.js';
import { Redactor } from '../core/redact.js';
import { fetchWithinOrigin } from './redirect.js';

/** Seconds one request may take, headers and body, before it is abandoned and retried. */
export const DEFAULT_TIMEOUT_SECONDS = 15;
/** Retries of a request after its first attempt, for retryable failures only (network, 429, 5xx, timeouts). */
export const DEFAULT_RETRIES = 8;

/**
 * Longest Retry-After the client waits. A run holds the warehouse's writer lock while it waits, so a
 * longer one (an hour) ends the run at once, saying when to run again; a wait past 2^31 ms would also
 * overflow Node's timers.
 */
export const MAX_RETRY_AFTER_MS = 120_000;

/** Pauses at least this long are logged at warn, with the wait. */
const LONG_PAUSE_MS = 10_000;

export interface ApiClientOptions {
  /** Service root without `/api/v2` or `/api/v3`, e.g. `https://toncenter.com`. */
  readonly baseUrl: string;
  /** Sent as the `X-API-Key` header only, never in a URL, message or log. @default undefined (no key: 1 request/s upstream) */
  readonly apiKey?: string;
  /** Where the key came from, for messages only, e.g. `$TONCENTER_API_KEY`. @default undefined */
  readonly keySource?: string;
  /** Requests started per second against this network. */
  readonly rps: number;
  /** Requests in flight at once. */
  readonly concurrency: number;
  /** Per attempt, from sending the request to the last byte of the body. @default DEFAULT_TIMEOUT_SECONDS * 1000 */
  readonly timeoutMs?: number;
  /** Retries after the first attempt, for retryable failures only. @default DEFAULT_RETRIES */
  readonly maxRetries?: number;
  /** Megabytes (2^20 bytes) one response body may take after decompression; a larger one fails the request, not retried. @default 64 */
  readonly maxResponseMb?: number;
  /** Exponential backoff with full jitter between attempts. @default { baseMs: 250, maxMs: 30000 } */
  readonly backoff?: BackoffOptions;
  /** Retries at debug, the first 429 pause at info, nothing per successful request. @default a disabled logger */
  readonly logger?: Logger;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /** Source of jitter in [0, 1). @default Math.random */
  readonly random?: () => number;
}

export interface GetOptions<T = unknown> {
  /** Extra request headers, e.g. `X-No-Address-Book`; they cannot replace `X-API-Key`. @default {} */
  readonly headers?: Readonly<Record<string, string>>;
  /** Cancels waiting, backoff and the request in flight; the signal's reason is thrown. @default undefined */
  readonly signal?: AbortSignal;
  /** What a successful body becomes; a NotJsonError it throws is retried as an invalid body. @default jsonBody */
  readonly read?: BodyReader<T>;
}

/** Counters for the run's stats. */
export interface ApiStats {
  /** Attempts sent (first tries and retries). */
  readonly requests: number;
  readonly retries: number;
  /** Responses with status 429. */
  readonly rateLimited: number;
  /** Response body bytes received (after content decoding). */
  readonly bytes: number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The HTTP client of one network: rate limit, timeouts and retries live here and nowhere else.
 * `get` resolves to the parsed JSON (or what `read` makes of the body) or throws a FatalError (do not retry) or a RetryableError
 * (retries exhausted; the last failure is its `cause`).
 */
export class ApiClient {
  readonly baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #keySource: string | undefined;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #maxResponseMb: number;
  readonly #redactor: Redactor;
  readonly #backoff: BackoffOptions;
  readonly #log: Logger;
  readonly #fetch: typeof fetch;
  readonly #random: () => number;
  readonly #limiter: RateLimiter;
  readonly #stats: Mutable<ApiStats> = { requests: 0, retries: 0, rateLimited: 0, bytes: 0 };
  #apiVersion: string | undefined;
  #pauseLogged = false;

  constructor(options: ApiClientOptions) {
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    this.#apiKey = options.apiKey === undefined || options.apiKey.trim() === '' ? undefined : options.apiKey;
    this.#keySource = options.keySource;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_SECONDS * 1000;
    this.#maxRetries = options.maxRetries ?? DEFAULT_RETRIES;
    this.#maxResponseMb = options.maxResponseMb ?? DEFAULT_MAX_RESPONSE_MB;
    this.#redactor = new Redactor([this.#apiKey]);
    this.#backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.#log = options.logger ?? pino({ enabled: false });
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#random = options.random ?? Math.random;
    this.#limiter = new RateLimiter({ rps: options.rps, concurrency: options.concurrency });
  }

  get stats(): ApiStats {
    return { ...this.#stats };
  }

  /** `X-API-Version` of the first response that carried it. */
  get apiVersion(): string | undefined {
    return this.#apiVersion;
  }

  async get<T = unknown>(path: string, params: QueryParams = {}, opts: GetOptions<T> = {}): Promise<T> {
    const url = buildUrl(this.baseUrl, path, params);
    const endpoint = url.pathname;
    for (let retry = 0; ; retry++) {
      try {
        return await this.#limiter.schedule(() => this.#attempt(url, endpoint, opts, retry), {
          signal: opts.signal,
          priority: retry > 0 ? 1 : 0,
        });
      } catch (err) {
        opts.signal?.throwIfAborted();
        if (!(err instanceof RetryableError)) throw err;
        if (retry >= this.#maxRetries) throw this.#exhausted(endpoint, retry + 1, err);
        this.#stats.retries++;
        if (err instanceof RateLimitedError) {
          this.#log.debug({ endpoint, retry: retry + 1, err }, 'retrying request after the rate-limit pause');
          continue;
        }
        const delayMs = backoffDelay(retry, this.#backoff, this.#random);
        this.#log.debug({ endpoint, retry: retry + 1, delay_ms: delayMs, err }, 'retrying request');
        await sleep(delayMs, undefined, { signal: opts.signal }).catch((sleepErr: unknown) => {
          opts.signal?.throwIfAborted();
          throw sleepErr;
        });
      }
    }
  }

  /** `retry`: attempts made before this one. */
  async #attempt<T>(url: URL, endpoint: string, opts: GetOptions<T>, retry: number): Promise<T> {
    this.#stats.requests++;
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const signal = opts.signal === undefined ? timeout : AbortSignal.any([timeout, opts.signal]);
    let response: Response;
    try {
      response = await fetchWithinOrigin(this.#fetch, url, { headers: this.#headers(opts.headers), signal }, endpoint);
    } catch (err) {
      if (err instanceof RedirectError) throw err;
      throw this.#transportError(err, endpoint, timeout, opts.signal, 'request failed');
    }
    this.#noteVersion(response.headers);
    let body: Uint8Array;
    try {
      body = await readCappedBody(response, this.#maxResponseMb, endpoint);
    } catch (err) {
      if (err instanceof ResponseTooLargeError) throw err;
      throw this.#transportError(err, endpoint, timeout, opts.signal, 'connection lost while reading the body');
    }
    this.#stats.bytes += body.byteLength;
    if (response.status >= 200 && response.status < 300) {
      const value = await this.#parse(response, body, endpoint, opts.read ?? (jsonBody as BodyReader<T>));
      publishAccepted(endpoint, response.headers);
      return value;
    }
    // Paused before this task settles, so the queue starts nothing between the 429 and the pause.
    if (response.status === 429) this.#pauseAll(endpoint, this.#rateLimitPauseMs(response.headers, retry, endpoint));
    throw this.#statusError(response.status, new TextDecoder().decode(body), endpoint, url);
  }

  #headers(extra: Readonly<Record<string, string>> = {}): Headers {
    const headers = new Headers({ accept: 'application/json', 'user-agent': 'chain-etl', ...extra });
    headers.delete('x-api-key');
    if (this.#apiKey !== undefined) headers.set('x-api-key', this.#apiKey);
    return headers;
  }

  #noteVersion(headers: Headers): void {
    const version = headers.get('x-api-version');
    if (version === null || this.#apiVersion !== undefined) return;
    this.#apiVersion = version;
    this.#log.debug({ api_version: version, server_timing: headers.get('server-timing') ?? undefined }, 'API version');
  }

  async #parse<T>(response: Response, body: Uint8Array, endpoint: string, read: BodyReader<T>): Promise<T> {
    const contentType = response.headers.get('content-type') ?? '';
    const fields = { endpoint, status: response.status, contentType };
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    // With a content-encoding the declared length is the compressed size, not comparable.
    const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
    if (!encoded && Number.isFinite(declared) && body.byteLength < declared) {
      throw new InvalidBodyError(`truncated body: got ${body.byteLength} of ${declared} bytes`, {
        ...fields,
        html: false,
        truncated: true,
      });
    }
    const length = body.byteLength;
    try {
      return await read(body);
    } catch (cause) {
      if (cause instanceof ErrorInBodyError) throw new ErrorBodyError(`HTTP ${response.status} carrying an error: ${this.#redactor.redact(cause.shown)}`, { endpoint, status: response.status });
      if (!(cause instanceof NotJsonError)) throw cause;
      const html = /html/i.test(contentType) || cause.startsWithTag;
      const what = html ? `an HTML page` : `invalid JSON (${this.#redactor.redact(cause.detail)})`;
      throw new InvalidBodyError(`HTTP ${response.status} with ${what}, ${length} bytes, ${contentType || 'no content type'}`, {
        ...fields,
        html,
        truncated: false,
      });
    }
  }

  #transportError(
    err: unknown,
    endpoint: string,
    timeout: AbortSignal,
    userSignal: AbortSignal | undefined,
    what: string,
  ): Error {
    userSignal?.throwIfAborted();
    const cause = this.#redactor.redactError(err);
    if (timeout.aborted) {
      return new ApiTimeoutError(`no complete response within ${this.#timeoutMs} ms`, {
        endpoint,
        timeoutMs: this.#timeoutMs,
        cause,
      });
    }
    if (refusedPort(err)) {
      return new ConfigError(
        `${this.baseUrl} is on port ${new URL(this.baseUrl).port}, which Node's fetch never connects to (a port the Fetch standard blocks): serve the API on another port`,
      );
    }
    return new ApiNetworkError(`${what}: ${this.#redactor.redact(describe(err))}`, { endpoint, cause });
  }

  #statusError(status: number, text: string, endpoint: string, url: URL): Error {
    const serverError = this.#redactor.redact(serverErrorText(text));
    const fields = { endpoint, status, serverError };
    const http = `HTTP ${status}${serverError === '' ? '' : ` ${serverError}`}`;
    if (status === 429) {
      this.#stats.rateLimited++;
      return new RateLimitedError(http, fields);
    }
    if (status === 401) return new AuthError(this.#unauthorized(status, serverError), fields);
    if (status === 403) return new AuthError(this.#forbidden(status, serverError), fields);
    // 542 is the v2 gateway's deterministic TVM stack error, not an outage.
    if (status === 408 || (status >= 500 && status <= 599 && status !== 542)) return new ApiServerError(http, fields);
    if (status === 414 || status === 431) return new UrlTooLongError({ ...fields, urlBytes: url.href.length });
    if (status === 404 && !isJson(text)) return new ApiRequestError(`GET ${endpoint}: ${http}: ${this.#notTheApi()}`, fields);
    return new ApiRequestError(`GET ${endpoint}: ${http}`, fields);
  }

  #unauthorized(status: number, serverError: string): string {
    const said = `(${status} ${serverError || 'Unauthorized'})`;
    if (this.#apiKey === undefined) return `${this.baseUrl} requires an API key ${said}: set one`;
    const key = this.#keySource === undefined ? 'the API key' : `the API key in ${this.#keySource}`;
    return `${key} was rejected ${said}: check the key or unset it`;
  }

  #forbidden(status: number, serverError: string): string {
    const said = `${status} ${serverError || 'Forbidden'}`;
    if (this.#apiKey === undefined) return `access denied by ${this.baseUrl} (${said})`;
    const source = this.#keySource === undefined ? '' : `, key from ${this.#keySource}`;
    return `Network not allowed: the key was issued for the other network (${said} at ${this.baseUrl}${source})`;
  }

  /**
   * The longest of: the response's Retry-After; one request spacing, so the server has refilled a
   * token (with `rps` tokens a shorter pause chains 429s); and the backoff of this retry.
   */
  #rateLimitPauseMs(headers: Headers, retry: number, endpoint: string): number {
    const header = headers.get('retry-after');
    const asked = retryAfterMs(header, Date.now()) ?? 0;
    if (asked > MAX_RETRY_AFTER_MS) {
      const until = utcTime(Math.ceil((Date.now() + asked) / 1000));
      throw new RetryAfterTooLongError(
        `GET ${endpoint}: HTTP 429 asks to wait ${Math.ceil(asked / 1000)} s (Retry-After: ${header}), longer than the ${MAX_RETRY_AFTER_MS / 1000} s chain-etl waits while it holds the warehouse: run again after ${until}`,
        { endpoint },
      );
    }
    const backoff = backoffDelay(retry, this.#backoff, this.#random);
    return Math.ceil(Math.max(asked, this.#limiter.spacingMs, backoff));
  }

  #pauseAll(endpoint: string, pauseMs: number): void {
    const started = this.#limiter.pauseFor(pauseMs);
    if (!started) return;
    const fields = { endpoint, pause_ms: pauseMs };
    if (pauseMs >= LONG_PAUSE_MS) {
      this.#log.warn(fields, `rate limited (HTTP 429): the service asks to wait ${Math.ceil(pauseMs / 1000)} s; every request to this network pauses`);
    } else if (this.#pauseLogged) {
      this.#log.debug(fields, 'rate limited (HTTP 429): pausing all requests to this network');
    } else {
      this.#pauseLogged = true;
      this.#log.info(fields, 'rate limited (HTTP 429): pausing all requests to this network; lower rps if this repeats');
    }
  }

  #exhausted(endpoint: string, attempts: number, last: RetryableError): RetriesExhaustedError {
    const notTheApi =
      last instanceof InvalidBodyError && !last.truncated && (last.html || !/json/i.test(last.contentType));
    const failed = `GET ${endpoint} failed after ${attempts} ${attempts === 1 ? 'attempt' : 'attempts'}: ${last.message}`;
    const message = notTheApi
      ? `GET ${endpoint} answered ${attempts} times with ${last.message}: ${this.#notTheApi()}`
      : last instanceof ApiNetworkError
        ? `${failed}: cannot reach ${this.baseUrl}; check the base URL and that the service is up`
        : failed;
    return new RetriesExhaustedError(message, { endpoint, attempts, cause: last });
  }

  #notTheApi(): string {
    return `the base URL ${this.baseUrl} probably does not point at the Chain Data API (expected a service root such as https://toncenter.com)`;
  }

}

/** The server's own words: `error` (or `result`) of a JSON body, else the start of the text. */
function serverErrorText(text: string): string {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'string') return body;
    if (typeof body === 'object' && body !== null) {
      const { error, result } = body as { error?: unknown; result?: unknown };
      if (typeof error === 'string') return error;
      if (typeof result === 'string') return result;
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Node's fetch refuses the Fetch standard's blocked ports (6000, 6665–6669, …) with `bad port`: no retry can pass. */
function refusedPort(err: unknown): boolean {
  return err instanceof TypeError && err.cause instanceof Error && err.cause.message === 'bad port';
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? err.cause : undefined;
  const code = (cause as { code?: unknown } | undefined)?.code ?? (err as { code?: unknown }).code;
  const detail = cause?.message ?? err.message;
  return typeof code === 'string' && !detail.includes(code) ? `${code} ${detail}` : detail;
}
