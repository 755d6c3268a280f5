/**
 * A service that can be switched off: an HTTP server on 127.0.0.1 that forwards every request to a
 * target (a devnet) while up, and answers 503 while down (always, without a target). It counts the
 * requests it receives, so tests can tell a single attempt from retries, and keeps their URLs.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

export interface OutageProxy {
  readonly url: string;
  /** Requests received so far, up or down. */
  received(): number;
  /** The URL (path and query) of each request received so far, in order. */
  urls(): readonly URL[];
  up(): void;
  down(): void;
  close(): Promise<void>;
}

export async function startOutageProxy(target?: string): Promise<OutageProxy> {
  let received = 0;
  const urls: URL[] = [];
  let isUp = target !== undefined;
  const server = createServer((req, res) => {
    received += 1;
    urls.push(new URL(req.url ?? '/', 'http://127.0.0.1'));
    if (!isUp || target === undefined) {
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"service unavailable"}');
      return;
    }
    forward(`${target}${req.url ?? '/'}`, req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => received,
    urls: () => urls,
    up: () => {
      if (target === undefined) throw new Error('an outage proxy without a target cannot come up');
      isUp = true;
    },
    down: () => {
      isUp = false;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export function forward(url: string, req: IncomingMessage, res: ServerResponse): void {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && name !== 'host') headers[name] = value;
  fetch(url, { headers })
    .then(async (reply) => {
      const body = Buffer.from(await reply.arrayBuffer());
      res.writeHead(reply.status, { 'content-type': reply.headers.get('content-type') ?? 'application/json' }).end(body);
    })
    .catch((error: unknown) => res.writeHead(502).end(String(error)));
}
