/**
 * Bench-only devnet process: generates one chain (the same as `chain-etl devnet --seed S --blocks N`)
 * and serves it through the devnet's own HTTP server (`createDevnetServer`, same routes, auth, limiter
 * and latency as `chain-etl devnet`), but with counters: every request is recorded through
 * `onRequest` (time, status, path), so a benchmark can count 429s and requests from the server side.
 *
 * One process can serve several listeners over the same chain (one per rate/latency setting), so
 * the chain is generated once per benchmark. It is driven by JSON lines on stdin, one reply line on
 * stdout per command (see DevnetCommand); the first stdout line is `{"ready":…}`.
 *
 * `record` and `replay` open listeners over a devnet listener (bench/replay-listener.ts): the first
 * records its answers, the second serves them again byte for byte with a rate limit and latency.
 *
 *   node .bench-build/bench/devnet-server.js --blocks 4000 [--seed 7]
 */
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { buildDevnetApi } from '../src/devnet/index.js';
import { createDevnetServer, type DevnetServer, type RequestInfo } from '../src/devnet/http/server.js';
import { devnetRoutes } from '../src/devnet/api/routes.js';
import { Rng } from '../src/devnet/chain/rng.js';
import { recordingListener, replayingListener, type RecordingStore } from './replay-listener.js';

/** The key every listener accepts (network mainnet). */
export const BENCH_KEY = 'BENCHKEY';

export type DevnetCommand =
  | { readonly op: 'serve'; readonly keyRps: number; readonly latencyMs: number }
  | { readonly op: 'record'; readonly upstreamId: number }
  | { readonly op: 'replay'; readonly upstreamId: number; readonly keyRps: number; readonly latencyMs: number }
  | { readonly op: 'stats'; readonly id: number }
  | { readonly op: 'close'; readonly id: number }
  | { readonly op: 'usage' }
  | { readonly op: 'range'; readonly fromStep: number; readonly transactions: number };

export interface ReadyLine {
  readonly ready: true;
  readonly blocks: number;
  readonly transactions: number;
  readonly generateSeconds: number;
}

export interface ServeReply {
  readonly id: number;
  readonly url: string;
}

export interface ServerStats {
  readonly requests: number;
  readonly byStatus: Readonly<Record<string, number>>;
  readonly byPath: Readonly<Record<string, number>>;
  /** Epoch ms: arrival of the first request, answer of the last one (undefined before any request). */
  readonly firstAt: number | undefined;
  readonly lastAt: number | undefined;
  readonly rateLimited: number;
  /** 429s answered to requests that arrived more than 1 s after the first request. */
  readonly rateLimitedAfterFirstSecond: number;
  /** Most requests that arrived in any 1 s window (sliding, by arrival). */
  readonly maxPerSecond: number;
  /** For the first 20 429s: ms between the refused request's arrival and the previous arrival. */
  readonly rateLimitedGapsMs: readonly number[];
  /** Requests a replaying listener had no recording for (forwarded to the devnet and recorded then). */
  readonly notReplayed: number;
}

export interface UsageReply {
  /** CPU seconds (user + system, all threads) of this process since it started. */
  readonly cpuSeconds: number;
  readonly maxRssKiB: number;
}

export interface RangeReply {
  /** Steps (masterchain blocks, 0-based) [fromStep, toStep). */
  readonly fromStep: number;
  readonly toStep: number;
  /** lt bounds: every transaction of the steps has fromLt ≤ lt < toLt. */
  readonly fromLt: string;
  readonly toLt: string;
  readonly transactions: number;
}

interface LogEntry {
  /** Epoch ms of arrival and of the answer. */
  readonly at: number;
  readonly done: number;
  readonly status: number;
  readonly path: string;
  /** False for a replaying listener's request it had no recording for. */
  readonly replayed: boolean;
}

interface Listener {
  readonly server: Pick<DevnetServer, 'url' | 'close'>;
  readonly upstream: string;
  readonly log: LogEntry[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { blocks: { type: 'string' }, seed: { type: 'string', default: '7' } } });
  const seed = Number(values.seed);
  const blocks = Number(values.blocks ?? 2000);
  const started = performance.now();
  const api = buildDevnetApi({ seed, blocks, network: 'mainnet' });
  const chain = api.generator.chain;
  const routes = devnetRoutes(api);
  const faultRng = new Rng(seed ^ 0xfa017);
  const listeners = new Map<number, Listener>();
  const recordings: RecordingStore = new Map();
  let nextId = 1;
  const add = (server: Listener['server'], upstream: string, log: LogEntry[]): ServeReply => {
    const id = nextId++;
    listeners.set(id, { server, upstream, log });
    return { id, url: server.url };
  };
  const reply = (value: unknown): void => {
    process.stdout.write(`${JSON.stringify(value)}\n`);
  };
  reply({ ready: true, blocks: chain.steps, transactions: chain.txs.length, generateSeconds: (performance.now() - started) / 1000 } satisfies ReadyLine);

  const handle = async (command: DevnetCommand): Promise<unknown> => {
    switch (command.op) {
      case 'serve': {
        const log: Listener['log'] = [];
        const server = await createDevnetServer({
          routes,
          network: 'mainnet',
          keys: new Map([[BENCH_KEY, 'mainnet']]),
          freeRps: 1,
          keyRps: command.keyRps,
          latencyMs: command.latencyMs,
          random: () => faultRng.next(),
          port: 0,
          onRequest: (info: RequestInfo) => {
            const done = Date.now();
            log.push({ at: done - info.ms, done, status: info.status, path: info.path, replayed: true });
          },
        });
        return add(server, server.url, log);
      }
      case 'record':
      case 'replay': {
        const log: Listener['log'] = [];
        const upstream = listeners.get(command.upstreamId)?.upstream;
        if (upstream === undefined) throw new Error(`no devnet listener ${command.upstreamId}`);
        const events = { onRequest: (at: number, done: number, status: number, path: string, replayed: boolean) => log.push({ at, done, status, path, replayed }) };
        const server =
          command.op === 'record'
            ? await recordingListener(upstream, recordings, events)
            : await replayingListener(upstream, recordings, command, events);
        return add(server, upstream, log);
      }
      case 'stats':
        return statsOf(listeners.get(command.id)?.log ?? []);
      case 'close': {
        await listeners.get(command.id)?.server.close();
        listeners.delete(command.id);
        return { closed: command.id };
      }
      case 'usage': {
        const usage = process.resourceUsage();
        return { cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6, maxRssKiB: usage.maxRSS } satisfies UsageReply;
      }
      case 'range': {
        const after = (step: number): number => (step < 0 ? 0 : chain.txCountAfterStep[step]!);
        const fromStep = command.fromStep;
        let toStep = fromStep;
        while (toStep < chain.steps && after(toStep - 1) - after(fromStep - 1) < command.transactions) toStep++;
        const ltOf = (step: number): number => (step < chain.steps ? chain.mcBlock(step).startLt : chain.mcBlock(chain.steps - 1).startLt + 1_000_000);
        return {
          fromStep,
          toStep,
          fromLt: String(ltOf(fromStep)),
          toLt: String(ltOf(toStep)),
          transactions: after(toStep - 1) - after(fromStep - 1),
        } satisfies RangeReply;
      }
    }
  };

  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    try {
      reply({ ok: await handle(JSON.parse(line) as DevnetCommand) });
    } catch (error) {
      reply({ error: error instanceof Error ? error.message : String(error) });
    }
  }
  // stdin closed: the benchmark is done with this devnet.
  for (const { server } of listeners.values()) await server.close();
}

function statsOf(log: readonly LogEntry[]): ServerStats {
  const byStatus: Record<string, number> = {};
  const byPath: Record<string, number> = {};
  for (const entry of log) {
    byStatus[entry.status] = (byStatus[entry.status] ?? 0) + 1;
    byPath[entry.path] = (byPath[entry.path] ?? 0) + 1;
  }
  const arrivals = log.map((entry) => entry.at).sort((a, b) => a - b);
  const firstAt = arrivals[0];
  let maxPerSecond = 0;
  for (let lo = 0, hi = 0; hi < arrivals.length; hi++) {
    while (arrivals[hi]! - arrivals[lo]! >= 1000) lo++;
    maxPerSecond = Math.max(maxPerSecond, hi - lo + 1);
  }
  const limited = log.filter((entry) => entry.status === 429);
  const byArrival = [...log].sort((a, b) => a.at - b.at);
  const rateLimitedGapsMs = byArrival
    .map((entry, index) => (entry.status === 429 && index > 0 ? entry.at - byArrival[index - 1]!.at : -1))
    .filter((gap) => gap >= 0)
    .slice(0, 20);
  return {
    requests: log.length,
    byStatus,
    byPath,
    firstAt,
    lastAt: log.reduce<number | undefined>((last, entry) => (last === undefined || entry.done > last ? entry.done : last), undefined),
    rateLimited: limited.length,
    rateLimitedAfterFirstSecond: firstAt === undefined ? 0 : limited.filter((entry) => entry.at > firstAt + 1000).length,
    maxPerSecond,
    rateLimitedGapsMs,
    notReplayed: log.filter((entry) => !entry.replayed).length,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
