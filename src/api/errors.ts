import { FatalError, RetryableError } from '../core/errors.js';

/** Every error of the HTTP client names the endpoint (path only, e.g. `/api/v3/transactions`). */
interface ApiErrorFields {
  readonly endpoint: string;
  /** HTTP status, when a response arrived. */
  readonly status?: number;
  readonly cause?: unknown;
}

/** Connection refused or reset, DNS failure, or the body stream broke off. */
export class ApiNetworkError extends RetryableError {
  readonly endpoint: string;
  constructor(message: string, fields: ApiErrorFields) {
    super(message, { cause: fields.cause });
    this.endpoint = fields.endpoint;
  }
}

/** No complete response within the client's timeout. */
export class ApiTimeoutError extends RetryableError {
  readonly endpoint: string;
  readonly timeoutMs: number;
  constructor(message: string, fields: ApiErrorFields & { readonly timeoutMs: number }) {
    super(message, { cause: fields.cause });
    this.endpoint = fields.endpoint;
    this.timeoutMs = fields.timeoutMs;
  }
}

/** 5xx (but 542) or 408: the server may answer next time. */
export class ApiServerError extends RetryableError {
  readonly endpoint: string;
  readonly status: number;
  /** The server's error text (`error` of the JSON body, or the start of a non-JSON body). */
  readonly serverError: string;
  constructor(message: string, fields: ApiErrorFields & { readonly status: number; readonly serverError: string }) {
    super(message, { cause: fields.cause });
    this.endpoint = fields.endpoint;
    this.status = fields.status;
    this.serverError = fields.serverError;
  }
}

/** 429: over the plan's requests per second. */
export class RateLimitedError extends ApiServerError {}

/** A 429 whose Retry-After asks for more than the client waits (`MAX_RETRY_AFTER_MS`). */
export class RetryAfterTooLongError extends FatalError {
  readonly endpoint: string;
  constructor(message: string, fields: ApiErrorFields) {
    super(message, { cause: fields.cause });
    this.endpoint = fields.endpoint;
  }
}

/** A success status whose body carries the service's error (`"error"`, `"ok": false`): no answer, whatever else it holds. */
export class ErrorBodyError extends RetryableError {
  readonly endpoint: string;
  readonly status: number;
  constructor(message: string, fields: ApiErrorFields & { readonly status: number }) {
    super(message, { cause: fields.cause });
    this.endpoint = fields.endpoint;
    this.status = fields.status;
  }
}

/** A success status whose body is not complete JSON (truncated, malformed, HTML). */
export class InvalidBodyError extends RetryableError {
  readonly endpoint: string;
  readonly status: number;
  readonly contentType: string;
  /** The body looks like an HTML page rather than the API's JSON. */
  readonly html: boolean;
  /** Fewer bytes arrived than the response declared. */
  readonly truncated: boolean;
  constructor(
    message: string,
    fields: ApiErrorFields & {
      readonly status: number;
      readonly contentType: string;
      readonly html: boolean;
      readonly truncated: boolean;
    },
  ) {
    super(message, { cause: fields.cause });
    this.endpoint = fields.endpoint;
    this.status = fields.status;
    this.contentType = fields.contentType;
    this.html = fields.html;
    this.truncated = fields.truncated;
  }
}

/** Every attempt failed with a retryable error; `cause` is the last one. */
export class RetriesExhaustedError extends RetryableError {
  readonly endpoint: string;
  readonly attempts: number;
  constructor(message: string, fields: ApiErrorFields & { readonly attempts: number }) {
    super(message, { cause: fields.cause });
    this.endpoint = fields.endpoint;
    this.attempts = fields.attempts;
  }
}

/** 401 (key rejected) or 403 (key of the other network). */
export class AuthError extends FatalError {
  readonly endpoint: string;
  readonly status: number;
  readonly serverError: string;
  constructor(message: string, fields: ApiErrorFields & { readonly status: number; readonly serverError: string }) {
    super(message, { cause: fields.cause });
    this.endpoint = fields.endpoint;
    this.status = fields.status;
    this.serverError = fields.serverError;
  }
}

/** 404, 422, other 4xx and 542: the same request would fail again. */
export class ApiRequestError extends FatalError {
  readonly endpoint: string;
  readonly status: number;
  readonly serverError: string;
  constructor(message: string, fields: ApiErrorFields & { readonly status: number; readonly serverError: string }) {
    super(message, { cause: fields.cause });
    this.endpoint = fields.endpoint;
    this.status = fields.status;
    this.serverError = fields.serverError;
  }
}

/** A response that is JSON but not the shape the API documents (e.g. no `transactions` array). */
export class ApiContractError extends FatalError {
  readonly endpoint: string;
  constructor(message: string, fields: ApiErrorFields) {
    super(message, { cause: fields.cause });
    this.endpoint = fields.endpoint;
  }
}

/** A redirect the client does not follow: to another origin (it would carry the key there), without a target, or one too many. */
export class RedirectError extends FatalError {
  readonly endpoint: string;
  readonly status: number;
  constructor(message: string, fields: ApiErrorFields & { readonly status: number }) {
    super(message, { cause: fields.cause });
    this.endpoint = fields.endpoint;
    this.status = fields.status;
  }
}

/** A body larger than the client's cap (counted after decompression): the same request would send it again. */
export class ResponseTooLargeError extends FatalError {
  readonly endpoint: string;
  readonly status: number;
  readonly maxBytes: number;
  constructor(message: string, fields: ApiErrorFields & { readonly status: number; readonly maxBytes: number }) {
    super(message, { cause: fields.cause });
    this.endpoint = fields.endpoint;
    this.status = fields.status;
    this.maxBytes = fields.maxBytes;
  }
}

/** 414 or 431: the request's URL (its filter lists) is longer than the service or a proxy before it takes; the same request would fail again. */
export class UrlTooLongError extends ApiRequestError {
  readonly urlBytes: number;
  constructor(fields: ApiErrorFields & { readonly status: number; readonly serverError: string; readonly urlBytes: number }) {
    super(
      `GET ${fields.endpoint}: HTTP ${fields.status}: the request URL (${fields.urlBytes} bytes) was too long for the service: give the stream fewer addresses in its filter lists, over several pipelines`,
      fields,
    );
    this.urlBytes = fields.urlBytes;
  }
}
