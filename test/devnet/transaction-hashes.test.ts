/**
 * Devnet transaction hashes are the hashes of real transaction cells (issue 14, docs/design.md §6):
 * for every transaction of a test chain, the cell hash of the BoC v2 sends as `data` (read with
 * @ton/core) is the hash v2 and v3 report, and every hash derived from it (prev_trans_hash, trace
 * ids, messages' transaction hashes, actions' transactions) names such a transaction.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Address, beginCell, Cell, loadTransaction, storeTransaction } from '@ton/core';
import { buildDevnetApi } from '../../src/devnet/index.js';
import { v2Handlers } from '../../src/devnet/api/v2/index.js';
import { QueryParams } from '../../src/devnet/http/query-params.js';
import { ZERO_HASH } from '../../src/devnet/render/context.js';
import { callV3 } from '../support/devnet-routes.js';

type Json = Record<string, any>;

let api: ReturnType<typeof buildDevnetApi>;
/** Every transaction v2 lists, keyed `account/lt`, with its cell's hash. */
const fromV2 = new Map<string, { reported: string; cellHash: string; cell: Cell }>();

function v2(endpoint: string, params: Record<string, string>): Json {
  const handler = v2Handlers(api)[endpoint]!;
  return JSON.parse(JSON.stringify(handler({ method: 'GET', version: 'v2', endpoint, query: new QueryParams(new URLSearchParams(params)), body: undefined, headers: {} }))) as Json;
}

/** All of a v3 list, paged by offset. */
function v3All(endpoint: string, key: string, query: Record<string, string | number | boolean> = {}): Json[] {
  const rows: Json[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = callV3<Json>(api, endpoint, { ...query, limit: 1000, offset })[key] as Json[];
    rows.push(...page);
    if (page.length < 1000) return rows;
  }
}

beforeAll(() => {
  api = buildDevnetApi({ seed: 7, blocks: 60 });
  const chain = api.view.chain;
  for (const account of chain.population.accounts) {
    if ((chain.accountTxs[account.index] ?? []).length === 0) continue;
    const address = new Address(account.workchain, account.id).toString();
    for (const item of v2('getTransactions', { address, limit: '1000' }) as unknown as Json[]) {
      const cell = Cell.fromBoc(Buffer.from(item.data as string, 'base64'))[0]!;
      fromV2.set(`${account.raw}/${item.transaction_id.lt}`, { reported: item.transaction_id.hash, cellHash: cell.hash().toString('base64'), cell });
    }
  }
});

describe('transaction hashes', () => {
  it('are the cell hashes of the BoCs v2 sends, for every transaction of the chain', () => {
    expect(fromV2.size).toBe(api.view.chain.txs.length);
    expect(fromV2.size).toBeGreaterThan(1000);
    for (const { reported, cellHash } of fromV2.values()) expect(reported).toBe(cellHash);
  });

  it('are the hashes v3 reports, and prev_trans_hash names the previous transaction’s cell', () => {
    const txs = v3All('transactions', 'transactions', { sort: 'asc' });
    expect(txs).toHaveLength(fromV2.size);
    for (const tx of txs) {
      expect(tx.hash).toBe(fromV2.get(`${tx.account}/${tx.lt}`)?.cellHash);
      expect(tx.prev_trans_hash).toBe(tx.prev_trans_lt === '0' ? ZERO_HASH : fromV2.get(`${tx.account}/${tx.prev_trans_lt}`)?.cellHash);
    }
  });

  it('name cells @ton/core reads as transactions and writes back bit for bit', () => {
    for (const { cell } of fromV2.values()) {
      const parsed = loadTransaction(cell.beginParse());
      expect(beginCell().store(storeTransaction(parsed)).endCell().hash().equals(cell.hash())).toBe(true);
    }
  });

  it('are what trace ids, messages and actions name', () => {
    const cellHashes = new Set([...fromV2.values()].map((tx) => tx.cellHash));
    const traces = v3All('traces', 'traces');
    expect(traces.length).toBeGreaterThan(100);
    for (const trace of traces) {
      expect(cellHashes.has(trace.trace_id)).toBe(true);
      expect(trace.transactions_order[0]).toBe(trace.trace_id);
    }
    const messages = v3All('messages', 'messages');
    const named = messages.flatMap((msg) => [msg.in_msg_tx_hash, msg.out_msg_tx_hash]).filter((hash) => hash !== null);
    expect(named.length).toBeGreaterThan(1000);
    expect(named.filter((hash) => !cellHashes.has(hash))).toEqual([]);
    const actions = v3All('actions', 'actions', { sort: 'asc' });
    expect(actions.length).toBeGreaterThan(100);
    for (const action of actions) expect((action.transactions as string[]).filter((hash) => !cellHashes.has(hash))).toEqual([]);
  });
});
