import type { QueryParams } from './query-params.js';

export type ApiVersion = 'v2' | 'v3';

export type Network = 'mainnet' | 'testnet';

export interface DevnetRequest {
  readonly method: 'GET' | 'POST';
  readonly version: ApiVersion;
  /** Path after `/api/v2/` or `/api/v3/`, e.g. `transactions`, `jetton/transfers`, `getMasterchainInfo`. */
  readonly endpoint: string;
  /** URL query; on v2 the fields of a JSON object body are exposed here too (v2 methods accept POST JSON). */
  readonly query: QueryParams;
  /** Parsed JSON body of a POST, else undefined. */
  readonly body: unknown;
  /** Request headers, lower-case names (e.g. `x-no-address-book`). */
  readonly headers: RequestHeaders;
}

export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** Returns the JSON-ready payload (v2: the `result` only; v3: the whole body). Throws ApiError. */
export type Handler = (req: DevnetRequest) => unknown;

export interface RouteTable {
  readonly v2: Readonly<Record<string, Handler>>;
  readonly v3: Readonly<Record<string, Handler>>;
}
