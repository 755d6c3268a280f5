/**
 * An adversarial v3 server on 127.0.0.1 over a generated truth: `/masterchainInfo` and `/blocks` are
 * the devnet's own handlers over the truth's chain; the four lists the streams read are served from
 * the truth's items, honestly (ascending, inclusive bounds, offset and limit, ties in the promised
 * order or, where none is promised, in a fresh random order per request) unless a knob says otherwise.
 * `healthy = true` switches every knob off (the rerun that must complete).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { devnetRoutes } from '../../src/devnet/api/routes.js';
import { ApiError } from '../../src/devnet/http/api-error.js';
import { QueryParams } from '../../src/devnet/http/query-params.js';
import type { DevnetRequest, RouteTable } from '../../src/devnet/http/types.js';
import { seededRandom } from '../support/seeded-random.js';
import { TIP_GLITCH_LT, type Knob, type KnobKind, type Misbehaviour } from './knobs.js';
import type { StreamName, Truth, TruthItem } from './truth.js';

/** The list endpoints: the stream each serves, its items key and its bound parameters. */
const LISTS: Readonly<Record<string, { stream: StreamName; key: string; bounds: readonly [string, string] }>> = {
  transactions: { stream: 'transactions', key: 'transactions', bounds: ['start_lt', 'end_lt'] },
  actions: { stream: 'actions', key: 'actions', bounds: ['start_lt', 'end_lt'] },
  'jetton/transfers': { stream: 'jetton_transfers', key: 'jetton_transfers', bounds: ['start_lt', 'end_lt'] },
  'validators/events': { stream: 'validator_events', key: 'events', bounds: ['start_utime', 'end_utime'] },
};

/** A JSON number no double holds (2^53 + 1): written into the body text as is. */
export const UNSAFE_INTEGER = '9007199254740993';
const UNSAFE_MARK = '"__unsafe_integer__"';

export interface AdversarialServer {
  readonly url: string;
  /** Every knob off: the server answers as the service does. */
  healthy: boolean;
  /** Every request is answered by a replica this many masterchain blocks behind the head. @default 0 */
  headBehind: number;
  /** Keys of the items each stream was sent poisoned. */
  readonly poisoned: ReadonlyMap<StreamName, ReadonlySet<string>>;
  /** The earlier copies of moved keys (`moveKey`) each stream lists while the server misbehaves (not once healthy). */
  readonly stale: ReadonlyMap<StreamName, readonly TruthItem[]>;
  /** List requests answered so far. */
  requests(): number;
  close(): Promise<void>;
}

/** `stale`: the earlier copies of moved keys each stream lists while the server misbehaves (stale-copies.ts). */
export async function startAdversarialServer(truth: Truth, misbehaviour: Misbehaviour, seed: number, stale: ReadonlyMap<StreamName, readonly TruthItem[]> = new Map()): Promise<AdversarialServer> {
  const routes = devnetRoutes(truth.api);
  const random = seededRandom(seed);
  const previous = new Map<StreamName, string>();
  const poisoned = new Map<StreamName, Set<string>>();
  let requests = 0;
  let v3Requests = 0;
  const state = { healthy: false, headBehind: 0 };

  const answer = (endpoint: string, query: URLSearchParams): { status: number; body: string } => {
    const replica = !state.healthy && misbehaviour.replicaLag > 0 && v3Requests++ % 2 === 1 ? misbehaviour.replicaLag : 0;
    truth.api.view.replicaLag = Math.max(replica, state.headBehind);
    try {
      const list = LISTS[endpoint];
      if (list === undefined) {
        const found = devnetAnswer(routes, endpoint, query);
        if (endpoint === 'masterchainInfo' && !state.healthy && random() < (misbehaviour.tipGlitch ?? 0)) glitchTip(found);
        return { status: 200, body: JSON.stringify(found) };
      }
      requests += 1;
      const knobs = state.healthy ? [] : misbehaviour.knobs.filter((knob) => knob.stream === list.stream && random() < knob.rate);
      const on = (kind: KnobKind): Knob | undefined => knobs.find((knob) => knob.kind === kind);
      if (on('http5xx') !== undefined) return { status: 500, body: '{"error":"timeout: context deadline exceeded"}' };
      if (on('errorBody') !== undefined) return { status: 200, body: JSON.stringify({ [list.key]: [], address_book: {}, error: 'timeout: context deadline exceeded' }) };
      if (on('repeatPage') !== undefined && previous.has(list.stream)) return { status: 200, body: previous.get(list.stream)! };
      const items = listPage(truth, list.stream, state.healthy ? [] : (stale.get(list.stream) ?? []), list.bounds, new QueryParams(query), on, random);
      let page = items.map((item) => item.raw);
      if (on('poison') !== undefined && items.length > 0) {
        const victim = Math.floor(random() * items.length);
        let set = poisoned.get(list.stream);
        if (set === undefined) poisoned.set(list.stream, (set = new Set()));
        set.add(items[victim]!.key);
        page = page.map((raw, index) => (index === victim ? poison(list.stream, raw) : raw));
      }
      const body = JSON.stringify({ [list.key]: page, address_book: {}, metadata: {} }).replaceAll(UNSAFE_MARK, UNSAFE_INTEGER);
      previous.set(list.stream, body);
      return { status: 200, body: on('truncatedBody') === undefined ? body : body.slice(0, Math.floor(body.length / 2)) };
    } catch (error) {
      if (error instanceof ApiError) return { status: error.status, body: JSON.stringify({ error: error.message }) };
      throw error;
    } finally {
      truth.api.view.replicaLag = 0;
    }
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const endpoint = url.pathname.replace(/^\/api\/v3\//, '');
    const { status, body } = url.pathname.startsWith('/api/v3/') ? answer(endpoint, url.searchParams) : { status: 404, body: '{"error":"not found"}' };
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get healthy() {
      return state.healthy;
    },
    set healthy(value: boolean) {
      state.healthy = value;
    },
    get headBehind() {
      return state.headBehind;
    },
    set headBehind(value: number) {
      state.headBehind = value;
    },
    poisoned,
    stale,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Moves the newest block of a `/masterchainInfo` answer TIP_GLITCH_LT further along. */
function glitchTip(answer: unknown): void {
  const last = (answer as { last?: { end_lt?: unknown } }).last;
  if (last !== undefined && typeof last.end_lt === 'string') last.end_lt = String(BigInt(last.end_lt) + TIP_GLITCH_LT);
}

function devnetAnswer(routes: RouteTable, endpoint: string, query: URLSearchParams): unknown {
  const handler = routes.v3[endpoint];
  if (handler === undefined) throw new ApiError(404, `no endpoint ${endpoint}`);
  const request: DevnetRequest = { method: 'GET', version: 'v3', endpoint, query: new QueryParams(query), body: undefined, headers: {} };
  return handler(request);
}

/** Items in the service's order: position, then the promised order among ties. */
function inServiceOrder(items: TruthItem[]): TruthItem[] {
  return items.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.tieOrder < b.tieOrder ? -1 : a.tieOrder > b.tieOrder ? 1 : 0));
}

/** The items of one list request: the honest selection (with the stale copies listed), then the knobs that act on this request. */
function listPage(
  truth: Truth,
  stream: StreamName,
  stale: readonly TruthItem[],
  [startName, endName]: readonly [string, string],
  query: QueryParams,
  on: (kind: KnobKind) => Knob | undefined,
  random: () => number,
): TruthItem[] {
  const from = query.bigint(startName, { min: 0n }) ?? 0n;
  const to = query.bigint(endName, { min: 0n }) ?? 2n ** 64n;
  const limit = query.limit(10, 1000);
  const offset = on('ignoreOffset') !== undefined ? 0 : query.offset();
  const visible = visibleUpTo(truth, stream);
  const listed = truth.items.get(stream);
  if (listed === undefined) throw new Error(`the truth was built without ${stream}, which the pipeline reads`);
  const all = stale.length === 0 ? listed : inServiceOrder([...listed, ...stale]);
  let selected = all.filter((item) => item.position >= from && item.position <= to && (visible === undefined || item.position <= visible));
  selected = shuffleTies(selected, on('shuffleTies') !== undefined, random);
  if (on('descending') !== undefined || query.sort() === 'desc') selected.reverse();
  if (on('loseItem') !== undefined) selected = selected.filter((item) => item !== all[Math.floor(all.length / 2)]);
  let page = selected.slice(offset, offset + limit);
  if (on('overLimit') !== undefined) page = page.concat(selected.slice(offset + limit, offset + limit + 1 + Math.floor(random() * 5)));
  if (on('duplicates') !== undefined && page.length > 0) {
    const at = Math.floor(random() * page.length);
    page = [...page.slice(0, at + 1), page[at]!, ...page.slice(at + 1)].slice(0, Math.max(limit, page.length));
  }
  if (on('outsideRange') !== undefined && all.length > 0) {
    const beyond = random() < 0.7 || from === 0n;
    const phantom = phantomAt(stream, all[Math.floor(random() * all.length)]!, beyond ? to + 1n + BigInt(Math.floor(random() * 3)) : from - 1n);
    if (beyond) page = page.length >= limit ? [...page.slice(0, -1), phantom] : [...page, phantom];
    else page = [phantom, ...page].slice(0, limit);
  }
  return page;
}

/** The last position a stale replica shows; undefined on the primary (it shows everything). */
function visibleUpTo(truth: Truth, stream: StreamName): bigint | undefined {
  const view = truth.api.view;
  if (view.replicaLag === 0) return undefined;
  const block = view.chain.mcBlock(view.indexedStep);
  return stream === 'validator_events' ? BigInt(block.genUtime) : BigInt(block.endLt);
}

/**
 * Items sharing a position in a fresh random order where the service promises none (jetton
 * transfers, validator events, as the service does), or everywhere when `always`.
 */
function shuffleTies(items: TruthItem[], always: boolean, random: () => number): TruthItem[] {
  const out = items.slice();
  for (let start = 0; start < out.length; ) {
    let end = start + 1;
    while (end < out.length && out[end]!.position === out[start]!.position) end++;
    if (end - start > 1 && (always || out[start]!.tieOrder === '')) {
      for (let i = end - 1; i > start; i--) {
        const j = start + Math.floor(random() * (i - start + 1));
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
    }
    start = end;
  }
  return out;
}

/** A copy of `item` at `position` under a key no truth item has. */
function phantomAt(stream: StreamName, item: TruthItem, position: bigint): TruthItem {
  const raw = structuredClone(item.raw);
  const phantomHash = Buffer.alloc(32, 0xee).toString('base64');
  switch (stream) {
    case 'transactions':
      Object.assign(raw, { hash: phantomHash, lt: String(position), account: `0:${'E'.repeat(64)}` });
      break;
    case 'actions':
      Object.assign(raw, { action_id: phantomHash, trace_id: phantomHash, trace_end_lt: String(position), end_lt: String(position) });
      break;
    case 'jetton_transfers':
      Object.assign(raw, { transaction_hash: phantomHash, transaction_lt: String(position) });
      break;
    case 'validator_events':
      Object.assign(raw, { tx_hash: phantomHash, utime: Number(position) });
      break;
  }
  return { ...item, raw, position, key: 'phantom' };
}

/**
 * The item with one value no reader can take as it is: a lone surrogate in an action's details, an
 * unsafe integer elsewhere (a transaction's gas_used, a transfer's query_id, an event's amount).
 */
function poison(stream: StreamName, raw: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(raw);
  const unsafe = UNSAFE_MARK.slice(1, -1);
  switch (stream) {
    case 'transactions': {
      const compute = (copy.description as { compute_ph?: Record<string, unknown> } | undefined)?.compute_ph;
      if (compute !== undefined) compute.gas_used = unsafe;
      return copy;
    }
    case 'actions':
      return { ...copy, details: { ...(copy.details as object | undefined), comment: 'bad \ud800 text' } };
    case 'jetton_transfers':
      return { ...copy, query_id: unsafe };
    case 'validator_events':
      return { ...copy, amount: unsafe };
  }
}
