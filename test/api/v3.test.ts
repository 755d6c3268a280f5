import { readFileSync } from 'node:fs';
import nock from 'nock';
import { afterEach, describe, expect, test } from 'vitest';
import { FatalError } from '../../src/core/errors.js';
import { ApiContractError, ErrorBodyError } from '../../src/api/errors.js';
import { enrichmentHeaders, V3Api } from '../../src/api/v3.js';
import type { PageRequest, StreamDefinition } from '../../src/core/stream.js';
import { pageReader } from '../../src/extract/page-reader.js';
import { actionsStream } from '../../src/streams/actions.js';
import { jettonTransfersStream } from '../../src/streams/jetton-transfers.js';
import { transactionsStream } from '../../src/streams/transactions.js';
import { validatorEventsStream } from '../../src/streams/validator-events.js';
import { BASE, rejectionOf, testClient, useNock } from './helpers.js';

useNock();
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

describe('masterchain blocks', () => {
  test('/blocks goes with the masterchain workchain and shard first, and parses with the masterchainInfo block schema', async () => {
    const info = example('v3-masterchainInfo.testnet.2024-07.cordialsys.json') as { last: Record<string, unknown> };
    const seen = record('/api/v3/blocks', { blocks: [info.last] });
    const blocks = await new V3Api(testClient()).masterchainBlocks({ end_lt: 23694519000000n, sort: 'desc', limit: 3 });
    expect(seen.query()).toBe('?workchain=-1&shard=8000000000000000&end_lt=23694519000000&sort=desc&limit=3');
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toMatchObject({ seqno: 21082664, start_lt: 23694519000000n, end_lt: 23694519000004n, gen_utime: 1721068768 });
  });

  test('a malformed /blocks answer is an ApiContractError naming the field, as for /masterchainInfo', async () => {
    nock(BASE).get('/api/v3/blocks').query(true).reply(200, { blocks: [{ seqno: 1, start_lt: 'x' }] });
    const err = await rejectionOf(new V3Api(testClient()).masterchainBlocks({ seqno: 1, limit: 1 }));
    expect(err).toBeInstanceOf(ApiContractError);
    expect(err.message).toMatch(/^GET \/api\/v3\/blocks: unexpected response: blocks\.0\.workchain: /);
    expect((err as ApiContractError).endpoint).toBe('/api/v3/blocks');
  });
});

describe('list', () => {
  test('repeated list values, URL-encoding, headers switched off, the page as sent', async () => {
    const seen = record('/api/v3/actions', { actions: [{ action_id: 'a' }], address_book: {}, metadata: {} });
    const page = await new V3Api(testClient()).list(
      '/api/v3/actions',
      'actions',
      { start_lt: 1n, end_lt: 2n, supported_action_types: ['v5', 'jettons'], trace_id: ['t+/='], account: undefined },
      { metadata: false, addressBook: false },
    );
    expect(page.actions).toEqual([{ action_id: 'a' }]);
    expect(seen.query()).toBe('?start_lt=1&end_lt=2&supported_action_types=v5&supported_action_types=jettons&trace_id=t%2B%2F%3D');
    expect(seen.headers()['x-no-metadata']).toBe('true');
    expect(seen.headers()['x-no-address-book']).toBe('true');
  });

  test('a page without its items array is an ApiContractError', async () => {
    nock(BASE).get('/api/v3/transactions').query(true).reply(200, { trasnactions: [] });
    const err = await rejectionOf(new V3Api(testClient()).list('/api/v3/transactions', 'transactions', {}));
    expect(err).toBeInstanceOf(ApiContractError);
    expect(err.message).toBe('GET /api/v3/transactions: expected an object with a "transactions" array, got {"trasnactions":[]}');
  });

  test('a success body carrying "error" is an ErrorBodyError, retried like a 5xx, never an empty page', async () => {
    nock(BASE).get('/api/v3/transactions').query(true).times(2).reply(200, { transactions: [], error: 'nope' });
    nock(BASE).get('/api/v3/transactions').query(true).reply(200, { transactions: [{ hash: 'h' }] });
    const page = await new V3Api(testClient({ maxRetries: 2 })).list('/api/v3/transactions', 'transactions', {});
    expect(page.transactions).toEqual([{ hash: 'h' }]);
    nock(BASE).get('/api/v3/transactions').query(true).reply(200, { transactions: [], error: 'nope' });
    const err = await rejectionOf(new V3Api(testClient({ maxRetries: 0 })).list('/api/v3/transactions', 'transactions', {}));
    expect((err as Error).cause).toBeInstanceOf(ErrorBodyError);
    expect(err.message).toBe('GET /api/v3/transactions failed after 1 attempt: HTTP 200 carrying an error: {"error":"nope"}');
  });
});

/** The query strings and headers each stream's page request sends, byte for byte. */
describe('stream requests', () => {
  const page: PageRequest = { from: 93307000000009n, to: 2n ** 63n, limit: 1000, offset: 0 };

  async function sent<Filters>(stream: StreamDefinition<unknown, Filters>, filters: Filters, request: PageRequest = page) {
    const seen = record(stream.endpoint, { [stream.itemsKey]: [] });
    await pageReader(stream as StreamDefinition, new V3Api(testClient()), filters)(request);
    return { query: seen.query(), metadata: seen.headers()['x-no-metadata'], addressBook: seen.headers()['x-no-address-book'] };
  }

  test('transactions: lt bounds, limit, offset, sort=asc, repeated accounts, never utime', async () => {
    expect(await sent(transactionsStream, { accounts: ['0:AA', '0:BB'] })).toEqual({
      query: '?start_lt=93307000000009&end_lt=9223372036854775808&limit=1000&offset=0&sort=asc&account=0%3AAA&account=0%3ABB',
      metadata: undefined,
      addressBook: undefined,
    });
    expect((await sent(transactionsStream, {})).query).toBe('?start_lt=93307000000009&end_lt=9223372036854775808&limit=1000&offset=0&sort=asc');
  });

  test('actions: pinned types, the type filter repeated, accounts included, metadata off', async () => {
    expect(await sent(actionsStream, { action_types: ['jetton_transfer', 'ton_transfer'] }, { ...page, offset: 1000 })).toEqual({
      query:
        '?start_lt=93307000000009&end_lt=9223372036854775808&limit=1000&offset=1000&sort=asc&supported_action_types=latest' +
        '&action_type=jetton_transfer&action_type=ton_transfer&include_accounts=true',
      metadata: 'true',
      addressBook: undefined,
    });
  });

  test('jetton transfers: owners, then the single master; metadata off', async () => {
    expect(await sent(jettonTransfersStream, { jetton_master: '0:CC', owner_addresses: ['0:DD'] }, { ...page, from: 5n, to: 5n, limit: 7 })).toEqual({
      query: '?start_lt=5&end_lt=5&limit=7&offset=0&sort=asc&owner_address=0%3ADD&jetton_master=0%3ACC',
      metadata: 'true',
      addressBook: undefined,
    });
  });

  test('validator events: a utime window, the stake holder, offset only inside a crowded second', async () => {
    const window: PageRequest = { from: 1700000000n, to: 1700003600n, limit: 1000, offset: 0 };
    expect(await sent(validatorEventsStream, { stake_holder: '-1:DD' }, window)).toEqual({
      query: '?start_utime=1700000000&end_utime=1700003600&stake_holder_address=-1%3ADD&limit=1000&sort=asc',
      metadata: undefined,
      addressBook: undefined,
    });
    expect((await sent(validatorEventsStream, {}, { ...window, offset: 1000 })).query).toBe('?start_utime=1700000000&end_utime=1700003600&limit=1000&offset=1000&sort=asc');
  });

  test.each([
    ['limit above the maximum', { ...page, limit: 1001 }, 'Expected limit to be an integer from 1 to 1000, got 1001'],
    ['limit zero', { ...page, limit: 0 }, 'Expected limit to be an integer from 1 to 1000, got 0'],
    ['inverted lt bounds', { ...page, from: 3n, to: 2n }, 'Expected start_lt ≤ end_lt, got 3 > 2'],
  ])('bad paging (%s) fails before any request', async (_name, request, message) => {
    const client = testClient();
    const err = await rejectionOf(pageReader(transactionsStream as StreamDefinition, new V3Api(client), {})(request));
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
