import { beforeAll, describe, expect, it } from 'vitest';
import { Address } from '@ton/core';
import { buildDevnetApi } from '../../../src/devnet/index.js';
import type { Account } from '../../../src/devnet/chain/model.js';
import { callV3 } from '../../support/devnet-routes.js';
import { apiErrorOf } from '../../support/api-error.js';
import type { Query } from '../../support/http.js';

type Row = Record<string, unknown>;

let api: ReturnType<typeof buildDevnetApi>;
const get = <T = Row>(endpoint: string, query: Query = {}): T => callV3<T>(api, endpoint, query);

beforeAll(() => {
  api = buildDevnetApi({ seed: 7, blocks: 400 });
});

const accountOf = (predicate: (a: Account) => boolean): Account => api.view.chain.population.accounts.find(predicate)!;
const friendly = (a: Account, bounceable: boolean): string => new Address(a.workchain, a.id).toString({ urlSafe: true, bounceable });
/** A valid address no account of the chain has. */
const UNKNOWN = `0:${'AB'.repeat(32)}`;

describe('GET /addressBook', () => {
  it('keys entries by the address as sent, in any form', () => {
    const wallet = accountOf((a) => a.kind === 'wallet' && a.status === 'active');
    const master = accountOf((a) => a.kind === 'jetton_master');
    const asSent = [friendly(wallet, true), master.raw.toLowerCase(), UNKNOWN];
    const book = get('addressBook', { address: asSent });
    expect(Object.keys(book)).toEqual(asSent);
    expect(book[asSent[0]!]).toEqual({ user_friendly: friendly(wallet, false), domain: null, interfaces: ['wallet_v4r2'] });
    expect(book[asSent[1]!]).toEqual({ user_friendly: friendly(master, true), domain: null, interfaces: ['jetton_master'] });
    expect(book[UNKNOWN]).toEqual({ user_friendly: Address.parse(UNKNOWN).toString({ urlSafe: true, bounceable: false }), domain: null, interfaces: [] });
  });

  it('requires address (at most 1024) and rejects an invalid one naming the parameter', () => {
    expect(apiErrorOf(() => get('addressBook'))).toMatchObject({ status: 422, message: 'missing required parameter: address' });
    expect(apiErrorOf(() => get('addressBook', { address: 'nope' })).message).toMatch(/^failed to parse address/);
    const many = Array.from({ length: 1025 }, () => UNKNOWN);
    expect(apiErrorOf(() => get('addressBook', { address: many })).status).toBe(422);
    expect(Object.keys(get('addressBook', { address: many.slice(1) }))).toEqual([UNKNOWN]);
  });
});

describe('GET /metadata', () => {
  it('keys token info by the address as sent, only for accounts that have it', () => {
    const master = accountOf((a) => a.kind === 'jetton_master');
    const wallet = accountOf((a) => a.kind === 'wallet' && a.status === 'active');
    const sent = friendly(master, false);
    const body = get('metadata', { address: [sent, wallet.raw, UNKNOWN] });
    expect(Object.keys(body)).toEqual([sent]);
    expect(body[sent]).toMatchObject({ is_indexed: true, token_info: [{ type: 'jetton_masters', symbol: master.token!.symbol }] });
  });
});

describe('GET /walletStates', () => {
  it('returns wallet fields for wallets, is_wallet false otherwise, and omits unknown addresses', () => {
    const wallet = accountOf((a) => a.kind === 'wallet' && a.status === 'active' && a.seqno > 0);
    const validator = accountOf((a) => a.kind === 'validator_wallet');
    const master = accountOf((a) => a.kind === 'jetton_master');
    const body = get<{ wallets: Row[]; address_book: Row; metadata: Row }>('walletStates', { address: [friendly(wallet, true), validator.raw, master.raw, UNKNOWN] });
    expect(body.wallets.map((w) => w.address)).toEqual([wallet.raw, validator.raw, master.raw]);
    expect(body.wallets[0]).toMatchObject({ is_wallet: true, wallet_type: 'wallet v4 r2', seqno: wallet.seqno, wallet_id: 698_983_191, status: 'active', balance: wallet.balance.toString() });
    expect(body.wallets[1]).toMatchObject({ is_wallet: true, wallet_type: 'wallet v3 r2' });
    expect(body.wallets[2]).toMatchObject({ is_wallet: false, status: 'active' });
    expect(body.wallets[2]).not.toHaveProperty('wallet_type');
    expect(Object.keys(body.address_book).sort()).toEqual([wallet.raw, validator.raw, master.raw].sort());
    expect(Object.keys(body.metadata)).toEqual([master.raw]);
    expect(apiErrorOf(() => get('walletStates')).message).toBe('missing required parameter: address');
  });
});

describe('GET /accountStates', () => {
  it('returns the latest state of each existing account', () => {
    const wallet = accountOf((a) => a.kind === 'wallet' && a.lastTx >= 0);
    const last = api.view.chain.tx(wallet.lastTx);
    const body = get<{ accounts: Row[] }>('accountStates', { address: [wallet.raw, UNKNOWN] });
    expect(body.accounts).toHaveLength(1);
    expect(body.accounts[0]).toMatchObject({
      address: wallet.raw,
      account_state_hash: last.stateHashAfter,
      balance: wallet.balance.toString(),
      status: wallet.status,
      last_transaction_hash: last.hash,
      last_transaction_lt: String(last.lt),
    });
  });
});

describe('GET /topAccountsByBalance', () => {
  it('is a bare array of {account, balance}, balance desc, over existing accounts', () => {
    const rows = get<{ account: string; balance: string }[]>('topAccountsByBalance', { limit: 50 });
    expect(rows).toHaveLength(50);
    const balances = rows.map((r) => BigInt(r.balance));
    expect(balances.every((b, i) => i === 0 || balances[i - 1]! >= b)).toBe(true);
    const richest = [...api.view.chain.population.accounts].filter((a) => a.status !== 'nonexist').sort((a, b) => (a.balance > b.balance ? -1 : a.balance < b.balance ? 1 : 0));
    expect(balances[0]).toBe(richest[0]!.balance);
    expect(get<unknown[]>('topAccountsByBalance')).toHaveLength(10);
    expect(get<{ account: string }[]>('topAccountsByBalance', { limit: 5, offset: 5 }).map((r) => BigInt(richest.find((a) => a.raw === r.account)!.balance))).toEqual(balances.slice(5, 10));
    expect(get<unknown[]>('topAccountsByBalance', { limit: 1024 }).length).toBeGreaterThan(1000);
    expect(apiErrorOf(() => get('topAccountsByBalance', { limit: 1025 })).message).toBe('limit is not allowed: 1025 > 1024');
  });
});
