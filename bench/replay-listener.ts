/**
 * Record once, replay byte for byte: a recording listener forwards every request to the bench
 * devnet unthrottled and keeps each answer's status and body bytes under the request (method, path
 * and query without the key); a replaying listener answers from those recordings with the service's
 * rules (the key's token bucket, 429 when it is empty, then a fixed latency) and renders nothing,
 * so a run against it measures the ETL, not the devnet's rendering on the same cores.
 * A request that was never recorded is forwarded and recorded then, and counted as a miss.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { RateLimiter } from '../src/devnet/http/rate-limiter.js';
import { API_VERSION_HEADER, headerKey } from '../src/devnet/http/http-io.js';

/** A recorded answer: status and body as the devnet sent them. */
interface Recording {
  readonly status: number;
  readonly body: Buffer;
}

/** Recordings by request; shared by every listener of one process. */
export type RecordingStore = Map<string, Recording>;

export interface ListenerEvents {
  /** Called once per answered request: arrival and answer times (epoch ms), status, path, whether it was replayed. */
  onRequest(at: number, done: number, status: number, path: string, replayed: boolean): void;
}

export interface ReplayOptions {
  readonly keyRps: number;
  readonly latencyMs: number;
}

export interface Listener {
  readonly url: string;
  close(): Promise<void>;
}

/** The request as recordings know it: the key (header or query) left out. */
function requestKey(req: IncomingMessage): { readonly key: string; readonly path: string; readonly apiKey: string | undefined } {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const apiKey = headerKey(req) ?? url.searchParams.get('api_key') ?? undefined;
  url.searchParams.delete('api_key');
  return { key: `${req.method ?? 'GET'} ${url.pathname}?${url.searchParams.toString()}`, path: url.pathname, apiKey };
}

async function forward(upstream: string, req: IncomingMessage, key: string, store: RecordingStore): Promise<Recording> {
  if (req.method !== 'GET') throw new Error(`the replay server records GET requests only, got ${req.method ?? '?'} ${req.url ?? ''}`);
  const response = await fetch(`${upstream}${req.url ?? '/'}`, { headers: { 'X-API-Key': headerKey(req) ?? '' } });
  const recording = { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
  // Refusals are the devnet's answers to this moment, not to the request: never replayed.
  if (response.status !== 429) store.set(key, recording);
  return recording;
}

function send(res: ServerResponse, recording: Recording): void {
  res.writeHead(recording.status, { 'Content-Type': 'application/json', 'Content-Length': recording.body.length, 'X-API-Version': API_VERSION_HEADER });
  res.end(recording.body);
}

const RATE_LIMITED: Recording = { status: 429, body: Buffer.from(JSON.stringify({ code: 429, error: 'Ratelimit exceeded' })) };

async function listen(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Promise<Listener> {
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) res.destroy();
      else send(res, { status: 500, body: Buffer.from(JSON.stringify({ code: 500, error: String(err) })) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const closing = new Promise<void>((resolve) => server.once('close', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.close();
      server.closeAllConnections();
      return closing;
    },
  };
}

/** Forwards every request to `upstream` unthrottled and records the answer. */
export function recordingListener(upstream: string, store: RecordingStore, events: ListenerEvents): Promise<Listener> {
  return listen(async (req, res) => {
    const at = Date.now();
    const { key, path } = requestKey(req);
    const recording = await forward(upstream, req, key, store);
    send(res, recording);
    events.onRequest(at, Date.now(), recording.status, path, false);
  });
}

/** Answers from `store` with the key's rate limit and a fixed latency; forwards (and records) what it lacks. */
export function replayingListener(upstream: string, store: RecordingStore, options: ReplayOptions, events: ListenerEvents): Promise<Listener> {
  const limiter = new RateLimiter({ rps: options.keyRps });
  return listen(async (req, res) => {
    const at = Date.now();
    const { key, path, apiKey } = requestKey(req);
    const allowed = limiter.tryAcquire(apiKey ?? req.socket.remoteAddress ?? '');
    const stored = allowed ? store.get(key) : RATE_LIMITED;
    const recording = stored ?? (await forward(upstream, req, key, store));
    if (options.latencyMs > 0) await sleep(options.latencyMs);
    if (req.socket.destroyed) return;
    send(res, recording);
    events.onRequest(at, Date.now(), recording.status, path, stored !== undefined);
  });
}
