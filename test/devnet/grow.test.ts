/**
 * `grow()` (and `--grow`) appends masterchain blocks to a running devnet: the index moves forward,
 * history is append-only, and traces in flight at the old head complete later.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { FIRST_MC_SEQNO } from '../../src/devnet/chain/constants.js';
import { DevnetClient, type Query } from '../support/http.js';
import { pageTransactionsByLt, type Row } from '../support/pagers.js';

const KEY = 'grow-key';
const BLOCKS = 200;
const GROWN = 20;
const OLD_HEAD = FIRST_MC_SEQNO + BLOCKS - 1;

let devnet: Devnet;
let client: DevnetClient;

/** Pages inside the old history (full pages, so none is the growing tail): endpoint, items key, query. */
const PAGES: readonly (readonly [string, string, Query])[] = [
  ['transactions', 'transactions', { sort: 'asc', limit: 200, offset: 300 }],
  ['transactions', 'transactions', { sort: 'desc', limit: 100, end_lt: '60000150000000' }],
  ['transactionsByMasterchainBlock', 'transactions', { seqno: FIRST_MC_SEQNO + 150, limit: 1000 }],
  // Masterchain blocks only: the blocks of one second (a masterchain block and its shards') come in a fresh order per request.
  ['blocks', 'blocks', { workchain: -1, sort: 'asc', limit: 100, offset: 30 }],
  ['actions', 'actions', { sort: 'asc', limit: 100, offset: 200, include_accounts: true }],
  ['traces', 'traces', { sort: 'asc', limit: 20, offset: 40 }],
  ['validators/events', 'events', { sort: 'asc', limit: 10 }],
];

interface Snapshot {
  readonly lastSeqno: number;
  readonly transactions: Row[];
  readonly pages: string[];
}

async function snapshot(): Promise<Snapshot> {
  const info = await client.v3<{ last: { seqno: number } }>('masterchainInfo');
  const pages: string[] = [];
  for (const [endpoint, items, query] of PAGES) {
    const reply = await client.v3<Record<string, unknown[]>>(endpoint, query);
    expect(reply.status, `${endpoint}: ${reply.text.slice(0, 200)}`).toBe(200);
    const count = reply.body[items]!.length;
    if (endpoint === 'transactionsByMasterchainBlock') expect(count).toBeGreaterThan(5);
    else expect(count, `${endpoint} ${JSON.stringify(query)}`).toBe(query.limit);
    pages.push(reply.text);
  }
  return { lastSeqno: info.body.last.seqno, transactions: devnet.truth('transactions'), pages };
}

let before: Snapshot;
let after: Snapshot;
/** Traces started but not complete at the old head: trace id → its transactions then. */
let inFlight: Map<string, Row[]>;

beforeAll(async () => {
  devnet = await startDevnet({ blocks: BLOCKS, keys: new Map([[KEY, 'mainnet']]), keyRps: 100_000 });
  client = new DevnetClient(devnet.url, KEY);
  before = await snapshot();
  inFlight = new Map();
  const chain = devnet.view.chain;
  for (const trace of chain.traces) {
    if (trace.completedMc !== undefined) continue;
    const id = chain.traceId(trace.index);
    inFlight.set(id, before.transactions.filter((tx) => tx.trace_id === id));
  }
  devnet.grow(GROWN);
  after = await snapshot();
});

afterAll(async () => {
  await devnet?.close();
});

const key = (tx: Row): [bigint, string] => [BigInt(tx.lt as string), tx.account as string];

describe('grow()', () => {
  it('advances masterchainInfo by the blocks grown', () => {
    expect(before.lastSeqno).toBe(OLD_HEAD);
    expect(after.lastSeqno).toBe(OLD_HEAD + GROWN);
  });

  it('appends transactions strictly after the old ones in (lt, account) order and keeps history', () => {
    const old = before.transactions;
    expect(after.transactions.slice(0, old.length)).toEqual(old);
    const added = after.transactions.slice(old.length);
    expect(added.length).toBeGreaterThan(GROWN * 5);
    const [lastLt, lastAccount] = key(old[old.length - 1]!);
    const [firstLt, firstAccount] = key(added[0]!);
    expect(firstLt > lastLt || (firstLt === lastLt && firstAccount > lastAccount)).toBe(true);
    expect(Math.min(...added.map((tx) => tx.mc_block_seqno as number))).toBe(OLD_HEAD + 1);
    expect(Math.max(...added.map((tx) => tx.mc_block_seqno as number))).toBe(OLD_HEAD + GROWN);
  });

  it('lets an lt cursor saved at the old head pick up exactly the new transactions', async () => {
    const old = before.transactions;
    const lastLt = old[old.length - 1]!.lt as string;
    const seen = new Set(old.filter((tx) => tx.lt === lastLt).map((tx) => tx.hash as string));
    const newest = after.transactions[after.transactions.length - 1]!.lt as string;
    const paged = await pageTransactionsByLt(client, { startLt: lastLt, endLt: newest, limit: 100, sort: 'asc' });
    expect(paged.rows.filter((tx) => !seen.has(tx.hash as string))).toEqual(after.transactions.slice(old.length));
  });

  it('answers old pages byte for byte as before', () => {
    PAGES.forEach(([endpoint, , query], i) => expect(after.pages[i], `${endpoint} ${JSON.stringify(query)}`).toBe(before.pages[i]));
  });

  it('completes traces that were in flight at the old head', async () => {
    expect(inFlight.size).toBeGreaterThan(0);
    for (const [traceId, oldTxs] of inFlight) {
      expect(oldTxs.length).toBeGreaterThan(0);
      // At the old head the index had the trace's first transactions, but no trace and no action.
      expect(oldTxs[0]!.hash).toBe(traceId);
      const traces = await client.items('traces', 'traces', { trace_id: traceId, limit: 10 });
      expect(traces).toHaveLength(1);
      const trace = traces[0]!;
      expect(trace.trace_info).toMatchObject({ trace_state: 'complete', pending_messages: 0 });
      expect(Number(trace.mc_seqno_start)).toBeLessThanOrEqual(OLD_HEAD);
      expect(Number(trace.mc_seqno_end)).toBeGreaterThan(OLD_HEAD);
      const order = trace.transactions_order as string[];
      expect(order.slice(0, oldTxs.length).sort()).toEqual(oldTxs.map((tx) => tx.hash as string).sort());
      expect(order.length).toBeGreaterThan(oldTxs.length);
      const txs = trace.transactions as Record<string, Row>;
      expect(Math.max(...order.map((hash) => txs[hash]!.mc_block_seqno as number))).toBe(Number(trace.mc_seqno_end));
      const actions = await client.items('actions', 'actions', { trace_id: traceId, limit: 10 });
      expect(actions.map((a) => a.trace_id)).toEqual([traceId]);
    }
  });
});
