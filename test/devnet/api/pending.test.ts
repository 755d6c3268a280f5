/**
 * The pending lists (/pendingTransactions, /pendingTraces, /pendingActions): empty on a static chain
 * (no mempool); while the chain grows, the traces in flight at the indexed block as far as the node
 * has them, which agree with /traces (listed there as pending) and /transactions, and validate against
 * the OpenAPI (patched and closed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../../src/devnet/index.js';
import { DevnetClient } from '../../support/http.js';
import { specResponses } from '../../support/openapi.js';

const KEY = 'K';
const spec = specResponses();
const closedSpec = specResponses({ closed: true });

type Row = Record<string, any>;

let devnet: Devnet;
let client: DevnetClient;

beforeAll(async () => {
  // The indexer trails the node by 3 blocks: a trace in flight at the indexed block may be complete at the head.
  devnet = await startDevnet({ blocks: 120, indexerLag: 3, keys: new Map([[KEY, 'mainnet']]), keyRps: 1000 });
  client = new DevnetClient(devnet.url, KEY);
});

afterAll(async () => {
  await devnet?.close();
});

/** The traces in flight at the indexed block, and the accounts of their root transactions. */
function inFlight(): { readonly traceIds: string[]; readonly roots: string[] } {
  const chain = devnet.generator.chain;
  const traces = chain.inFlightAfterStep[devnet.view.indexedStep]!.filter((t) => chain.trace(t).externalHash !== null);
  return {
    traceIds: traces.map((t) => chain.traceId(t)),
    roots: traces.map((t) => chain.population.accountAt(chain.tx(chain.trace(t).txs[0]!).account).raw),
  };
}

async function body(path: string, query: Record<string, unknown>): Promise<Row> {
  const reply = await client.v3<Row>(path, query as never);
  expect(reply.status, reply.text.slice(0, 300)).toBe(200);
  expect(spec.errors(path, reply.body)).toEqual([]);
  expect(closedSpec.errors(path, reply.body)).toEqual([]);
  return reply.body;
}

describe('pending lists', () => {
  it('are empty on a static chain, even for an account with a trace in flight', async () => {
    const { roots } = inFlight();
    expect(roots.length).toBeGreaterThan(0);
    expect((await body('pendingTraces', { account: roots[0] })).traces).toEqual([]);
    expect((await body('pendingTransactions', { account: roots[0] })).transactions).toEqual([]);
    expect((await body('pendingActions', { account: roots[0] })).actions).toEqual([]);
  });

  it('list the traces in flight at the indexed block while the chain grows, as /traces and /transactions know them', async () => {
    devnet.grow(2);
    const { traceIds, roots } = inFlight();
    const pendingInIndex = new Set(((await body('traces', { limit: 100, sort: 'desc' })).traces as Row[]).filter((t) => t.trace_info.trace_state === 'pending').map((t) => t.trace_id));
    expect(traceIds.every((id) => pendingInIndex.has(id))).toBe(true);

    const traces: Row[] = [];
    const transactions: Row[] = [];
    const actions: Row[] = [];
    for (const account of new Set(roots)) {
      traces.push(...(await body('pendingTraces', { account })).traces);
      transactions.push(...(await body('pendingTransactions', { account })).transactions);
      actions.push(...(await body('pendingActions', { account, include_transactions: true })).actions);
    }
    expect(new Set(traces.map((t) => t.trace_id))).toEqual(new Set(traceIds));
    expect(transactions.length).toBeGreaterThan(0);
    expect(transactions.every((tx) => tx.emulated === true && traceIds.includes(tx.trace_id))).toBe(true);
    // Finalized where the index has the block, confirmed above it: the former are in /transactions.
    expect(new Set(transactions.map((tx) => tx.finality))).toEqual(new Set(['finalized', 'confirmed']));
    for (const tx of transactions.filter((t) => t.finality === 'finalized')) {
      const indexed = (await body('transactions', { hash: tx.hash })).transactions as Row[];
      expect(indexed.map((t) => [t.hash, t.lt, t.account])).toEqual([[tx.hash, tx.lt, tx.account]]);
    }
    // Actions come from the traces the head has completed, not yet finalized in the index.
    expect(actions.length).toBeGreaterThan(0);
    for (const action of actions) {
      expect(traceIds).toContain(action.trace_id);
      expect(action.finality).toBe('confirmed');
      expect(action.transactions_full.map((tx: Row) => tx.hash)).toEqual(action.transactions);
    }
    const [first] = traces;
    expect((await body('pendingTraces', { ext_msg_hash: first!.external_hash })).traces.map((t: Row) => t.trace_id)).toEqual([first!.trace_id]);
  });
});
