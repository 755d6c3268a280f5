/** A devnet in the test's process that counts the requests it answers. */
import { startDevnet, type Devnet, type DevnetOptions } from '../../src/devnet/index.js';
import type { FaultProfile } from '../../src/devnet/http/faults.js';
import { KEY } from './test-key.js';

/** The devnet's first masterchain block. */
export const FIRST_MC = 50_000_000;

export interface TestDevnetOptions {
  readonly seed: number;
  readonly blocks: number;
  /** @default 2 (the devnet's default) */
  readonly classifyDelay?: number;
  /** @default 0 */
  readonly latencyMs?: number;
  /** @default none */
  readonly faults?: FaultProfile;
  /** @default none */
  readonly stall?: DevnetOptions['stall'];
}

/** A devnet that counts the requests it has answered, so tests can act at a point of a run. */
export interface TestDevnet extends Devnet {
  /** Requests answered so far. */
  served(): number;
  /** Resolves once `count` requests have been answered in all; fails after `timeoutMs`. */
  untilServed(count: number, timeoutMs?: number): Promise<void>;
}

/** A devnet on a free loopback port that knows `KEY` (mainnet, 1000 requests/s). */
export async function startTestDevnet(options: TestDevnetOptions): Promise<TestDevnet> {
  let served = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  const devnet = await startDevnet({
    seed: options.seed,
    blocks: options.blocks,
    keys: new Map([[KEY, 'mainnet']]),
    keyRps: 1000,
    classifyDelay: options.classifyDelay,
    latencyMs: options.latencyMs,
    faults: options.faults,
    stall: options.stall,
    onRequest: () => {
      served += 1;
      for (const waiter of waiters.filter((w) => w.count <= served)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    },
  });
  return Object.assign(devnet, {
    served: () => served,
    untilServed: (count: number, timeoutMs = 30_000) =>
      new Promise<void>((resolve, reject) => {
        if (served >= count) return resolve();
        const timer = setTimeout(() => reject(new Error(`the devnet answered ${served} requests, not ${count}, within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      }),
  });
}
