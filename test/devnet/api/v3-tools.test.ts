/**
 * The v3 paths that are tools rather than datasets: /decode (GET and POST), the v2 proxies
 * (/addressInformation, /walletInformation, POST /estimateFee, /message, /runGetMethod), the pending
 * lists and /validators/complaints.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Address, beginCell, Cell, external, storeMessage } from '@ton/core';
import { buildDevnetApi } from '../../../src/devnet/index.js';
import { normalizedExternalHash } from '../../../src/devnet/render/normalized-hash.js';
import { callV3, postV3 } from '../../support/devnet-routes.js';
import { apiErrorOf } from '../../support/api-error.js';
import type { Query } from '../../support/http.js';

type Row = Record<string, any>;

let api: ReturnType<typeof buildDevnetApi>;
const raw = (account: number): string => api.view.chain.population.accountAt(account).raw;
const error = (call: () => unknown): [number, string] => {
  const err = apiErrorOf(call);
  return [err.status, err.message];
};
const getError = (endpoint: string, query: Query = {}): [number, string] => error(() => callV3(api, endpoint, query));

beforeAll(() => {
  api = buildDevnetApi({ seed: 7, blocks: 40 });
});

const boc = (cell: Cell, encoding: 'base64' | 'hex' = 'base64'): string => cell.toBoc().toString(encoding);

describe('/decode', () => {
  it('names opcodes given in hex with or without 0x, or in decimal; unknown ones as unknown', () => {
    expect(callV3(api, 'decode', { opcodes: ['0x0f8a7ea5', '7362d09c', '395134233', '0', '0xdeadbeef'] }).opcodes).toEqual([
      'jetton_transfer',
      'jetton_notify',
      'jetton_internal_transfer',
      'text_comment',
      'unknown',
    ]);
    expect(getError('decode', { opcodes: ['0x1ffffffff'] })).toEqual([422, 'failed to parse opcode "0x1ffffffff": expected hex (0x…) or a 32-bit decimal']);
  });

  it('decodes bodies in base64 or hex, over GET and POST alike', () => {
    const bodies = [boc(beginCell().storeUint(0, 32).storeStringTail('gm').endCell()), boc(beginCell().storeUint(0xd53276db, 32).storeUint(42, 64).endCell(), 'hex'), boc(beginCell().storeUint(0x12345678, 32).endCell()), boc(beginCell().endCell())];
    const expected = [{ type: 'text_comment', comment: 'gm' }, { type: 'excess', query_id: '42' }, { type: 'unknown', opcode: '0x12345678' }, { '@type': 'empty_cell' }];
    expect(callV3(api, 'decode', { bodies }).bodies).toEqual(expected);
    expect(postV3(api, 'decode', { bodies, opcodes: ['0x595f07bc'] })).toEqual({ opcodes: ['jetton_burn'], bodies: expected });
    expect(getError('decode', { bodies: ['not a boc'] })).toEqual([422, 'failed to parse body: "not a boc" is not a base64 or hex BoC']);
    expect(error(() => postV3(api, 'decode', { opcodes: '0x0' }))).toEqual([422, 'opcodes must be an array of strings']);
  });
});

describe('v2 proxies', () => {
  it('addressInformation and walletInformation read the head state', () => {
    const population = api.view.chain.population;
    const wallet = population.accountAt(population.wallets.find((w) => population.accountAt(w).status === 'active' && population.accountAt(w).lastTx >= 0)!);
    const last = api.view.chain.tx(wallet.lastTx);
    const info = callV3<Row>(api, 'addressInformation', { address: new Address(0, wallet.id).toString() });
    expect(info).toMatchObject({ balance: wallet.balance.toString(), status: 'active', last_transaction_lt: String(last.lt), last_transaction_hash: last.hash, suspended: false });
    expect(Cell.fromBase64(info.code as string).hash().length).toBe(32);
    expect(callV3(api, 'walletInformation', { address: wallet.raw })).toEqual({
      balance: wallet.balance.toString(),
      status: 'active',
      last_transaction_lt: String(last.lt),
      last_transaction_hash: last.hash,
      wallet_type: 'wallet v4 r2',
      seqno: wallet.seqno,
      wallet_id: 698_983_191,
      suspended: false,
    });
    const unknown = '0:' + 'AB'.repeat(32);
    expect(callV3(api, 'addressInformation', { address: unknown })).toEqual({ balance: '0', code: null, data: null, last_transaction_lt: '0', last_transaction_hash: null, frozen_hash: null, status: 'uninitialized', suspended: false });
    expect(callV3(api, 'walletInformation', { address: raw(population.masters[0]!) })).not.toHaveProperty('wallet_type');
    expect(getError('walletInformation')).toEqual([422, 'missing required parameter: address']);
    expect(getError('addressInformation', { address: 'nope' })).toEqual([422, 'failed to parse address: invalid address "nope"']);
  });

  it('POST /message is v2 sendBocReturnHash: a wallet external is accepted and answered with its hash and hash_norm', () => {
    const population = api.view.chain.population;
    const wallet = population.accountAt(population.wallets.find((w) => population.accountAt(w).status === 'active')!);
    const head = api.view.chain.utimes.at(-1)!;
    const signed = (seqno: number): Cell =>
      beginCell().storeBuffer(Buffer.alloc(64)).storeUint(698_983_191, 32).storeUint(head + 60, 32).storeUint(seqno, 32).storeUint(0, 8).endCell();
    const body = signed(wallet.seqno);
    const message = beginCell().store(storeMessage(external({ to: new Address(0, wallet.id), body }))).endCell();
    expect(postV3(api, 'message', { boc: boc(message) })).toEqual({ message_hash: message.hash().toString('base64'), message_hash_norm: normalizedExternalHash(new Address(0, wallet.id), body) });
    // The wallet's checks, as v2 answers them: a wrong seqno is exit code 33.
    const stale = beginCell().store(storeMessage(external({ to: new Address(0, wallet.id), body: signed(wallet.seqno + 5) }))).endCell();
    expect(error(() => postV3(api, 'message', { boc: boc(stale) }))).toEqual([500, 'Exit code 33 != 0']);
    expect(error(() => postV3(api, 'message', {}))).toEqual([422, 'empty boc']);
    expect(error(() => callV3(api, 'message', { boc: boc(message) }))).toEqual([405, 'method not allowed']);
  });

  it('POST /estimateFee is v2 estimateFee without the @type fields', () => {
    const address = raw(api.view.chain.population.wallets.find((w) => api.view.chain.population.accountAt(w).status === 'active')!);
    const fees = postV3<Row>(api, 'estimateFee', { address, body: boc(beginCell().storeUint(0, 32).endCell()) });
    expect(Object.keys(fees.source_fees).sort()).toEqual(['fwd_fee', 'gas_fee', 'in_fwd_fee', 'storage_fee']);
    expect(fees.source_fees.gas_fee).toBe(3_308 * 400);
    expect(fees.destination_fees).toEqual([]);
    expect(error(() => callV3(api, 'estimateFee', { address }))).toEqual([405, 'method not allowed']);
  });

  it('POST /runGetMethod runs a getter with the v3 stack format', () => {
    const population = api.view.chain.population;
    const master = population.accountAt(population.masters[0]!);
    const result = postV3<Row>(api, 'runGetMethod', { address: master.raw, method: 'get_jetton_data', stack: [] });
    expect(result.exit_code).toBe(0);
    expect(result.gas_used).toBeGreaterThan(0);
    expect(result.stack[0]).toEqual({ type: 'num', value: '0x' + master.token!.totalSupply.toString(16) });
    expect(result.stack.map((entry: Row) => entry.type)).toEqual(['num', 'num', 'slice', 'cell', 'cell']);
    expect(result.stack[1]).toEqual({ type: 'num', value: '-0x1' });
    expect(error(() => postV3(api, 'runGetMethod', { address: master.raw, method: 'seqno', stack: [] }))).toEqual([500, 'Exit code 11 != 0']);
    expect(error(() => postV3(api, 'runGetMethod', { address: master.raw, method: 'get_jetton_data', stack: [{ type: 'tuple', value: '' }] }))).toEqual([422, 'unsupported stack entry type "tuple": use num, cell or slice']);
  });
});

describe('pending lists and complaints', () => {
  it('are empty (no mempool, no misbehaving validator) and need a selector', () => {
    const account = raw(api.view.chain.population.wallets[0]!);
    expect(callV3(api, 'pendingTransactions', { account })).toEqual({ transactions: [], address_book: {} });
    expect(callV3(api, 'pendingTraces', { ext_msg_hash: Buffer.alloc(32).toString('hex') })).toEqual({ traces: [], address_book: {}, metadata: {} });
    expect(callV3(api, 'pendingActions', { account })).toEqual({ actions: [], address_book: {}, metadata: {} });
    expect(getError('pendingTransactions')).toEqual([422, 'account or trace_id is required']);
    expect(getError('pendingTraces')).toEqual([422, 'account or ext_msg_hash is required']);
    expect(getError('pendingActions', { ext_msg_hash: 'xyz' })).toEqual([422, 'failed to parse ext_msg_hash: invalid hash "xyz"']);
    expect(callV3(api, 'validators/complaints', { election_id: 1 })).toEqual({ complaints: [], address_book: {} });
    expect(getError('validators/complaints', { limit: 0 })).toEqual([422, 'limit is not allowed: 0 < 1']);
  });
});
