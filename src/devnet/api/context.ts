import type { ChainView } from '../view.js';
import type { RenderContext } from '../render/context.js';
import type { Rng } from '../chain/rng.js';
import type { SubmittedTransfer } from '../chain/submitted-transfer.js';
import { Refs } from '../render/refs.js';
import { renderAddressBook, renderMetadata } from '../render/address-book.js';
import { ApiError } from '../http/api-error.js';
import type { QueryParams } from '../http/query-params.js';
import type { DevnetRequest } from '../http/types.js';
import type { PageRequest } from './paging.js';
import { readAddress } from '../../transform/address.js';

/** What every endpoint handler works with. */
export interface DevnetApi {
  readonly view: ChainView;
  readonly render: RenderContext;
  /** Seeded, advanced per request: tie order differs between requests but a replayed session repeats. */
  readonly tieRng: Rng;
  /** Queues a client's wallet transfer (sendBoc) for the chain's next block. */
  readonly submit: (transfer: SubmittedTransfer) => void;
}

/** Addresses are accepted in any form (raw, bounceable or not, url-safe or not), as on the real service. */
export function parseAddress(name: string, text: string): string {
  const reading = readAddress(text);
  if ('raw' in reading) return reading.raw;
  throw new ApiError(422, `failed to parse ${name}: invalid address ${JSON.stringify(text)}`);
}

/** Account index of an address parameter, or -1 when the address is valid but unknown to the chain. */
export function accountParam(api: DevnetApi, name: string, text: string): number {
  return api.view.chain.population.byRaw.get(parseAddress(name, text)) ?? -1;
}

/** Account indexes of a repeated address parameter (at most `max` values), or undefined when absent. */
export function accountsParam(api: DevnetApi, query: QueryParams, name: string, max = 1000): number[] | undefined {
  const values = query.getAll(name);
  if (values.length === 0) return undefined;
  if (values.length > max) throw new ApiError(422, `${name}: too many values: ${values.length} > ${max}`);
  return values.map((text) => accountParam(api, name, text));
}

/** Hashes are accepted as hex, base64 or base64url and compared in standard base64. */
export function parseHash(name: string, text: string): string {
  const hex = /^[0-9a-fA-F]{64}$/.test(text);
  const bytes = hex ? Buffer.from(text, 'hex') : Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length !== 32) throw new ApiError(422, `failed to parse ${name}: invalid hash ${JSON.stringify(text)}`);
  return bytes.toString('base64');
}

export function pageParams(query: QueryParams, defaultLimit = 10, maxLimit = 1000): PageRequest {
  return { limit: query.limit(defaultLimit, maxLimit), offset: query.offset(), sort: query.sort() };
}

/** lt parameters are 64-bit; the devnet's lts fit in a double exactly. */
export function ltParam(query: QueryParams, name: string): number | undefined {
  const value = query.bigint(name, { min: 0n });
  return value === undefined ? undefined : Number(value);
}

/** Adds the enrichment blocks the real service adds unless the client opts out with X-No-Address-Book / X-No-Metadata. */
export function enrich(
  api: DevnetApi,
  req: DevnetRequest,
  body: Record<string, unknown>,
  refs: Refs,
  parts: { addressBook: boolean; metadata: boolean },
): Record<string, unknown> {
  if (parts.addressBook) body.address_book = optedOut(req, 'x-no-address-book') ? {} : renderAddressBook(api.render, refs.accounts);
  if (parts.metadata) body.metadata = optedOut(req, 'x-no-metadata') ? {} : renderMetadata(api.render, refs.accounts);
  return body;
}

/** The opt-out comes as a header (`X-No-Metadata: true`) or a query flag (`x_no_metadata=true`). */
function optedOut(req: DevnetRequest, header: string): boolean {
  const headerValue = req.headers[header];
  const value = (Array.isArray(headerValue) ? headerValue[0] : headerValue) ?? req.query.get(header.replace(/-/g, '_'));
  return value === 'true' || value === '1';
}

export { Refs };
