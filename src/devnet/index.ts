/**
 * `startDevnet`: a local Chain Data API over a deterministic chain, for the demo, tests and benchmarks.
 */
import { Generator, type ChainStall } from './chain/generator.js';
import { Rng } from './chain/rng.js';
import { ChainView } from './view.js';
import { RenderContext, type Network } from './render/context.js';
import { transactionHasher } from './render/transaction-cell.js';
import { createDevnetServer, type RequestInfo } from './http/server.js';
import type { FaultProfile } from './http/faults.js';
import { devnetRoutes } from './api/routes.js';
import { truthRows, type TruthDataset } from './truth.js';
import { DEVNET_DEFAULTS } from './defaults.js';
import type { DevnetApi } from './api/context.js';
import type { Handler, RouteTable } from './http/types.js';
import { reclassifyTraces } from './chain/reclassify.js';

export interface DevnetOptions {
  /** Seed of the chain and of every random choice the devnet makes. @default 7 */
  readonly seed?: number;
  /** Masterchain blocks generated before serving. @default 2000 */
  readonly blocks?: number;
  /** Port on 127.0.0.1; 0 picks a free one. @default 0 */
  readonly port?: number;
  /** Network this devnet pretends to be. @default 'mainnet' */
  readonly network?: Network;
  /** API keys and the network each was issued for. @default none */
  readonly keys?: ReadonlyMap<string, Network>;
  /** Requests per second without a key. @default 1 */
  readonly freeRps?: number;
  /** Requests per second per key. @default 10 */
  readonly keyRps?: number;
  /** Masterchain blocks the v3 index trails the head (v2) by. @default 0 */
  readonly indexerLag?: number;
  /** Masterchain blocks after a trace completes before its actions are visible. @default 2 */
  readonly classifyDelay?: number;
  /** Fixed latency of every answer, ms. @default 0 */
  readonly latencyMs?: number;
  readonly faults?: FaultProfile;
  /** Append a masterchain block every this many ms; 0 = static chain. @default 0 */
  readonly growMs?: number;
  /** Every other v3 request is answered by a replica this many masterchain blocks behind (the head moves backwards between requests). @default 0 */
  readonly replicaLag?: number;
  /** The chain halts once: a block is generated long after the one before it. @default none */
  readonly stall?: ChainStall;
  readonly onRequest?: (info: RequestInfo) => void;
}

export interface Devnet {
  readonly url: string;
  readonly port: number;
  readonly generator: Generator;
  readonly view: ChainView;
  /** Appends masterchain blocks now (as --grow does over time). */
  grow(blocks?: number): void;
  /** The objects the API would return for a dataset, whole visible chain, canonical order. */
  truth(dataset: TruthDataset): Record<string, unknown>[];
  /** Re-labels the newest `count` visible ton_transfer traces as `newType` (their action_ids change); returns the trace ids. */
  reclassify(count: number, newType?: string): string[];
  /** The indexer stops advancing while the chain grows, until `resumeIndexer`. */
  stallIndexer(): void;
  resumeIndexer(): void;
  close(): Promise<void>;
}

export { DEVNET_DEFAULTS };

export function buildDevnetApi(opts: Pick<DevnetOptions, 'seed' | 'blocks' | 'network' | 'indexerLag' | 'classifyDelay' | 'stall'>): DevnetApi & { generator: Generator } {
  const seed = opts.seed ?? DEVNET_DEFAULTS.seed;
  const generator = Generator.generate(seed, opts.blocks ?? DEVNET_DEFAULTS.blocks, transactionHasher, opts.stall);
  const view = new ChainView(generator.chain, {
    indexerLag: opts.indexerLag ?? DEVNET_DEFAULTS.indexerLag,
    classifyDelay: opts.classifyDelay ?? DEVNET_DEFAULTS.classifyDelay,
  });
  return {
    generator,
    view,
    render: new RenderContext(generator.chain, opts.network ?? 'mainnet'),
    tieRng: new Rng(seed ^ 0x7e1e5),
    submit: (transfer) => generator.submit(transfer),
  };
}

export async function startDevnet(opts: DevnetOptions = {}): Promise<Devnet> {
  const api = buildDevnetApi(opts);
  const faultRng = new Rng((opts.seed ?? DEVNET_DEFAULTS.seed) ^ 0xfa017);
  const server = await createDevnetServer({
    routes: withReplicas(devnetRoutes(api), api.view, opts.replicaLag ?? 0),
    network: opts.network ?? 'mainnet',
    keys: opts.keys ?? new Map(),
    freeRps: opts.freeRps ?? 1,
    keyRps: opts.keyRps ?? 10,
    latencyMs: opts.latencyMs ?? 0,
    faults: opts.faults,
    random: () => faultRng.next(),
    port: opts.port ?? 0,
    onRequest: opts.onRequest,
  });
  const grow = (blocks = 1): void => {
    api.view.growing = true;
    for (let i = 0; i < blocks; i++) api.generator.advance();
  };
  if (opts.growMs) api.view.growing = true;
  const timer = opts.growMs ? setInterval(() => grow(1), opts.growMs) : undefined;
  timer?.unref();
  return {
    url: server.url,
    port: server.port,
    generator: api.generator,
    view: api.view,
    grow,
    truth: (dataset) => truthRows(api, dataset),
    reclassify: (count, newType) => reclassifyTraces(api.view.chain, count, api.view.indexedSeqno - api.view.options.classifyDelay, newType),
    stallIndexer: () => api.view.stallIndexer(),
    resumeIndexer: () => api.view.resumeIndexer(),
    close: async () => {
      if (timer !== undefined) clearInterval(timer);
      await server.close();
    },
  };
}

/** Alternates v3 requests between the primary and a replica `lag` blocks behind it. */
function withReplicas(routes: RouteTable, view: ChainView, lag: number): RouteTable {
  if (lag === 0) return routes;
  let requests = 0;
  const v3: Record<string, Handler> = {};
  for (const [endpoint, handler] of Object.entries(routes.v3)) {
    v3[endpoint] = (req) => {
      view.replicaLag = requests++ % 2 === 1 ? lag : 0;
      try {
        return handler(req);
      } finally {
        view.replicaLag = 0;
      }
    };
  }
  return { v2: routes.v2, v3 };
}

export type { TruthDataset };
