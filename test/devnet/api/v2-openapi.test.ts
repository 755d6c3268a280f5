/**
 * Every path of the public v2 OpenAPI, served over HTTP by the devnet: REST (GET or POST as the spec
 * says) and jsonRPC answer it, and the whole body validates against the spec's 200 response (with
 * the v2 errata of test/support/spec-errata.ts patched); error answers against its error responses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Address, beginCell, external, storeMessage } from '@ton/core';
import type { Account, Transaction } from '../../../src/devnet/chain/model.js';
import { SUBWALLET_ID } from '../../../src/devnet/chain/constants.js';
import { startTestDevnet, type TestDevnet } from '../../support/test-devnet.js';
import { KEY } from '../../support/test-key.js';
import { v2Spec } from '../../support/openapi-v2.js';
import { errataOf } from '../../support/spec-errata.js';

type Json = Record<string, any>;
type Params = Record<string, unknown>;

let devnet: TestDevnet;
const spec = v2Spec();
const publishedSpec = v2Spec({ patched: false });

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: 5, blocks: 80 });
});

afterAll(async () => {
  await devnet.close();
});

const chain = () => devnet.view.chain;
const population = () => chain().population;
const active = (kind: Account['kind']): Account => population().accounts.find((a) => a.kind === kind && a.status === 'active')!;
const friendly = (account: Account): string => new Address(account.workchain, account.id).toString({ urlSafe: true, bounceable: true });
const signedShard = (hex: string): string => BigInt.asIntN(64, BigInt(`0x${hex}`)).toString();

async function call(path: string, method: 'get' | 'post', params: Params): Promise<{ status: number; body: Json }> {
  const url = new URL(`${devnet.url}${path}`);
  const init: RequestInit = { method: method.toUpperCase(), headers: { 'X-API-Key': KEY, 'content-type': 'application/json' } };
  if (method === 'get') for (const [name, value] of Object.entries(params)) url.searchParams.append(name, String(value));
  else init.body = JSON.stringify(params);
  const res = await fetch(url, init);
  return { status: res.status, body: (await res.json()) as Json };
}

async function rpc(method: string, params: Params): Promise<{ status: number; body: Json }> {
  return call('/api/v2/jsonRPC', 'post', { jsonrpc: '2.0', id: '7', method, params });
}

/** A valid request per path (several where the answer's shape depends on the account). */
function requests(): [string, Params][] {
  const wallet = population().accounts.filter((a) => a.kind === 'wallet' && a.status === 'active').reduce((a, b) =>
    (chain().accountTxs[b.index]?.length ?? 0) > (chain().accountTxs[a.index]?.length ?? 0) ? b : a,
  );
  const tx = (chain().accountTxs[wallet.index] ?? []).map((i) => chain().tx(i)).find((t: Transaction) => t.inMsg?.source != null)!;
  const msg = tx.inMsg!;
  const source = population().accountAt(msg.source!);
  const block = chain().blocks.filter((b) => b.workchain === 0 && b.txs.length > 2).at(-1)!;
  const blockParams = { workchain: 0, shard: signedShard(block.shard), seqno: block.seqno };
  const master = population().accountAt(population().masters[0]!);
  const head = chain().mcBlock(devnet.view.headStep);
  const body = beginCell().storeBuffer(Buffer.alloc(64)).storeUint(SUBWALLET_ID, 32).storeUint(head.genUtime + 60, 32).storeUint(wallet.seqno, 32).endCell();
  const boc = beginCell().store(storeMessage(external({ to: new Address(wallet.workchain, wallet.id), body }))).endCell().toBoc().toString('base64');
  const locate = { source: friendly(source), destination: friendly(wallet), created_lt: String(msg.createdLt) };
  return [
    ['getAddressInformation', { address: wallet.raw }],
    ['getExtendedAddressInformation', { address: wallet.raw }],
    ['getExtendedAddressInformation', { address: master.raw }],
    ['getExtendedAddressInformation', { address: `0:${'7'.repeat(64)}` }],
    ['getWalletInformation', { address: wallet.raw }],
    ['getWalletInformation', { address: master.raw }],
    ['getAddressBalance', { address: wallet.raw }],
    ['getAddressState', { address: wallet.raw }],
    ['getTokenData', { address: master.raw }],
    ['getTokenData', { address: active('jetton_wallet').raw }],
    ['getTokenData', { address: active('nft_item').raw }],
    ['getTokenData', { address: active('nft_collection').raw }],
    ['getBlockTransactions', { ...blockParams, count: 3 }],
    ['getBlockTransactionsExt', { ...blockParams, count: 3 }],
    ['getBlockTransactionsExt', { workchain: -1, shard: signedShard('8000000000000000'), seqno: head.seqno }],
    ['getTransactions', { address: wallet.raw, limit: 5 }],
    ['getTransactionsStd', { address: wallet.raw, limit: 5 }],
    ['tryLocateTx', locate],
    ['tryLocateResultTx', locate],
    ['tryLocateSourceTx', locate],
    ['getMasterchainInfo', {}],
    ['getMasterchainBlockSignatures', { seqno: head.seqno }],
    ['getShardBlockProof', blockParams],
    ['getConsensusBlock', {}],
    ['lookupBlock', { workchain: 0, shard: signedShard(block.shard), lt: block.startLt + 1 }],
    ['lookupBlock', { workchain: -1, shard: signedShard('8000000000000000'), unixtime: head.genUtime }],
    ['getShards', { seqno: head.seqno }],
    ['getBlockHeader', blockParams],
    ['getOutMsgQueueSize', {}],
    ['runGetMethod', { address: wallet.raw, method: 'seqno', stack: [] }],
    ['runGetMethod', { address: master.raw, method: 'get_jetton_data', stack: [] }],
    ['runGetMethodStd', { address: wallet.raw, method: 'seqno', stack: [] }],
    ['sendBoc', { boc }],
    ['sendBocReturnHash', { boc }],
    ['estimateFee', { address: wallet.raw, body: body.toBoc().toString('base64'), ignore_chksig: true }],
    ['detectAddress', { address: wallet.raw }],
    ['detectHash', { hash: tx.hash }],
    ['packAddress', { address: wallet.raw }],
    ['unpackAddress', { address: friendly(wallet) }],
    ['getConfigParam', { config_id: 15 }],
    ['getConfigAll', {}],
    ['getLibraries', { libraries: '0'.repeat(64) }],
  ];
}

describe('v2 paths of the OpenAPI', () => {
  it('lists every path the spec has, and the errata in one place', () => {
    const named = new Set(requests().map(([name]) => `/api/v2/${name}`));
    expect(spec.operations.map((o) => o.path).filter((path) => !path.endsWith('/jsonRPC') && !named.has(path))).toEqual([]);
    expect(errataOf('v2')).toEqual([
      'E1: TransactionExt (allOf of two closed schemas) is TransactionStd plus account, @type raw.transactionExt',
      'E2: TransactionStd.in_msg may be null',
      'E3: error texts enumerated with <N>/<value> placeholders carry the value',
      'E4: a jsonRPC answer follows its method path schema, not TonlibResponse',
    ]);
  });

  it('answers each over REST as the spec says (GET or POST), bodies valid against its 200 response', async () => {
    const methodOf = new Map(spec.operations.map((o) => [o.path, o.method]));
    for (const [name, params] of requests()) {
      const path = `/api/v2/${name}`;
      const reply = await call(path, methodOf.get(path)!, params);
      expect(reply.status, `${name} ${JSON.stringify(reply.body)}`).toBe(200);
      expect(spec.errors(path, reply.body), name).toEqual([]);
    }
  });

  it('answers each over jsonRPC in the same envelope, with jsonrpc and id', async () => {
    for (const [name, params] of requests()) {
      const reply = await rpc(name, params);
      expect(reply.status, `${name} ${JSON.stringify(reply.body)}`).toBe(200);
      const { jsonrpc, id, ...envelope } = reply.body;
      expect({ jsonrpc, id }).toEqual({ jsonrpc: '2.0', id: '7' });
      // E4: the method's own path schema, not TonlibResponse.
      expect(spec.errors(`/api/v2/${name}`, envelope), name).toEqual([]);
    }
    const object = await rpc('getMasterchainInfo', {});
    expect(spec.errors('/api/v2/jsonRPC', object.body)).toEqual([]);
    const text = await rpc('getAddressBalance', { address: active('wallet').raw });
    expect(publishedSpec.errors('/api/v2/jsonRPC', text.body)).not.toEqual([]);
  });

  it('the errata are real: the published spec rejects what the service sends', async () => {
    const block = chain().blocks.filter((b) => b.workchain === -1).at(-1)!;
    const reply = await call('/api/v2/getBlockTransactionsExt', 'get', { workchain: -1, shard: signedShard(block.shard), seqno: block.seqno });
    expect(reply.body.result.transactions.some((t: Json) => t.in_msg === null)).toBe(true);
    expect(spec.errors('/api/v2/getBlockTransactionsExt', reply.body)).toEqual([]);
    expect(publishedSpec.errors('/api/v2/getBlockTransactionsExt', reply.body)).not.toEqual([]);
    // The patched spec still has teeth: a transaction without data is rejected.
    const broken = structuredClone(reply.body);
    delete broken.result.transactions[0].data;
    expect(spec.errors('/api/v2/getBlockTransactionsExt', broken)).not.toEqual([]);
  });

  it('answers error cases with the spec’s error bodies', async () => {
    const wallet = active('wallet');
    const cases: [string, 'get' | 'post', Params, number, string][] = [
      ['getAddressInformation', 'get', {}, 422, 'empty address'],
      ['getTransactions', 'get', { address: wallet.raw, lt: '5' }, 422, 'lt and hash should be used together'],
      ['getTransactions', 'get', { address: wallet.raw, limit: 1001 }, 422, 'limit should be less or equal 1000'],
      ['tryLocateTx', 'get', { destination: wallet.raw, created_lt: 1 }, 422, 'empty source address'],
      ['tryLocateResultTx', 'get', { source: wallet.raw, destination: wallet.raw, created_lt: 1 }, 404, 'transaction not found'],
      ['lookupBlock', 'get', { workchain: -1, shard: signedShard('8000000000000000') }, 422, 'exactly one of seqno, lt, unixtime should be specified'],
      ['getTokenData', 'get', { address: wallet.raw }, 409, 'Smart contract is not Jetton or NFT'],
      ['sendBoc', 'post', { boc: '' }, 422, 'empty boc'],
      ['runGetMethod', 'post', { address: wallet.raw, method: 'seqno', stack: [['num']] }, 422, 'Invalid stack entry format: array of exact 2 elements expected'],
      ['runGetMethod', 'post', { address: wallet.raw, method: 'nope', stack: [] }, 500, 'Exit code 11 != 0'],
      ['getConfigParam', 'get', { config_id: -1 }, 422, 'param should be non-negative'],
    ];
    for (const [name, method, params, status, error] of cases) {
      const path = `/api/v2/${name}`;
      const reply = await call(path, method, params);
      expect({ status: reply.status, body: reply.body }, name).toEqual({ status, body: { ok: false, code: status, error } });
      expect(spec.errorErrors(path, status, reply.body), name).toEqual([]);
    }
    // E3 is real, and the patched texts keep their teeth.
    const exit = { ok: false, code: 500, error: 'Exit code 11 != 0' };
    expect(publishedSpec.errorErrors('/api/v2/runGetMethod', 500, exit)).not.toEqual([]);
    expect(spec.errorErrors('/api/v2/runGetMethod', 500, { ...exit, error: 'Exit code eleven is not zero' })).not.toEqual([]);
  });

  it('no v2 path of the spec answers 404, over REST or jsonRPC', async () => {
    for (const { path, method } of spec.operations) {
      if (path.endsWith('/jsonRPC')) continue;
      const name = path.slice('/api/v2/'.length);
      expect((await call(path, method, {})).status, path).not.toBe(404);
      expect((await rpc(name, {})).status, name).not.toBe(404);
    }
    expect((await rpc('shards', { seqno: chain().mcBlock(0).seqno })).body.result['@type']).toBe('blocks.shards');
    expect((await rpc('noSuchMethod', {})).status).toBe(404);
  });
});
