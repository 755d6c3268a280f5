import { readFileSync } from 'node:fs';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { FatalError } from '../../src/core/errors.js';
import { ApiContractError } from '../../src/api/errors.js';
import { enrichmentHeaders, V3Api } from '../../src/api/v3.js';
import { BASE, rejectionOf, testClient } from './helpers.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
});

const example = (name: string): nock.Body =>
  JSON.parse(readFileSync(new URL(`../fixtures/examples/${name}`, import.meta.url), 'utf8')) as nock.Body;

/** Replies `body` and records the raw query string and headers of the request. */
function record(path: string, body: unknown): { query: () => string; headers: () => Record<string, unknown> } {
  let query = '';
  let headers: Record<string, unknown> = {};
  nock(BASE)
    .get(path)
    .query(true)
    .reply(200, function () {
      query = this.req.path.slice(path.length);
      headers = this.req.headers;
      return body;
    });
  return { query: () => query, headers: () => headers };
}

describe('masterchainInfo', () => {
  test('the testnet example: first and last with numbers and bigints', async () => {
    nock(BASE).get('/api/v3/masterchainInfo').reply(200, example('v3-masterchainInfo.testnet.2024-07.cordialsys.json'));
    const info = await new V3Api(testClient()).masterchainInfo();
    expect(info.last).toMatchObject({
      seqno: 21082664,
      start_lt: 23694519000000n,
      end_lt: 23694519000004n,
      gen_utime: 1721068768,
      workchain: -1,
      shard: '8000000000000000',
    });
    expect(info.first).toMatchObject({ seqno: 3, start_lt: 3000000n, end_lt: 3000004n, gen_utime: 1653238862 });
  });

  test('the partial mainnet example (no `first`) still gives `last`', async () => {
    nock(BASE)
      .get('/api/v3/masterchainInfo')
      .reply(200, example('v3-masterchainInfo.mainnet.2025-05.PARTIAL.ton-indexer-issue205.json'));
    const info = await new V3Api(testClient()).masterchainInfo();
    expect(info.first).toBeUndefined();
    expect(info.last).toMatchObject({ seqno: 48297450, end_lt: 57709279000004n, gen_utime: 1748517657 });
  });

  test('a response without `last` is an ApiContractError naming the field', async () => {
    nock(BASE).get('/api/v3/masterchainInfo').reply(200, { first: null });
    const err = await rejectionOf(new V3Api(testClient()).masterchainInfo());
    expect(err).toBeInstanceOf(ApiContractError);
    expect(err.message).toMatch(/^GET \/api\/v3\/masterchainInfo: unexpected response: last: /);
  });
});

describe('lists', () => {
  test('transactions: lt bounds, limit, sort=asc, repeated accounts, never utime', async () => {
    const seen = record('/api/v3/transactions', { transactions: [{ hash: 'h' }], address_book: {} });
    const page = await new V3Api(testClient()).transactions(
      { account: ['0:AA', '0:BB'], start_lt: 93307000000009n, end_lt: 2n ** 63n },
      { addressBook: false },
    );
    expect(page.transactions).toEqual([{ hash: 'h' }]);
    expect(seen.query()).toBe(
      '?start_lt=93307000000009&end_lt=9223372036854775808&limit=1000&sort=asc&account=0%3AAA&account=0%3ABB',
    );
    expect(seen.query()).not.toMatch(/utime/);
    expect(seen.headers()['x-no-address-book']).toBe('true');
    expect(seen.headers()['x-no-metadata']).toBeUndefined();
  });

  test('actions: pinned types repeated, include_accounts on by default', async () => {
    const seen = record('/api/v3/actions', { actions: [], address_book: {}, metadata: {} });
    await new V3Api(testClient()).actions(
      { start_lt: 1n, end_lt: 2n, limit: 500, supported_action_types: ['v5', 'jettons'], trace_id: ['t+/='] },
      { metadata: false },
    );
    expect(seen.query()).toBe(
      '?start_lt=1&end_lt=2&limit=500&sort=asc&supported_action_types=v5&supported_action_types=jettons' +
        '&trace_id=t%2B%2F%3D&include_accounts=true',
    );
    expect(seen.headers()['x-no-metadata']).toBe('true');
  });

  test('jetton transfers: single master, offset only when asked', async () => {
    const seen = record('/api/v3/jetton/transfers', { jetton_transfers: [] });
    await new V3Api(testClient()).jettonTransfers({ start_lt: 5n, end_lt: 5n, offset: 1000, jetton_master: '0:CC' });
    expect(seen.query()).toBe('?start_lt=5&end_lt=5&limit=1000&offset=1000&sort=asc&jetton_master=0%3ACC');
  });

  test('validator events: utime window, no lt', async () => {
    const seen = record('/api/v3/validators/events', { events: [], address_book: {} });
    await new V3Api(testClient()).validatorEvents({ start_utime: 1700000000, end_utime: 1700003600, type: 'stake_accepted' });
    expect(seen.query()).toBe('?start_utime=1700000000&end_utime=1700003600&type=stake_accepted&limit=1000&sort=asc');
  });

  test('a page without its items array is an ApiContractError', async () => {
    nock(BASE).get('/api/v3/transactions').query(true).reply(200, { error: 'nope' });
    const err = await rejectionOf(new V3Api(testClient()).transactions({ start_lt: 1n, end_lt: 2n }));
    expect(err).toBeInstanceOf(ApiContractError);
    expect(err.message).toBe('GET /api/v3/transactions: expected an object with a "transactions" array, got {"error":"nope"}');
  });

  test.each([
    ['limit above the maximum', { start_lt: 1n, end_lt: 2n, limit: 1001 }, 'Expected limit to be an integer from 1 to 1000, got 1001'],
    ['limit zero', { start_lt: 1n, end_lt: 2n, limit: 0 }, 'Expected limit to be an integer from 1 to 1000, got 0'],
    ['inverted lt bounds', { start_lt: 3n, end_lt: 2n }, 'Expected start_lt ≤ end_lt, got 3 > 2'],
  ])('bad paging (%s) fails before any request', async (_name, params, message) => {
    const client = testClient();
    const err = await rejectionOf(new V3Api(client).transactions(params));
    expect(err).toBeInstanceOf(FatalError);
    expect(err.message).toBe(message);
    expect(client.stats.requests).toBe(0);
  });
});

test('enrichmentHeaders only switches off what is asked', () => {
  expect(enrichmentHeaders({})).toEqual({});
  expect(enrichmentHeaders({ addressBook: false, metadata: false })).toEqual({
    'X-No-Address-Book': 'true',
    'X-No-Metadata': 'true',
  });
  expect(enrichmentHeaders({ addressBook: true, metadata: false })).toEqual({ 'X-No-Metadata': 'true' });
});
