/** GET /adjacentTransactions and /transactionsByMessage: transactions linked through their messages. */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDevnetApi } from '../../../src/devnet/index.js';
import type { Transaction } from '../../../src/devnet/chain/model.js';
import { callV3 } from '../../support/devnet-routes.js';
import { apiErrorOf } from '../../support/api-error.js';
import type { Query } from '../../support/http.js';

type Row = Record<string, any>;

let api: ReturnType<typeof buildDevnetApi>;
const hashes = (endpoint: string, query: Query): string[] => (callV3<{ transactions: Row[] }>(api, endpoint, query).transactions).map((tx) => tx.hash as string);
const error = (endpoint: string, query: Query = {}): [number, string] => {
  const err = apiErrorOf(() => callV3(api, endpoint, query));
  return [err.status, err.message];
};

beforeAll(() => {
  api = buildDevnetApi({ seed: 7, blocks: 80, indexerLag: 10 });
});

/** A jetton transfer's middle transaction: the sender's jetton wallet, with a parent and a child. */
function middle(): Transaction {
  const chain = api.view.chain;
  return chain.txs.find((tx) => tx.inMsg?.body.kind === 'jetton_transfer' && tx.outMsgs.length === 1 && tx.outMsgs[0]!.inTx >= 0 && api.view.isIndexed(tx.outMsgs[0]!.inTx))!;
}

describe('GET /adjacentTransactions', () => {
  it('gives the parent with direction=in, the children with out, both without', () => {
    const chain = api.view.chain;
    const tx = middle();
    const parent = chain.tx(tx.inMsg!.outTx).hash;
    const child = chain.tx(tx.outMsgs[0]!.inTx).hash;
    expect(hashes('adjacentTransactions', { hash: tx.hash, direction: 'in' })).toEqual([parent]);
    expect(hashes('adjacentTransactions', { hash: tx.hash, direction: 'out' })).toEqual([child]);
    expect(hashes('adjacentTransactions', { hash: Buffer.from(tx.hash, 'base64').toString('hex') })).toEqual([parent, child]);
  });

  it('leaves out transactions the indexer does not have yet, and answers unknown hashes with none', () => {
    const chain = api.view.chain;
    const unindexedChild = chain.txs.find((tx) => api.view.isIndexed(tx.index) && tx.outMsgs.some((m) => m.inTx >= 0 && !api.view.isIndexed(m.inTx)))!;
    const indexedChildren = unindexedChild.outMsgs.filter((m) => m.inTx >= 0 && api.view.isIndexed(m.inTx)).map((m) => chain.tx(m.inTx).hash);
    expect(hashes('adjacentTransactions', { hash: unindexedChild.hash, direction: 'out' }).sort()).toEqual(indexedChildren.sort());
    expect(hashes('adjacentTransactions', { hash: Buffer.alloc(32, 7).toString('base64') })).toEqual([]);
    expect(error('adjacentTransactions')).toEqual([422, 'missing required parameter: hash']);
    expect(error('adjacentTransactions', { hash: 'abc' })).toEqual([422, 'failed to parse hash: invalid hash "abc"']);
    expect(error('adjacentTransactions', { hash: middle().hash, direction: 'both' })).toEqual([422, 'failed to parse direction: "both" is not one of in, out']);
  });
});

describe('GET /transactionsByMessage', () => {
  it('gives the sender with direction=out, the receiver with in, both without', () => {
    const chain = api.view.chain;
    const tx = middle();
    const msg = tx.outMsgs[0]!;
    const receiver = chain.tx(msg.inTx).hash;
    expect(hashes('transactionsByMessage', { msg_hash: msg.hash, direction: 'out' })).toEqual([tx.hash]);
    expect(hashes('transactionsByMessage', { msg_hash: msg.hash, direction: 'in' })).toEqual([receiver]);
    expect(hashes('transactionsByMessage', { msg_hash: msg.hash })).toEqual([tx.hash, receiver]);
    // An external message has only its receiver.
    expect(hashes('transactionsByMessage', { msg_hash: chain.tx(tx.inMsg!.outTx).inMsg!.hash })).toEqual([chain.tx(tx.inMsg!.outTx).hash]);
  });

  it('finds by opcode and body hash, paged, in lt order', () => {
    const rows = callV3<{ transactions: Row[] }>(api, 'transactionsByMessage', { opcode: '0x0f8a7ea5', direction: 'in', limit: 1000 }).transactions;
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.every((tx) => tx.in_msg.opcode === '0x0f8a7ea5')).toBe(true);
    const lts = rows.map((tx) => BigInt(tx.lt as string));
    expect(lts).toEqual([...lts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(hashes('transactionsByMessage', { opcode: '0x0f8a7ea5', direction: 'in', limit: 5, offset: 3 })).toEqual(rows.slice(3, 8).map((tx) => tx.hash));
    const one = rows[0]!;
    expect(hashes('transactionsByMessage', { body_hash: one.in_msg.message_content.hash as string, direction: 'in' })).toContain(one.hash);
    expect(error('transactionsByMessage')).toEqual([422, 'msg_hash, body_hash or opcode is required']);
  });
});
