import { describe, expect, it } from 'vitest';
import { Address, Cell, Dictionary } from '@ton/core';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { buildDevnetApi, startDevnet } from '../../../src/devnet/index.js';
import { v2Handlers } from '../../../src/devnet/api/v2/index.js';
import { devnetRoutes } from '../../../src/devnet/api/routes.js';
import { getMethodId } from '../../../src/devnet/api/v2/get-methods.js';
import { QueryParams } from '../../../src/devnet/http/query-params.js';
import { ApiError } from '../../../src/devnet/http/api-error.js';
import type { DevnetRequest } from '../../../src/devnet/http/types.js';
import type { Account, Block, Transaction } from '../../../src/devnet/chain/model.js';
import { FIRST_MC_SEQNO } from '../../../src/devnet/chain/constants.js';

const api = buildDevnetApi({ seed: 7, blocks: 300 });
const chain = api.view.chain;
const pop = chain.population;
const handlers = v2Handlers(api);

/** Results are read loosely: the assertions check their shape. */
type Json = Record<string, any>;

function get(endpoint: string, params: Record<string, string | string[]> = {}): Json {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) for (const v of [value].flat()) search.append(name, v);
  return call({ method: 'GET', version: 'v2', endpoint, query: new QueryParams(search), body: undefined, headers: {} });
}

function post(endpoint: string, body: Record<string, unknown>): Json {
  return call({ method: 'POST', version: 'v2', endpoint, query: QueryParams.fromFields(body), body, headers: {} });
}

function call(req: DevnetRequest): Json {
  const handler = handlers[req.endpoint];
  if (handler === undefined) throw new Error(`no v2 handler ${req.endpoint}`);
  return handler(req) as Json;
}

/** The status and text a failing call throws. */
function failure(fn: () => unknown): { status: number; error: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return { status: err.status, error: err.message };
    throw err;
  }
  throw new Error('expected an ApiError');
}

function blockId(block: Block): Json {
  return {
    '@type': 'ton.blockIdExt',
    workchain: block.workchain,
    shard: BigInt.asIntN(64, BigInt(`0x${block.shard}`)).toString(),
    seqno: block.seqno,
    root_hash: block.rootHash,
    file_hash: block.fileHash,
  };
}

const run = (address: string, method: string | number, stack: unknown = []): Json => post('runGetMethodStd', { address, method, stack });
const head = (): Block => chain.mcBlock(api.view.headStep);
const rawLower = (account: Account): string => `${account.workchain}:${account.id.toString('hex')}`;
const accountsOf = (kind: Account['kind'], status: Account['status'] = 'active'): Account[] =>
  pop.accounts.filter((a) => a.kind === kind && a.status === status);
const stackNumber = (entry: Json): string => {
  expect(entry['@type']).toBe('tvm.stackEntryNumber');
  expect(entry.number['@type']).toBe('tvm.numberDecimal');
  return entry.number.number as string;
};
const stackCell = (entry: Json, type: 'slice' | 'cell'): Cell => {
  expect(entry['@type']).toBe(type === 'slice' ? 'tvm.stackEntrySlice' : 'tvm.stackEntryCell');
  expect(entry[type]['@type']).toBe(type === 'slice' ? 'tvm.slice' : 'tvm.cell');
  return Cell.fromBase64(entry[type].bytes as string);
};

describe('v2 getMasterchainInfo', () => {
  it('reports the chain head in last and the first block in init, shards as signed decimals', () => {
    expect(api.view.headStep).toBe(299);
    const info = get('getMasterchainInfo');
    expect(info).toEqual({
      '@type': 'blocks.masterchainInfo',
      last: blockId(head()),
      state_root_hash: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/),
      init: blockId(chain.mcBlock(0)),
    });
    expect(info.last.seqno).toBe(FIRST_MC_SEQNO + 299);
    expect(info.last.shard).toBe('-9223372036854775808');
    expect(info.init.seqno).toBe(FIRST_MC_SEQNO);
  });

  it('shows the head while the v3 index trails it', () => {
    const lagging = buildDevnetApi({ seed: 7, blocks: 300, indexerLag: 5 });
    const req = (endpoint: string): DevnetRequest => ({ method: 'GET', version: endpoint === 'masterchainInfo' ? 'v3' : 'v2', endpoint, query: new QueryParams(), body: undefined, headers: {} });
    const routes = devnetRoutes(lagging);
    const v2 = routes.v2['getMasterchainInfo']!(req('getMasterchainInfo')) as Json;
    const v3 = routes.v3['masterchainInfo']!(req('masterchainInfo')) as Json;
    expect(v2.last.seqno).toBe(FIRST_MC_SEQNO + 299);
    expect(v3.last.seqno).toBe(FIRST_MC_SEQNO + 294);
  });
});

describe('v2 getShards', () => {
  it('lists the basechain shard blocks of a masterchain block', () => {
    const step = 120;
    const result = get('getShards', { seqno: String(FIRST_MC_SEQNO + step) });
    const shardBlocks = chain.blocksOfStep(step).filter((b) => b.workchain === 0);
    expect(result).toEqual({ '@type': 'blocks.shards', shards: shardBlocks.map(blockId) });
    expect(result.shards.map((s: Json) => s.shard)).toEqual(['4611686018427387904', '-4611686018427387904']);
  });

  it('answers 422 on a missing or bad seqno and 500 LITE_SERVER_NOTREADY past the head', () => {
    expect(failure(() => get('getShards'))).toEqual({ status: 422, error: 'seqno required' });
    expect(failure(() => get('getShards', { seqno: 'x' }))).toEqual({ status: 422, error: 'failed to parse seqno' });
    expect(failure(() => get('getShards', { seqno: '-5' }))).toEqual({ status: 422, error: 'seqno should be positive' });
    const next = FIRST_MC_SEQNO + 300;
    expect(failure(() => get('getShards', { seqno: String(next) }))).toEqual({
      status: 500,
      error: `LITE_SERVER_NOTREADY: cannot find block (-1,8000000000000000) seqno=${next}: seqno not in db`,
    });
  });
});

describe('v2 getBlockTransactions', () => {
  const params = (block: Block, extra: Record<string, string> = {}): Record<string, string> => ({
    workchain: String(block.workchain),
    shard: BigInt.asIntN(64, BigInt(`0x${block.shard}`)).toString(),
    seqno: String(block.seqno),
    ...extra,
  });
  const expectedOf = (block: Block): { account: string; lt: string; hash: string }[] =>
    block.txs.map((i) => {
      const tx: Transaction = chain.tx(i);
      return { account: rawLower(pop.accountAt(tx.account)), lt: String(tx.lt), hash: tx.hash };
    });

  it('pages every block exactly with the after_lt/after_hash cursor, ordered by account then lt', () => {
    let pagesWithSharedLt = 0;
    for (const block of chain.blocks) {
      const expected = expectedOf(block);
      for (const count of [1, 2, 3, 7]) {
        const seen: Json[] = [];
        let cursor: Record<string, string> = {};
        for (let page = 0; ; page++) {
          expect(page).toBeLessThanOrEqual(expected.length);
          const result = get('getBlockTransactions', params(block, { count: String(count), ...cursor }));
          expect(result['@type']).toBe('blocks.transactions');
          expect(result.id).toEqual(blockId(block));
          expect(result.req_count).toBe(count);
          expect(result.transactions.length).toBeLessThanOrEqual(count);
          for (const tx of result.transactions) expect(tx).toMatchObject({ '@type': 'blocks.shortTxId', mode: 135 });
          seen.push(...result.transactions);
          if (!result.incomplete) break;
          expect(result.transactions).toHaveLength(count);
          const last = result.transactions.at(-1);
          cursor = { after_lt: last.lt, after_hash: last.account };
        }
        const items = seen.map(({ account, lt, hash }) => ({ account, lt, hash }));
        expect(new Set(items.map((t) => t.hash)).size).toBe(items.length);
        expect([...items].sort((a, b) => (a.hash < b.hash ? -1 : 1))).toEqual([...expected].sort((a, b) => (a.hash < b.hash ? -1 : 1)));
        const sorted = [...items].sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : Number(BigInt(a.lt) - BigInt(b.lt))));
        expect(items).toEqual(sorted);
        if (new Set(items.map((t) => t.lt)).size < items.length) pagesWithSharedLt++;
      }
    }
    expect(pagesWithSharedLt).toBeGreaterThan(0);
  });

  it('defaults count to 40 and accepts the shard as hex and after_hash as hex, base64 or raw', () => {
    const block = chain.blocks.reduce((a, b) => (b.txs.length > a.txs.length ? b : a));
    expect(block.txs.length).toBeGreaterThan(4);
    const all = get('getBlockTransactions', params(block));
    expect(all.req_count).toBe(40);
    expect(all.incomplete).toBe(false);
    expect(all.transactions).toHaveLength(block.txs.length);
    expect(get('getBlockTransactions', { ...params(block), shard: block.shard })).toEqual(all);

    const last = all.transactions[1];
    const idHex = (last.account as string).split(':')[1]!;
    const rest = all.transactions.slice(2);
    for (const afterHash of [last.account, idHex, idHex.toUpperCase(), Buffer.from(idHex, 'hex').toString('base64')]) {
      const page = get('getBlockTransactions', params(block, { after_lt: last.lt, after_hash: afterHash }));
      expect(page.transactions).toEqual(rest);
    }
    // The docs example passes a transaction hash: it parses as an account id (any 32 bytes do).
    expect(() => get('getBlockTransactions', params(block, { after_lt: last.lt, after_hash: last.hash }))).not.toThrow();
  });

  it('answers 422 with the gateway texts and 500 for a block it does not have', () => {
    const block = chain.mcBlock(10);
    const p = params(block);
    const { workchain: _w, ...noWorkchain } = p;
    expect(failure(() => get('getBlockTransactions', noWorkchain))).toEqual({ status: 422, error: 'workchain required' });
    expect(failure(() => get('getBlockTransactions', { ...p, workchain: 'minus one' }))).toEqual({ status: 422, error: 'failed to parse workchain' });
    expect(failure(() => get('getBlockTransactions', { ...p, shard: 'zz' }))).toEqual({ status: 422, error: 'failed to parse shard' });
    expect(failure(() => get('getBlockTransactions', { ...p, root_hash: 'nope' }))).toEqual({ status: 422, error: 'failed to parse root_hash' });
    expect(failure(() => get('getBlockTransactions', { ...p, after_lt: '5' }))).toEqual({ status: 422, error: 'after_lt and after_hash should be used together' });
    expect(failure(() => get('getBlockTransactions', { ...p, after_lt: '-1', after_hash: '0'.repeat(64) }))).toEqual({ status: 422, error: 'after_lt should be non-negative' });
    expect(failure(() => get('getBlockTransactions', { ...p, count: '0' }))).toEqual({ status: 422, error: 'count should be positive' });
    expect(failure(() => get('getBlockTransactions', { ...p, count: '10001' }))).toEqual({ status: 422, error: 'count should be less or equal 10000' });
    const wrongHash = Buffer.alloc(32, 1).toString('base64');
    expect(failure(() => get('getBlockTransactions', { ...p, root_hash: wrongHash }))).toEqual({
      status: 500,
      error: `LITE_SERVER_NOTREADY: cannot find block (-1,8000000000000000) seqno=${block.seqno}: seqno not in db`,
    });
    expect(get('getBlockTransactions', { ...p, root_hash: block.rootHash, file_hash: Buffer.from(block.fileHash, 'base64').toString('hex') }).id).toEqual(blockId(block));
  });
});

describe('v2 getAddressInformation', () => {
  it('returns the head state of an active wallet, by raw or user-friendly address', () => {
    const wallet = accountsOf('wallet').find((a) => a.seqno > 1)!;
    const lastTx = chain.tx(wallet.lastTx);
    const info = get('getAddressInformation', { address: wallet.raw });
    expect(info).toEqual({
      '@type': 'raw.fullAccountState',
      balance: wallet.balance.toString(),
      extra_currencies: [],
      last_transaction_id: { '@type': 'internal.transactionId', lt: String(lastTx.lt), hash: lastTx.hash },
      block_id: blockId(head()),
      code: expect.any(String),
      data: expect.any(String),
      frozen_hash: '',
      sync_utime: head().genUtime,
      state: 'active',
      suspended: false,
    });
    expect(Cell.fromBase64(info.data).beginParse().loadUint(32)).toBe(wallet.seqno);
    expect(Cell.fromBase64(info.code).hash().length).toBe(32);
    expect(get('getAddressInformation', { address: api.render.userFriendly(wallet.index) })).toEqual(info);
  });

  it('reports the state at an earlier masterchain block', () => {
    const wallet = accountsOf('wallet').find((a) => (chain.accountTxs[a.index] ?? []).length >= 3)!;
    const txs = chain.accountTxs[wallet.index]!.map((i) => chain.tx(i));
    const seqno = txs[1]!.mcSeqno;
    const before = txs.filter((t) => t.mcSeqno <= seqno).at(-1)!;
    const info = get('getAddressInformation', { address: wallet.raw, seqno: String(seqno) });
    expect(info.balance).toBe(before.balanceAfter.toString());
    expect(info.last_transaction_id).toEqual({ '@type': 'internal.transactionId', lt: String(before.lt), hash: before.hash });
    expect(info.block_id).toEqual(blockId(chain.mcBlock(seqno - FIRST_MC_SEQNO)));
  });

  it('shows uninitialized accounts without code, and unknown addresses as empty', () => {
    const uninit = accountsOf('wallet', 'uninit')[0]!;
    expect(get('getAddressInformation', { address: uninit.raw })).toMatchObject({ state: 'uninitialized', balance: uninit.balance.toString(), code: '', data: '' });
    const unknown = new Address(0, Buffer.alloc(32, 0xab)).toString();
    expect(get('getAddressInformation', { address: unknown })).toMatchObject({
      state: 'uninitialized',
      balance: '0',
      last_transaction_id: { '@type': 'internal.transactionId', lt: '0', hash: Buffer.alloc(32).toString('base64') },
      code: '',
      data: '',
    });
  });

  it('answers 422 on an empty or unparsable address', () => {
    expect(failure(() => get('getAddressInformation'))).toEqual({ status: 422, error: 'empty address' });
    expect(failure(() => get('getAddressInformation', { address: '' }))).toEqual({ status: 422, error: 'empty address' });
    expect(failure(() => get('getAddressInformation', { address: 'EQnotanaddress' }))).toEqual({ status: 422, error: 'failed to parse address' });
  });
});

describe('v2 getMasterchainBlockSignatures and getLibraries', () => {
  it('returns nine deterministic signatures derived from the block', () => {
    const seqno = FIRST_MC_SEQNO + 42;
    const result = get('getMasterchainBlockSignatures', { seqno: String(seqno) });
    expect(result['@type']).toBe('blocks.blockSignatures');
    expect(result.id).toEqual(blockId(chain.mcBlock(42)));
    expect(result.signatures).toHaveLength(9);
    for (const s of result.signatures) {
      expect(s['@type']).toBe('blocks.signature');
      expect(Buffer.from(s.node_id_short, 'base64')).toHaveLength(32);
      expect(Buffer.from(s.signature, 'base64')).toHaveLength(64);
    }
    expect(new Set(result.signatures.map((s: Json) => s.node_id_short)).size).toBe(9);
    expect(get('getMasterchainBlockSignatures', { seqno: String(seqno) })).toEqual(result);
    const other = get('getMasterchainBlockSignatures', { seqno: String(seqno + 1) });
    expect(other.signatures.map((s: Json) => s.node_id_short)).toEqual(result.signatures.map((s: Json) => s.node_id_short));
    expect(other.signatures[0].signature).not.toBe(result.signatures[0].signature);
    expect(failure(() => get('getMasterchainBlockSignatures'))).toEqual({ status: 422, error: 'seqno required' });
  });

  it('finds no library for a valid hash and rejects an unparsable one', () => {
    const hex = createHash('sha256').update('lib').digest('hex');
    expect(get('getLibraries', { libraries: [hex, Buffer.from(hex, 'hex').toString('base64')] })).toEqual({ '@type': 'smc.libraryResult', result: [] });
    expect(get('getLibraries')).toEqual({ '@type': 'smc.libraryResult', result: [] });
    expect(failure(() => get('getLibraries', { libraries: [hex, 'xyz'] }))).toEqual({ status: 422, error: 'failed to parse libraries' });
  });
});

describe('v2 runGetMethodStd', () => {
  it('computes method ids as TVM does', () => {
    expect(getMethodId('seqno')).toBe(85143);
    expect(getMethodId('get_wallet_data')).toBe(97026);
    expect(getMethodId('get_jetton_data')).toBe(106029);
  });

  it('runs seqno on wallets, by name or method id', () => {
    const wallet = accountsOf('wallet').find((a) => a.seqno > 2)!;
    const result = run(api.render.userFriendly(wallet.index), 'seqno');
    expect(result).toEqual({
      '@type': 'smc.runResult',
      gas_used: expect.any(Number),
      stack: [{ '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: String(wallet.seqno) } }],
      exit_code: 0,
    });
    expect(run(wallet.raw, 85143)).toEqual(result);
  });

  it('runs get_wallet_data on jetton wallets: balance, owner, master, code', () => {
    const moved = accountsOf('jetton_wallet').filter((a) => (chain.accountTxs[a.index] ?? []).length > 0);
    expect(moved.length).toBeGreaterThan(0);
    const big = moved.filter((a) => (a.jettonBalance ?? 0n) > 1n << 100n);
    expect(big.length).toBeGreaterThan(0);
    for (const wallet of [moved[0]!, big[0]!]) {
      const result = run(wallet.raw, 'get_wallet_data');
      expect(result.exit_code).toBe(0);
      expect(result.stack).toHaveLength(4);
      expect(stackNumber(result.stack[0])).toBe(wallet.jettonBalance!.toString());
      const owner = stackCell(result.stack[1], 'slice').beginParse().loadAddress();
      expect(owner.equals(api.render.address(wallet.owner!))).toBe(true);
      const master = stackCell(result.stack[2], 'slice').beginParse().loadAddress();
      expect(master.equals(api.render.address(wallet.jettonMaster!))).toBe(true);
      expect(stackCell(result.stack[3], 'cell').hash().length).toBe(32);
    }
  });

  it('runs get_jetton_data on jetton masters: supply, mintable, admin, content, wallet code', () => {
    const master = pop.accountAt(pop.masters[2]!);
    const result = run(master.raw, 'get_jetton_data');
    expect(result.stack).toHaveLength(5);
    expect(stackNumber(result.stack[0])).toBe(master.token!.totalSupply.toString());
    expect(stackNumber(result.stack[1])).toBe('-1');
    expect(stackCell(result.stack[2], 'slice').beginParse().loadMaybeAddress()).toBeNull();
    const content = stackCell(result.stack[3], 'cell').beginParse();
    expect(content.loadUint(8)).toBe(0);
    const dict = content.loadDict(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
    const symbol = dict.get(createHash('sha256').update('symbol').digest())!.beginParse();
    expect(symbol.loadUint(8)).toBe(0);
    expect(symbol.loadStringTail()).toBe(master.token!.symbol);
    const wallet = run(accountsOf('jetton_wallet')[0]!.raw, 'get_wallet_data');
    expect(result.stack[4]).toEqual(wallet.stack[3]);
  });

  it('fails like the gateway: exit codes as 500, unsupported entries as 542, a non-array stack as 422', () => {
    const wallet = accountsOf('wallet')[0]!;
    const master = pop.accountAt(pop.masters[0]!);
    expect(failure(() => run(wallet.raw, 'get_jetton_data'))).toEqual({ status: 500, error: 'Exit code 11 != 0' });
    expect(failure(() => run(master.raw, 'seqno'))).toEqual({ status: 500, error: 'Exit code 11 != 0' });
    expect(failure(() => run(accountsOf('wallet', 'uninit')[0]!.raw, 'seqno'))).toEqual({ status: 500, error: 'Exit code -13 != 0' });
    expect(failure(() => run(wallet.raw, 'seqno', [{ '@type': 'tvm.stackEntryUnsupported' }]))).toEqual({
      status: 542,
      error: 'Unsupported stack entry type: tvm.stackEntryUnsupported',
    });
    expect(failure(() => run(wallet.raw, 'seqno', [['num', '0x1']]))).toEqual({ status: 542, error: 'Unsupported stack entry type: ["num","0x1"]' });
    expect(failure(() => run(wallet.raw, 'seqno', {}))).toEqual({ status: 422, error: 'Stack should be array' });
    expect(failure(() => post('runGetMethodStd', { address: wallet.raw, method: 'seqno' }))).toEqual({ status: 422, error: 'Stack should be array' });
    expect(failure(() => run('', 'seqno'))).toEqual({ status: 422, error: 'empty address' });
    expect(failure(() => run(wallet.raw, 'seqno', [{ '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell', bytes: '' } }]))).toEqual({ status: 422, error: 'Empty tvm.Cell' });
    // Well-formed typed entries are accepted (and ignored by methods without arguments).
    const args = [
      { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '7' } },
      { '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple', elements: [] } },
    ];
    expect(stackNumber(run(wallet.raw, 'seqno', args).stack[0])).toBe(String(wallet.seqno));
  });
});

describe('v2 results and the v2 OpenAPI', () => {
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; formats such as int32 are the spec's annotations.
  const spec = JSON.parse(readFileSync(new URL('../../fixtures/specs/toncenter-v2.openapi.docs-ton-org.json', import.meta.url), 'utf8')) as Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const ID = 'https://chain-etl.invalid/toncenter-v2.schema.json';
  ajv.addSchema({ $id: ID, components: spec.components });
  const errorsOf = (schema: string, result: unknown): unknown[] => {
    const validate = ajv.compile({ $ref: `${ID}#/components/schemas/${schema}` });
    return validate({ ok: true, result, '@extra': '1763745600.000:0:1' }) ? [] : (validate.errors ?? []);
  };

  it('match the response schemas (closed objects, typed stack entries)', () => {
    const block = chain.blocks.reduce((a, b) => (b.txs.length > a.txs.length ? b : a));
    const shard = BigInt.asIntN(64, BigInt(`0x${block.shard}`)).toString();
    const wallet = accountsOf('wallet')[0]!;
    const cases: [string, Json][] = [
      ['MasterchainInfoResponse', get('getMasterchainInfo')],
      ['ShardsResponse', get('getShards', { seqno: String(FIRST_MC_SEQNO + 7) })],
      ['BlockTransactionsResponse', get('getBlockTransactions', { workchain: '0', shard, seqno: String(block.seqno), count: '5' })],
      ['AddressInformationResponse', get('getAddressInformation', { address: wallet.raw })],
      ['AddressInformationResponse', get('getAddressInformation', { address: accountsOf('wallet', 'uninit')[0]!.raw })],
      ['MasterchainBlockSignaturesResponse', get('getMasterchainBlockSignatures', { seqno: String(FIRST_MC_SEQNO + 7) })],
      ['LibrariesResponse', get('getLibraries', { libraries: '0'.repeat(64) })],
      ['RunGetMethodStdResponse', run(wallet.raw, 'seqno')],
      ['RunGetMethodStdResponse', run(accountsOf('jetton_wallet')[0]!.raw, 'get_wallet_data')],
      ['RunGetMethodStdResponse', run(pop.accountAt(pop.masters[0]!).raw, 'get_jetton_data')],
      ['RunGetMethodStdResponse', run(accountsOf('nft_item')[0]!.raw, 'get_nft_data')],
    ];
    for (const [schema, result] of cases) expect(errorsOf(schema, result), schema).toEqual([]);
    // The check has teeth: a neutral `chain.blockIdExt` or a bare number entry is rejected.
    const info = get('getMasterchainInfo');
    expect(errorsOf('MasterchainInfoResponse', { ...info, last: { ...info.last, '@type': 'chain.blockIdExt' } })).not.toEqual([]);
    expect(errorsOf('RunGetMethodStdResponse', { ...run(wallet.raw, 'seqno'), stack: [{ '@type': 'tvm.stackEntryNumber', number: '1' }] })).not.toEqual([]);
  });
});

describe('v2 over HTTP', () => {
  it('answers JSON-RPC getMasterchainInfo and runGetMethodStd in the envelope', async () => {
    const devnet = await startDevnet({ blocks: 50, keys: new Map([['K', 'mainnet' as const]]), keyRps: 100 });
    try {
      const rpc = async (id: number, method: string, params: Record<string, unknown>): Promise<{ status: number; body: Json }> => {
        const res = await fetch(`${devnet.url}/api/v2/jsonRPC`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'X-API-Key': 'K' },
          body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
        });
        return { status: res.status, body: (await res.json()) as Json };
      };
      const info = await rpc(1, 'getMasterchainInfo', {});
      expect(info.status).toBe(200);
      const mcHead = devnet.view.chain.mcBlock(devnet.view.headStep);
      expect(info.body).toEqual({
        ok: true,
        result: { '@type': 'blocks.masterchainInfo', last: blockId(mcHead), state_root_hash: expect.any(String), init: blockId(devnet.view.chain.mcBlock(0)) },
        '@extra': expect.any(String),
        jsonrpc: '2.0',
        id: 1,
      });
      expect(info.body.result.last.seqno).toBe(FIRST_MC_SEQNO + 49);

      const wallet = devnet.view.chain.population.accounts.find((a) => a.kind === 'wallet' && a.seqno > 0)!;
      const seqno = await rpc(2, 'runGetMethodStd', { address: wallet.raw, method: 'seqno', stack: [] });
      expect(seqno.body).toMatchObject({ ok: true, id: 2, result: { '@type': 'smc.runResult', exit_code: 0 } });
      expect(seqno.body.result.stack[0].number.number).toBe(String(wallet.seqno));

      const bad = await rpc(3, 'runGetMethodStd', { address: wallet.raw, method: 'no_such_method', stack: [] });
      expect(bad).toEqual({ status: 500, body: { ok: false, code: 500, error: 'Exit code 11 != 0', jsonrpc: '2.0', id: 3 } });
    } finally {
      await devnet.close();
    }
  });
});
