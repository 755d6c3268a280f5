/**
 * The devnet's paging semantics over HTTP (docs/design.md §2, §6): inclusive lt bounds,
 * (lt, account) order with ties, utime filters, repeated-key arrays, random tie order on jetton
 * transfers, indexer lag, late actions, and the address-book opt-out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { ELECTOR_RAW, FIRST_MC_SEQNO } from '../../src/devnet/chain/constants.js';
import { DevnetClient } from '../support/http.js';
import { pageByOffset, pageRecordsAtLtEdges, pageTransactionsByLt, type Row } from '../support/pagers.js';

const KEY = 'paging-key';
const BLOCKS = 300;
const INDEXER_LAG = 5;
const CLASSIFY_DELAY = 2;

let devnet: Devnet;
let client: DevnetClient;
/** The static chain's truth, read before any test grows the chain. */
let txs: Row[];
let range: { startLt: string; endLt: string; rows: Row[] };

beforeAll(async () => {
  devnet = await startDevnet({
    blocks: BLOCKS,
    keys: new Map([[KEY, 'mainnet']]),
    keyRps: 100_000,
    indexerLag: INDEXER_LAG,
    classifyDelay: CLASSIFY_DELAY,
  });
  client = new DevnetClient(devnet.url, KEY);
  txs = devnet.truth('transactions');
  range = ltRange(txs, 1000, 3500);
});

afterAll(async () => {
  await devnet?.close();
});

/** A window from the first row of a run of ties near index `from` to the last row of a run near index `to`. */
function ltRange(rows: readonly Row[], from: number, to: number): { startLt: string; endLt: string; rows: Row[] } {
  let i = from;
  while (!(rows[i]!.lt === rows[i + 1]!.lt && rows[i - 1]!.lt !== rows[i]!.lt)) i++;
  let j = to;
  while (!(rows[j]!.lt === rows[j - 1]!.lt && rows[j + 1]!.lt !== rows[j]!.lt)) j++;
  const startLt = rows[i]!.lt as string;
  const endLt = rows[j]!.lt as string;
  return { startLt, endLt, rows: rows.slice(i, j + 1) };
}

const hashes = (rows: readonly Row[]): string[] => rows.map((r) => r.hash as string);

describe('/transactions paging', () => {
  it('chooses a window whose both ends are runs of shared lts', () => {
    const { rows, startLt, endLt } = range;
    expect(rows.length).toBeGreaterThan(2000);
    expect(rows.filter((r) => r.lt === startLt).length).toBeGreaterThanOrEqual(2);
    expect(rows.filter((r) => r.lt === endLt).length).toBeGreaterThanOrEqual(2);
    expect(rows).toEqual(txs.filter((r) => BigInt(r.lt as string) >= BigInt(startLt) && BigInt(r.lt as string) <= BigInt(endLt)));
  });

  it('pages by limit and offset to exactly the truth rows, bounds inclusive', async () => {
    const got = await pageByOffset(client, 'transactions', 'transactions', { sort: 'asc', start_lt: range.startLt, end_lt: range.endLt }, 250);
    expect(got).toEqual(range.rows);
    expect(got[0]!.lt).toBe(range.startLt);
    expect(got[got.length - 1]!.lt).toBe(range.endLt);
  });

  it('pages by lt cursor (restart at the last lt, drop seen hashes) to exactly the truth rows', async () => {
    const big = await pageTransactionsByLt(client, { startLt: range.startLt, endLt: range.endLt, limit: 1000, sort: 'asc' });
    expect(big.rows).toEqual(range.rows);
    expect(big.requests).toBeGreaterThanOrEqual(3);
    // A small page makes many edges fall inside runs of equal lt: the cursor must still be exact.
    const small = await pageTransactionsByLt(client, { startLt: range.startLt, endLt: range.endLt, limit: 20, sort: 'asc' });
    expect(small.rows).toEqual(range.rows);
    expect(small.splitTies).toBeGreaterThan(10);
  });

  it('includes the rows exactly at start_lt and exactly at end_lt', async () => {
    const atStart = await client.items('transactions', 'transactions', { sort: 'asc', start_lt: range.startLt, end_lt: range.startLt, limit: 1000 });
    expect(hashes(atStart)).toEqual(hashes(range.rows.filter((r) => r.lt === range.startLt)));
    const atEnd = await client.items('transactions', 'transactions', { sort: 'asc', start_lt: range.endLt, end_lt: range.endLt, limit: 1000 });
    expect(hashes(atEnd)).toEqual(hashes(range.rows.filter((r) => r.lt === range.endLt)));
    const exact = await client.items('transactions', 'transactions', { lt: range.startLt, limit: 1000 });
    expect(new Set(hashes(exact))).toEqual(new Set(hashes(atStart)));
  });

  it('returns the reverse order with sort=desc', async () => {
    const reversed = [...range.rows].reverse();
    const firstPage = await client.items('transactions', 'transactions', { sort: 'desc', start_lt: range.startLt, end_lt: range.endLt, limit: 1000 });
    expect(firstPage).toEqual(reversed.slice(0, 1000));
    const desc = await pageTransactionsByLt(client, { startLt: range.startLt, endLt: range.endLt, limit: 20, sort: 'desc' });
    expect(desc.rows).toEqual(reversed);
    expect(desc.splitTies).toBeGreaterThan(10);
  });

  it('orders by (now, lt, account) under utime filters, bounds inclusive', async () => {
    const u1 = range.rows[0]!.now as number;
    const u2 = range.rows[range.rows.length - 1]!.now as number;
    const expected = txs.filter((r) => (r.now as number) >= u1 && (r.now as number) <= u2);
    expect(expected.filter((r) => r.now === u1).length).toBeGreaterThan(1);
    expect(expected.filter((r) => r.now === u2).length).toBeGreaterThan(1);
    const asc = await pageByOffset(client, 'transactions', 'transactions', { sort: 'asc', start_utime: u1, end_utime: u2 }, 1000);
    expect(asc).toEqual(expected);
    const desc = await pageByOffset(client, 'transactions', 'transactions', { sort: 'desc', start_utime: u1, end_utime: u2 }, 1000);
    expect(desc).toEqual([...expected].reverse());
  });

  it('takes arrays as repeated keys and rejects a comma-joined list with 422', async () => {
    const wallet = txs.find((r) => (r.account as string).startsWith('0:') && txs.filter((t) => t.account === r.account).length >= 10)!.account as string;
    const accounts = [ELECTOR_RAW, wallet];
    const expected = txs.filter((r) => accounts.includes(r.account as string));
    expect(expected.length).toBeLessThan(1000);
    const got = await client.items('transactions', 'transactions', { account: accounts, sort: 'asc', limit: 1000 });
    expect(got).toEqual(expected);
    const joined = await client.v3('transactions', { account: accounts.join(','), sort: 'asc', limit: 10 });
    expect(joined.status).toBe(422);
    expect(joined.body).toEqual({ code: 422, error: `failed to parse account: invalid address ${JSON.stringify(accounts.join(','))}` });
  });
});

describe('/jetton/transfers paging', () => {
  it('returns rows sharing an lt in a different order from request to request', async () => {
    const truth = devnet.truth('jetton_transfers');
    const counts = new Map<string, number>();
    for (const r of truth) counts.set(r.transaction_lt as string, (counts.get(r.transaction_lt as string) ?? 0) + 1);
    const lt = [...counts].find(([, n]) => n >= 3)?.[0] ?? [...counts].find(([, n]) => n >= 2)![0];
    const expected = truth.filter((r) => r.transaction_lt === lt).map((r) => r.transaction_hash as string);
    const orders = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const page = await client.items('jetton/transfers', 'jetton_transfers', { start_lt: lt, end_lt: lt, limit: 100, sort: 'asc' });
      const got = page.map((r) => r.transaction_hash as string);
      expect([...got].sort()).toEqual([...expected].sort());
      orders.add(got.join(','));
    }
    expect(orders.size).toBeGreaterThanOrEqual(2);
  });

  it('pages by the page-edge rule (discard the last lt of a full page, restart there) to exactly the truth', async () => {
    const truth = devnet.truth('jetton_transfers');
    expect(truth.length).toBeGreaterThan(300);
    const got = await pageRecordsAtLtEdges(client, 'jetton/transfers', 'jetton_transfers', { limit: 3 });
    expect(got.duplicates).toBe(0);
    expect(got.discarded).toBeGreaterThan(10);
    const byLtThenHash = (a: Row, b: Row): number => {
      const d = BigInt(a.transaction_lt as string) - BigInt(b.transaction_lt as string);
      return d < 0n ? -1 : d > 0n ? 1 : (a.transaction_hash as string) < (b.transaction_hash as string) ? -1 : 1;
    };
    expect([...got.rows].sort(byLtThenHash)).toEqual(truth);
  });
});

describe('enrichment opt-outs', () => {
  it('empties address_book under X-No-Address-Book and metadata under X-No-Metadata', async () => {
    const query = { sort: 'asc', limit: 20, start_lt: range.startLt } as const;
    const full = await client.v3<Record<string, unknown>>('transactions', query);
    expect(Object.keys(full.body.address_book as object).length).toBeGreaterThan(5);
    const bare = await client.v3<Record<string, unknown>>('transactions', query, { 'X-No-Address-Book': 'true' });
    expect(bare.body.address_book).toEqual({});
    expect(bare.body.transactions).toEqual(full.body.transactions);

    const jt = { sort: 'asc', limit: 20 } as const;
    const withMeta = await client.v3<Record<string, unknown>>('jetton/transfers', jt);
    expect(Object.keys(withMeta.body.metadata as object).length).toBeGreaterThan(0);
    const noMeta = await client.v3<Record<string, unknown>>('jetton/transfers', jt, { 'X-No-Metadata': 'true' });
    expect(noMeta.body.metadata).toEqual({});
    expect(Object.keys(noMeta.body.address_book as object).length).toBeGreaterThan(0);
  });
});

// These grow the chain: keep them last.
describe('indexer lag and late actions', () => {
  it('trails v2 getMasterchainInfo by the indexer lag in /masterchainInfo', async () => {
    const check = async (head: number): Promise<void> => {
      const v2 = await client.v2<{ ok: boolean; result: { last: { seqno: number } } }>('getMasterchainInfo');
      const v3 = await client.v3<{ first: { seqno: number }; last: { seqno: number; workchain: number } }>('masterchainInfo');
      expect(v2.body.ok).toBe(true);
      expect(v2.body.result.last.seqno).toBe(head);
      expect(v3.body.first.seqno).toBe(FIRST_MC_SEQNO);
      expect(v3.body.last).toMatchObject({ workchain: -1, seqno: head - INDEXER_LAG });
      // The index holds exactly the transactions up to its last block.
      const newest = await client.items('transactions', 'transactions', { sort: 'desc', limit: 1 });
      expect(newest[0]!.mc_block_seqno).toBe(head - INDEXER_LAG);
    };
    await check(FIRST_MC_SEQNO + BLOCKS - 1);
    devnet.grow(3);
    await check(FIRST_MC_SEQNO + BLOCKS + 2);
  });

  it('shows a trace\'s actions only classifyDelay blocks after the trace completes in an indexed block', async () => {
    const view = devnet.view;
    const chain = view.chain;
    const indexed = view.indexedSeqno;
    const trace = chain.traces.find((t) => t.completedMc === indexed && t.kind !== 'tick_tock');
    expect(trace).toBeDefined();
    const traceId = chain.traceId(trace!.index);

    const traces = await client.items('traces', 'traces', { trace_id: traceId, limit: 10 });
    expect(traces.map((t) => t.trace_id)).toEqual([traceId]);
    expect(traces[0]!.mc_seqno_end).toBe(String(indexed));
    const actionsOf = (): Promise<Row[]> => client.items('actions', 'actions', { trace_id: traceId, limit: 10 });
    expect(await actionsOf()).toEqual([]);
    devnet.grow(CLASSIFY_DELAY - 1);
    expect(await actionsOf()).toEqual([]);
    devnet.grow(1);
    const actions = await actionsOf();
    expect(actions.map((a) => [a.trace_id, a.type, a.trace_mc_seqno_end])).toEqual([[traceId, trace!.kind, indexed]]);
  });
});
