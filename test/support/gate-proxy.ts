/**
 * A service that stops answering on cue: an HTTP server on 127.0.0.1 that forwards the first
 * `open` requests to a target (a devnet) and holds every later one unanswered until `release()`,
 * so a run can be kept at a known point (e.g. holding its warehouse's lock) for as long as a test needs.
 */
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { forward } from './outage-proxy.js';

export interface GateProxy {
  readonly url: string;
  /** Resolves once `count` requests have arrived, answered or held. */
  untilReceived(count: number): Promise<void>;
  /** Forwards the held requests and every later one. */
  release(): void;
  close(): Promise<void>;
}

export async function startGateProxy(target: string, open: number): Promise<GateProxy> {
  let received = 0;
  let released = false;
  const held: (() => void)[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    received += 1;
    for (const waiter of waiters.filter((w) => w.count <= received)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    const pass = (): void => forward(`${target}${req.url ?? '/'}`, req, res);
    if (released || received <= open) pass();
    else held.push(pass);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    untilReceived: (count) => new Promise((resolve) => (received >= count ? resolve() : waiters.push({ count, resolve }))),
    release: () => {
      released = true;
      for (const pass of held.splice(0)) pass();
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
