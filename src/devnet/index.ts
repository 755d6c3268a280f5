/**
 * `startDevnet`: a local Chain Data API over a deterministic chain, for the demo, tests and benchmarks.
 */
import { Generator } from './chain/generator.js';
import { Rng } from './chain/rng.js';
import { ChainView } from './view.js';
import { RenderContext, type Network } from './render/context.js';
import { createDevnetServer, type RequestInfo } from './http/server.js';
import type { FaultProfile } from './http/faults.js';
import { devnetRoutes } from './api/routes.js';
import { truthRows, type TruthDataset } from './truth.js';
import type { DevnetApi } from './api/context.js';

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
  close(): Promise<void>;
}

export const DEVNET_DEFAULTS = { seed: 7, blocks: 2000, indexerLag: 0, classifyDelay: 2 } as const;

export function buildDevnetApi(opts: Pick<DevnetOptions, 'seed' | 'blocks' | 'network' | 'indexerLag' | 'classifyDelay'>): DevnetApi & { generator: Generator } {
  const seed = opts.seed ?? DEVNET_DEFAULTS.seed;
  const generator = Generator.generate(seed, opts.blocks ?? DEVNET_DEFAULTS.blocks);
  const view = new ChainView(generator.chain, {
    indexerLag: opts.indexerLag ?? DEVNET_DEFAULTS.indexerLag,
    classifyDelay: opts.classifyDelay ?? DEVNET_DEFAULTS.classifyDelay,
  });
  return { generator, view, render: new RenderContext(generator.chain, opts.network ?? 'mainnet'), tieRng: new Rng(seed ^ 0x7e1e5) };
}

export async function startDevnet(opts: DevnetOptions = {}): Promise<Devnet> {
  const api = buildDevnetApi(opts);
  const faultRng = new Rng((opts.seed ?? DEVNET_DEFAULTS.seed) ^ 0xfa017);
  const server = await createDevnetServer({
    routes: devnetRoutes(api),
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
    for (let i = 0; i < blocks; i++) api.generator.advance();
  };
  const timer = opts.growMs ? setInterval(() => grow(1), opts.growMs) : undefined;
  timer?.unref();
  return {
    url: server.url,
    port: server.port,
    generator: api.generator,
    view: api.view,
    grow,
    truth: (dataset) => truthRows(api, dataset),
    close: async () => {
      if (timer !== undefined) clearInterval(timer);
      await server.close();
    },
  };
}

export type { TruthDataset };
