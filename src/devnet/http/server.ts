import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from './api-error.js';
import { checkAccess, type AccessPolicy } from './auth.js';
import { isJsonRpc, jsonRpcId, matchRoute, resolveCall } from './dispatch.js';
import { failureBody, successBody, withJsonRpc } from './envelope.js';
import { FaultInjector, NO_FAULTS, type FaultKind, type FaultPlan } from './fault-plan.js';
import { faultText, malformJson, withInvalidItems, withUnknownEnum, withUnknownFields } from './fault-transforms.js';
import type { FaultProfile } from './faults.js';
import { withPagingFaults } from './paging-faults.js';
import { withBadValues, withRawNumbers } from './value-faults.js';
import { headerKey, readJsonBody, sendJson } from './http-io.js';
import { RateLimiter } from './rate-limiter.js';
import type { ApiVersion, Network, RouteTable } from './types.js';

export interface RequestInfo {
  readonly method: string;
  /** URL path without the query (which may hold the API key). */
  readonly path: string;
  /** HTTP status sent; 0 when the connection was reset without an answer. */
  readonly status: number;
  readonly ms: number;
  /** The injected fault that shaped this answer, if any. */
  readonly fault: FaultKind | undefined;
  /** Every injected fault the client could see in this answer (`fault` first): unknown fields and an unknown enum can come together. */
  readonly faults: readonly FaultKind[];
  /** The answer's number (1, 2, …), sent as the `X-Devnet-Answer` header: tells which answers a client read to their end. */
  readonly answer: number;
}

export interface DevnetServerOptions {
  /** Handlers by endpoint, per API version. */
  readonly routes: RouteTable;
  /** Network served; keys issued for the other one get 403. @default 'mainnet' */
  readonly network?: Network;
  /** API keys and the network each was issued for. @default no keys */
  readonly keys?: ReadonlyMap<string, Network>;
  /** Requests per second per client address without a key. @default 1 */
  readonly freeRps?: number;
  /** Requests per second per key. @default 10 */
  readonly keyRps?: number;
  /** Fixed latency before every answer, in ms. @default 0 */
  readonly latencyMs?: number;
  /** Faults to inject into data requests. @default no faults */
  readonly faults?: FaultProfile;
  /** Seeded RNG in [0, 1) deciding the faults, so runs are reproducible. */
  readonly random: () => number;
  /** Millisecond clock for rate limits, storms and `@extra`. @default Date.now */
  readonly now?: () => number;
  /** Port on 127.0.0.1; 0 picks a free one. @default 0 */
  readonly port?: number;
  /** Called once per request after answering. @default none */
  readonly onRequest?: (info: RequestInfo) => void;
}

export interface DevnetServer {
  readonly url: string;
  readonly port: number;
  /** Stops listening and drops open connections; safe to call twice. */
  close(): Promise<void>;
}

interface Reply {
  readonly status: number;
  /** The serialized body. */
  readonly text: string;
  readonly plan: FaultPlan;
  readonly faults: readonly FaultKind[];
}

type Outcome = Reply | 'reset';

export async function createDevnetServer(opts: DevnetServerOptions): Promise<DevnetServer> {
  const now = opts.now ?? Date.now;
  const policy: AccessPolicy = {
    network: opts.network ?? 'mainnet',
    keys: opts.keys ?? new Map(),
    free: new RateLimiter({ rps: opts.freeRps ?? 1, now }),
    keyed: new RateLimiter({ rps: opts.keyRps ?? 10, now }),
  };
  const injector = opts.faults ? new FaultInjector(opts.faults, opts.random, now) : undefined;
  const routes = opts.faults?.paging === undefined ? opts.routes : withPagingFaults(opts.routes, opts.faults.paging, opts.random);
  const closing = new AbortController();
  let sequence = 0;
  let answers = 0;

  async function answer(req: IncomingMessage, url: URL): Promise<Outcome> {
    const route = matchRoute(url.pathname);
    const version: ApiVersion = route?.version ?? 'v3';
    let rpcId: unknown;
    let plan = NO_FAULTS;
    const envelope = (body: unknown): unknown => (rpcId === undefined ? body : withJsonRpc(body, rpcId));
    const fail = (err: ApiError, fault?: FaultKind): Reply => {
      return { status: err.status, text: JSON.stringify(envelope(failureBody(version, err))), plan, faults: fault === undefined ? [] : [fault] };
    };
    try {
      const method = req.method;
      if (method !== 'GET' && method !== 'POST') throw new ApiError(405, 'method not allowed');
      const key = headerKey(req) || url.searchParams.get('api_key') || undefined;
      url.searchParams.delete('api_key');
      const denied = checkAccess(policy, key, req.socket.remoteAddress ?? '');
      if (denied) throw denied;
      if (!route) throw new ApiError(404, 'not found');
      const body = method === 'POST' ? await readJsonBody(req) : undefined;
      if (isJsonRpc(route)) rpcId = jsonRpcId(body);
      const call = resolveCall(routes, route, method, url.searchParams, body, req.headers);

      plan = injector?.plan() ?? NO_FAULTS;
      if (plan.reset) return 'reset';
      if (plan.rejectStatus !== undefined) {
        const kind = plan.rejectStatus === 429 ? 'storm429' : 'http5xx';
        return fail(new ApiError(plan.rejectStatus, faultText(plan.rejectStatus)), kind);
      }
      let payload = await call.handler(call.request);
      if (opts.faults?.invalidItems !== undefined) payload = withInvalidItems(payload, opts.faults.invalidItems);
      if (opts.faults?.badValues !== undefined) payload = withBadValues(payload, opts.faults.badValues);
      if (plan.unknownFields) payload = withUnknownFields(payload);
      // An answer without a finality field to change (an empty page) carries no unknownEnum fault.
      let enumReplaced = 0;
      if (plan.unknownEnum) ({ payload, replaced: enumReplaced } = withUnknownEnum(payload));
      const extra = `${(now() / 1000).toFixed(3)}:0:${++sequence}`;
      const text = JSON.stringify(envelope(successBody(version, payload, extra))) as string | undefined;
      if (text === undefined) throw new Error(`handler of ${route.endpoint} returned no JSON value`);
      return { status: 200, text: opts.faults?.badValues === undefined ? text : withRawNumbers(text), plan, faults: bodyFaults({ ...plan, unknownEnum: enumReplaced > 0 }) };
    } catch (err) {
      if (err instanceof ApiError) return fail(err);
      return fail(new ApiError(500, `internal error: ${(err as Error).message}`));
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const outcome = await answer(req, url);
    const number = ++answers;
    const report = (status: number, faults: readonly FaultKind[]): void =>
      opts.onRequest?.({ method: req.method ?? '', path: url.pathname, status, ms: performance.now() - started, fault: faults[0], faults, answer: number });
    if (outcome === 'reset') {
      req.socket.resetAndDestroy();
      report(0, ['reset']);
      return;
    }
    const { status, plan } = outcome;
    const faults = outcome.faults.length === 0 && plan.stalled ? ['stall' as const] : outcome.faults;
    const delay = (opts.latencyMs ?? 0) + plan.delayMs;
    if (delay > 0) {
      const waited = await sleep(delay, true, { signal: closing.signal }).catch(() => false);
      if (!waited) return;
      if (req.socket.destroyed) {
        report(0, faults);
        return;
      }
    }
    const healthy = status === 200;
    const text = healthy && plan.malformedJson ? malformJson(outcome.text) : outcome.text;
    sendJson(res, status, text, healthy && plan.truncate, number);
    report(status, faults);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, JSON.stringify({ code: 500, error: String(err) }), false, 0);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () => {
      closed ??= new Promise<void>((resolve, reject) => {
        closing.abort();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

/** A body cut short or malformed hides whatever else was changed in it. */
function bodyFaults(plan: FaultPlan): FaultKind[] {
  if (plan.truncate) return ['truncate'];
  if (plan.malformedJson) return ['malformedJson'];
  return [...(plan.unknownEnum ? ['unknownEnum' as const] : []), ...(plan.unknownFields ? ['unknownFields' as const] : [])];
}
