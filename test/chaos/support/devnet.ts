/**
 * A devnet for the chaos suite: `startTestDevnet`'s key and rate, plus the fault profile, growth,
 * a lagging replica, and a log of every answer (statuses, injected faults) that tests can wait on,
 * e.g. "the 3rd page of data has just been sent" to kill the CLI right after it.
 */
import { startDevnet, type Devnet } from '../../../src/devnet/index.js';
import type { FaultProfile } from '../../../src/devnet/http/faults.js';
import type { RequestInfo } from '../../../src/devnet/http/server.js';
import { allStreams } from '../../../src/streams/index.js';
import { KEY } from '../../support/test-key.js';

export interface ChaosDevnetOptions {
  readonly seed: number;
  readonly blocks: number;
  /** @default 2 (the devnet's default) */
  readonly classifyDelay?: number;
  /** Fixed latency of every answer, ms. @default 0 */
  readonly latencyMs?: number;
  readonly faults?: FaultProfile;
  /** Append a masterchain block every this many ms. @default 0 */
  readonly growMs?: number;
  /** Every other v3 request is answered by a replica this many blocks behind. @default 0 */
  readonly replicaLag?: number;
}

/**
 * The endpoints the streams page through, snapshot streams included: an answer from one of them
 * carries a page of data (the `/api/v3/blocks` answers to a run's block lookups count too: they come
 * before its first page).
 */
const DATA_PATHS = new Set(allStreams.map((stream) => stream.endpoint));

export function isDataPage(info: RequestInfo): boolean {
  return info.status === 200 && info.fault === undefined && DATA_PATHS.has(info.path);
}

/** Every answer the devnet gave, counted by status and injected fault; listeners see each one. */
export class RequestLog {
  total = 0;
  dataPages = 0;
  readonly statuses = new Map<number, number>();
  readonly faults = new Map<string, number>();
  readonly #listeners = new Set<(info: RequestInfo) => void>();

  record(info: RequestInfo): void {
    this.total += 1;
    if (isDataPage(info)) this.dataPages += 1;
    this.statuses.set(info.status, (this.statuses.get(info.status) ?? 0) + 1);
    for (const fault of info.faults) this.faults.set(fault, (this.faults.get(fault) ?? 0) + 1);
    for (const listener of this.#listeners) listener(info);
  }

  /** Calls `listener` for every answer from now on; returns the function that stops it. */
  listen(listener: (info: RequestInfo) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves when `n` more data pages have been sent (n ≤ 0: at once); `cancel` stops waiting. */
  afterDataPages(n: number, cancel: AbortSignal): Promise<boolean> {
    if (n <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      let seen = 0;
      const stop = this.listen((info) => {
        if (isDataPage(info) && ++seen >= n) {
          stop();
          resolve(true);
        }
      });
      cancel.addEventListener('abort', () => {
        stop();
        resolve(false);
      });
    });
  }

  /** `http5xx 12, storm429 30, …` */
  describeFaults(): string {
    return [...this.faults].map(([fault, count]) => `${fault} ${count}`).join(', ') || 'none';
  }
}

export interface ChaosDevnet {
  readonly devnet: Devnet;
  readonly log: RequestLog;
}

/** A devnet on a free loopback port that knows the integration-test key (mainnet, 1000 requests/s). */
export async function startChaosDevnet(options: ChaosDevnetOptions): Promise<ChaosDevnet> {
  const log = new RequestLog();
  const devnet = await startDevnet({
    seed: options.seed,
    blocks: options.blocks,
    keys: new Map([[KEY, 'mainnet']]),
    keyRps: 1000,
    classifyDelay: options.classifyDelay,
    latencyMs: options.latencyMs,
    faults: options.faults,
    growMs: options.growMs,
    replicaLag: options.replicaLag,
    onRequest: (info) => log.record(info),
  });
  return { devnet, log };
}
