/**
 * A small HTTP server on 127.0.0.1 that misbehaves on purpose: redirects, bodies that never end,
 * gzip bombs, chosen replies (a key echoed back), no answer, or the upstream devnet's answer, changed or not.
 * It records every request it sees, with the API key header, so a test can tell where the key went.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';

export type Behaviour =
  /** A redirect to `location` (absolute, or relative to the request). */
  | { readonly kind: 'redirect'; readonly status: number; readonly location?: string }
  /** 200 with chunked JSON-looking text that never ends (until the client hangs up). */
  | { readonly kind: 'endless' }
  /** 200 `Content-Encoding: gzip` whose body inflates to `inflatedBytes` of spaces. */
  | { readonly kind: 'gzip-bomb'; readonly inflatedBytes: number }
  /** A reply of the test's choosing, the body sent exactly as given. */
  | { readonly kind: 'reply'; readonly status: number; readonly body: string; readonly headers?: Readonly<Record<string, string>> }
  /** No answer at all, until the client hangs up or the server closes. */
  | { readonly kind: 'hold' }
  /** The upstream's answer (to `path`, default the request's), its JSON body passed through `change` first when given. */
  | { readonly kind: 'proxy'; readonly path?: string; readonly change?: (body: Record<string, unknown>) => unknown };

export interface SeenRequest {
  /** Path and query, as requested. */
  readonly url: string;
  /** The `X-API-Key` header, if any. */
  readonly key: string | undefined;
}

export interface MisbehavingServer {
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  /** Every request so far, in order. */
  readonly seen: readonly SeenRequest[];
  /** What to do with each request from now on. */
  behave(decide: (request: SeenRequest) => Behaviour): void;
  close(): Promise<void>;
}

/** Starts a server on a free loopback port; `upstream` is where `proxy` goes. @default behaviour: 404 */
export async function startMisbehavingServer(upstream?: string): Promise<MisbehavingServer> {
  const seen: SeenRequest[] = [];
  let decide: (request: SeenRequest) => Behaviour = () => ({ kind: 'reply', status: 404, body: '{"error":"not found"}' });
  const server: Server = createServer((req, res) => {
    const header = req.headers['x-api-key'];
    const request = { url: req.url ?? '/', key: Array.isArray(header) ? header[0] : header };
    seen.push(request);
    void respond(decide(request), req, res, upstream).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: origin,
    origin,
    port,
    seen,
    behave: (next) => {
      decide = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function respond(behaviour: Behaviour, req: IncomingMessage, res: ServerResponse, upstream: string | undefined): Promise<void> {
  switch (behaviour.kind) {
    case 'redirect':
      res.writeHead(behaviour.status, behaviour.location === undefined ? {} : { location: behaviour.location });
      res.end('moved');
      return;
    case 'endless':
      return endless(res);
    case 'hold':
      return;
    case 'gzip-bomb':
      return gzipBomb(res, behaviour.inflatedBytes);
    case 'reply':
      res.writeHead(behaviour.status, { 'content-type': 'application/json', ...behaviour.headers });
      res.end(behaviour.body);
      return;
    case 'proxy': {
      if (upstream === undefined) throw new Error('proxy without an upstream');
      const answer = await fetch(`${upstream}${behaviour.path ?? req.url ?? '/'}`, { headers: req.headers['x-api-key'] === undefined ? {} : { 'x-api-key': String(req.headers['x-api-key']) } });
      const text = await answer.text();
      const body = behaviour.change === undefined || answer.status !== 200 ? text : JSON.stringify(behaviour.change(JSON.parse(text) as Record<string, unknown>));
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(body);
      return;
    }
  }
}

/** Writes 64 KiB chunks as fast as the client reads them, until it hangs up. */
function endless(res: ServerResponse): void {
  const chunk = Buffer.alloc(64 * 1024, ' ');
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"transactions":[');
  const pump = (): void => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump);
  };
  res.on('close', () => res.removeAllListeners('drain'));
  pump();
}

/** Streams gzip of `inflatedBytes` spaces, made on the fly (a few KB on the wire per MB inflated). */
function gzipBomb(res: ServerResponse, inflatedBytes: number): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
  const gzip = createGzip();
  gzip.pipe(res);
  const chunk = Buffer.alloc(1024 * 1024, ' ');
  let left = inflatedBytes;
  const pump = (): void => {
    while (left > 0 && !res.destroyed) {
      const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= piece.length;
      if (!gzip.write(piece)) return void gzip.once('drain', pump);
    }
    gzip.end();
  };
  res.on('close', () => gzip.destroy());
  pump();
}
