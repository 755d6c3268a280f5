import { onTestFinished } from 'vitest';
import { ApiError } from '../../../src/devnet/http/api-error.js';
import {
  createDevnetServer,
  type DevnetServer,
  type DevnetServerOptions,
  type RequestInfo,
} from '../../../src/devnet/http/server.js';
import type { DevnetRequest, RouteTable } from '../../../src/devnet/http/types.js';
import { seededRandom } from '../../support/seeded-random.js';

export const MAINNET_KEY = 'mainnet-key-0001';
export const MAINNET_KEY_2 = 'mainnet-key-0002';
export const TESTNET_KEY = 'testnet-key-0001';
export const KEYS = new Map([
  [MAINNET_KEY, 'mainnet'],
  [MAINNET_KEY_2, 'mainnet'],
  [TESTNET_KEY, 'testnet'],
] as const);

/** Everything a handler received, so tests can see what the server passed in. */
function echo(req: DevnetRequest): unknown {
  const query = Object.fromEntries(req.query.names().map((n) => [n, req.query.getAll(n)]));
  return { method: req.method, version: req.version, endpoint: req.endpoint, query, body: req.body ?? null };
}

export const TRANSACTIONS = [
  { hash: 'aGFzaDE=', lt: '67098924000001', finality: 'finalized', account_state_before: { finality: 'confirmed' } },
  { hash: 'aGFzaDI=', lt: '67098924000002', finality: 'finalized' },
];

export const MASTERCHAIN_INFO = {
  '@type': 'blocks.masterchainInfo',
  last: { '@type': 'ton.blockIdExt', workchain: -1, shard: '-9223372036854775808', seqno: 57442406 },
};

export const stubRoutes: RouteTable = {
  v2: {
    echo,
    getMasterchainInfo: () => MASTERCHAIN_INFO,
    getBlockTransactions: (req) => ({
      workchain: req.query.int('workchain', { required: true, min: -1, max: 0 }),
      seqno: req.query.int('seqno', { required: true }),
      count: req.query.int('count') ?? 40,
    }),
  },
  v3: {
    echo,
    transactions: (req) => ({
      transactions: TRANSACTIONS,
      address_book: {},
      paging: { limit: req.query.limit(10, 1000), offset: req.query.offset(), sort: req.query.sort() },
    }),
    'jetton/transfers': () => ({ jetton_transfers: [], address_book: {}, metadata: {} }),
    conflict: () => {
      throw new ApiError(409, 'Smart contract is not Jetton or NFT');
    },
    bug: () => {
      throw new Error('handler bug');
    },
    bigint: () => ({ lt: 1n }),
    nothing: () => undefined,
  },
};

/** A clock tests move by hand. */
export class FakeClock {
  constructor(public ms = 1_763_745_600_000) {}
  readonly now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** Returns the given values in order, then `fallback` forever. */
export function scripted(values: readonly number[], fallback = 0.999): () => number {
  let i = 0;
  return () => values[i++] ?? fallback;
}

export interface TestServer extends DevnetServer {
  readonly clock: FakeClock;
  readonly requests: RequestInfo[];
}

/** A devnet on a random loopback port with the stub routes and a frozen clock; closed after the test. */
export async function startServer(overrides: Partial<DevnetServerOptions> = {}): Promise<TestServer> {
  const clock = new FakeClock();
  const requests: RequestInfo[] = [];
  const server = await createDevnetServer({
    routes: stubRoutes,
    keys: KEYS,
    random: seededRandom(1),
    now: clock.now,
    onRequest: (info) => requests.push(info),
    ...overrides,
  });
  onTestFinished(() => server.close());
  return { ...server, clock, requests };
}

export async function getJson(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const res = await fetch(url, init);
  return { status: res.status, body: (await res.json()) as unknown, headers: res.headers };
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}
