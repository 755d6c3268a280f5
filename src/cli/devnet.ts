import type { CommandModule } from 'yargs';
import { DEVNET_DEFAULTS, TRUTH_DATASETS, type TruthDataset } from '../devnet/defaults.js';
import { ConfigError } from '../core/errors.js';
import type { Network } from '../devnet/render/context.js';

interface ChainArgs {
  seed: number;
  blocks: number;
  network: Network;
  'indexer-lag': number;
  'classify-delay': number;
}

const chainOptions = {
  seed: { type: 'number', default: DEVNET_DEFAULTS.seed, describe: 'seed of the generated chain' },
  blocks: { type: 'number', default: DEVNET_DEFAULTS.blocks, describe: 'masterchain blocks to generate' },
  network: { choices: ['mainnet', 'testnet'] as const, default: 'mainnet' as Network, describe: 'network this devnet pretends to be' },
  'indexer-lag': { type: 'number', default: DEVNET_DEFAULTS.indexerLag, describe: 'masterchain blocks the v3 index trails the v2 head by' },
  'classify-delay': { type: 'number', default: DEVNET_DEFAULTS.classifyDelay, describe: 'masterchain blocks before a completed trace\'s actions appear' },
} as const;

interface ServeArgs extends ChainArgs {
  port: number;
  keys?: string;
  'free-rps': number;
  'key-rps': number;
  latency: number;
  faults?: string;
  grow: number;
  'replica-lag': number;
}

const serve: CommandModule<object, ServeArgs> = {
  command: '$0',
  describe: 'serve the v2 and v3 API on 127.0.0.1 until SIGINT/SIGTERM',
  builder: (y) =>
    y.options({
      ...chainOptions,
      port: { type: 'number', default: 8081, describe: 'port on 127.0.0.1 (0 = any free port)' },
      keys: { type: 'string', describe: 'API keys per network, e.g. mainnet:K1,testnet:K2' },
      'free-rps': { type: 'number', default: 1, describe: 'requests/s allowed without a key' },
      'key-rps': { type: 'number', default: 10, describe: 'requests/s allowed per key' },
      latency: { type: 'number', default: 0, describe: 'fixed latency of every answer, ms' },
      faults: { type: 'string', describe: 'JSON fault profile (see README)' },
      grow: { type: 'number', default: 0, describe: 'append a masterchain block every N ms (0 = static chain)' },
      'replica-lag': { type: 'number', default: 0, describe: 'every other v3 request is answered by a replica N masterchain blocks behind' },
    }) as never,
  handler: async (args) => {
    // Loaded here: generating a chain needs modules the other commands never use.
    const { startDevnet } = await import('../devnet/index.js');
    const { loadFaultProfile } = await import('../devnet/http/faults.js');
    const devnet = await startDevnet({
      seed: args.seed,
      blocks: positive('--blocks', args.blocks),
      port: args.port,
      network: args.network,
      keys: parseKeys(args.keys),
      freeRps: positive('--free-rps', args['free-rps']),
      keyRps: positive('--key-rps', args['key-rps']),
      indexerLag: args['indexer-lag'],
      classifyDelay: args['classify-delay'],
      latencyMs: args.latency,
      faults: args.faults === undefined ? undefined : await loadFaultProfile(args.faults),
      growMs: args.grow,
      replicaLag: args['replica-lag'],
    });
    const chain = devnet.generator.chain;
    process.stdout.write(
      `devnet listening on ${devnet.url} (seed ${args.seed}, ${chain.steps} masterchain blocks, ${chain.txs.length} transactions, network ${args.network})\n`,
    );
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await devnet.close();
  },
};

interface TruthArgs extends ChainArgs {
  dataset: TruthDataset;
}

const truth: CommandModule<object, TruthArgs> = {
  command: 'truth',
  describe: 'print, as NDJSON, exactly the objects the API returns for a dataset over the whole chain',
  builder: (y) =>
    y.options({
      ...chainOptions,
      dataset: { choices: TRUTH_DATASETS, demandOption: true, describe: 'which objects' },
    }) as never,
  handler: async (args) => {
    const { buildDevnetApi } = await import('../devnet/index.js');
    const { truthRows } = await import('../devnet/truth.js');
    const api = buildDevnetApi({ seed: args.seed, blocks: positive('--blocks', args.blocks), network: args.network, indexerLag: args['indexer-lag'], classifyDelay: args['classify-delay'] });
    const out: string[] = [];
    for (const row of truthRows(api, args.dataset)) out.push(JSON.stringify(row));
    await new Promise<void>((resolve, reject) => process.stdout.write(out.join('\n') + (out.length ? '\n' : ''), (e) => (e ? reject(e) : resolve())));
  },
};

export const devnetCommand: CommandModule = {
  builder: (y) => y.command(serve as CommandModule).command(truth as CommandModule),
  handler: () => undefined,
};

function parseKeys(text: string | undefined): Map<string, Network> {
  const keys = new Map<string, Network>();
  if (text === undefined || text === '') return keys;
  for (const entry of text.split(',')) {
    const [network, key] = entry.split(':');
    if ((network !== 'mainnet' && network !== 'testnet') || !key) {
      throw new ConfigError(`--keys: expected network:key pairs like mainnet:K1,testnet:K2, got an entry that is not of that form`);
    }
    keys.set(key, network);
  }
  return keys;
}

function positive(flag: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new ConfigError(`${flag} must be a whole number from 1 up, got ${value}`);
  return value;
}
