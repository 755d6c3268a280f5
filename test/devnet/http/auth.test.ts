import { describe, expect, it } from 'vitest';
import { getJson, MAINNET_KEY, MAINNET_KEY_2, postJson, startServer, TESTNET_KEY } from './helpers.js';

const v2Failure = (code: number, error: string) => ({ ok: false, code, error });
const v3Failure = (code: number, error: string) => ({ code, error });

describe('authentication and limits', () => {
  it('lets one keyless request per second through, then answers 429 on v3', async () => {
    const s = await startServer();
    expect((await getJson(`${s.url}/api/v3/transactions`)).status).toBe(200);
    expect(await getJson(`${s.url}/api/v3/transactions`)).toMatchObject({
      status: 429,
      body: v3Failure(429, 'Ratelimit exceeded'),
    });
    s.clock.advance(1000);
    expect((await getJson(`${s.url}/api/v3/transactions`)).status).toBe(200);
  });

  it('answers the second keyless request within a second with the v2 envelope', async () => {
    const s = await startServer();
    expect((await getJson(`${s.url}/api/v2/getMasterchainInfo`)).status).toBe(200);
    s.clock.advance(999);
    expect(await getJson(`${s.url}/api/v2/getMasterchainInfo`)).toMatchObject({
      status: 429,
      body: v2Failure(429, 'Ratelimit exceeded'),
    });
  });

  it('shares the keyless budget between v2 and v3 and honours freeRps', async () => {
    const s = await startServer({ freeRps: 2 });
    expect((await getJson(`${s.url}/api/v2/getMasterchainInfo`)).status).toBe(200);
    expect((await getJson(`${s.url}/api/v3/transactions`)).status).toBe(200);
    expect((await getJson(`${s.url}/api/v3/transactions`)).status).toBe(429);
  });

  it('accepts the key in the X-API-Key header and in the api_key query, on both versions', async () => {
    const s = await startServer();
    const header = { headers: { 'X-API-Key': MAINNET_KEY } };
    for (let i = 0; i < 3; i++) {
      expect((await getJson(`${s.url}/api/v3/transactions`, header)).status).toBe(200);
      expect((await getJson(`${s.url}/api/v2/getMasterchainInfo?api_key=${MAINNET_KEY_2}`)).status).toBe(200);
    }
    expect((await getJson(`${s.url}/api/v3/transactions?api_key=${MAINNET_KEY}`)).status).toBe(200);
    expect((await getJson(`${s.url}/api/v2/getMasterchainInfo`, header)).status).toBe(200);
  });

  it('hides the api_key parameter from handlers and from the request hook', async () => {
    const s = await startServer();
    const { body } = await getJson(`${s.url}/api/v3/echo?api_key=${MAINNET_KEY}&seqno=1`);
    expect(body).toMatchObject({ query: { seqno: ['1'] } });
    expect(JSON.stringify(s.requests)).not.toContain(MAINNET_KEY);
    expect(s.requests).toEqual([{ method: 'GET', path: '/api/v3/echo', status: 200, ms: expect.any(Number), fault: undefined, faults: [], answer: 1 }]);
  });

  it('numbers its answers in X-Devnet-Answer as the request hook does, refusals too', async () => {
    const s = await startServer();
    const answers = [await getJson(`${s.url}/api/v3/echo?api_key=${MAINNET_KEY}`), await getJson(`${s.url}/api/v3/echo?api_key=${TESTNET_KEY}`)];
    expect(answers.map(({ status, headers }) => [status, headers.get('x-devnet-answer')])).toEqual([
      [200, '1'],
      [403, '2'],
    ]);
    expect(s.requests.map(({ answer }) => answer)).toEqual([1, 2]);
  });

  it('rejects a key of the other network with 403 Network not allowed', async () => {
    const main = await startServer();
    expect(await getJson(`${main.url}/api/v3/transactions`, { headers: { 'X-API-Key': TESTNET_KEY } })).toMatchObject({
      status: 403,
      body: v3Failure(403, 'Network not allowed'),
    });
    expect(await getJson(`${main.url}/api/v2/getMasterchainInfo?api_key=${TESTNET_KEY}`)).toMatchObject({
      status: 403,
      body: v2Failure(403, 'Network not allowed'),
    });
    const test = await startServer({ network: 'testnet' });
    expect(await getJson(`${test.url}/api/v3/transactions?api_key=${MAINNET_KEY}`)).toMatchObject({
      status: 403,
      body: v3Failure(403, 'Network not allowed'),
    });
    expect((await getJson(`${test.url}/api/v3/transactions?api_key=${TESTNET_KEY}`)).status).toBe(200);
  });

  it('rejects an unknown key with 401 API key does not exist', async () => {
    const s = await startServer();
    expect(await getJson(`${s.url}/api/v3/transactions`, { headers: { 'X-API-Key': 'nope' } })).toMatchObject({
      status: 401,
      body: v3Failure(401, 'API key does not exist'),
    });
    expect(await getJson(`${s.url}/api/v2/getMasterchainInfo?api_key=nope`)).toMatchObject({
      status: 401,
      body: v2Failure(401, 'API key does not exist'),
    });
  });

  it('applies the same rules to JSON-RPC', async () => {
    const s = await startServer();
    const call = { jsonrpc: '2.0', id: '1', method: 'getMasterchainInfo', params: {} };
    const res = await postJson(`${s.url}/api/v2/jsonRPC`, call, { 'X-API-Key': 'nope' });
    expect([res.status, await res.json()]).toEqual([401, v2Failure(401, 'API key does not exist')]);
    const other = await postJson(`${s.url}/api/v2/jsonRPC?api_key=${TESTNET_KEY}`, call);
    expect([other.status, await other.json()]).toEqual([403, v2Failure(403, 'Network not allowed')]);
  });

  it('limits each key to keyRps with 429 Ratelimit exceeded, independently of other keys', async () => {
    const s = await startServer({ keyRps: 5 });
    const header = (key: string) => ({ headers: { 'X-API-Key': key } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await getJson(`${s.url}/api/v3/transactions`, header(MAINNET_KEY))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await getJson(`${s.url}/api/v2/getMasterchainInfo`, header(MAINNET_KEY))).toMatchObject({
      status: 429,
      body: v2Failure(429, 'Ratelimit exceeded'),
    });
    expect((await getJson(`${s.url}/api/v3/transactions`, header(MAINNET_KEY_2))).status).toBe(200);
    expect((await getJson(`${s.url}/api/v3/transactions`)).status).toBe(200);
    s.clock.advance(200);
    expect((await getJson(`${s.url}/api/v3/transactions`, header(MAINNET_KEY))).status).toBe(200);
  });

  it('never answers 429 to a keyed client sending exactly at keyRps', async () => {
    const s = await startServer({ keyRps: 10 });
    const statuses = new Set<number>();
    for (let i = 0; i < 30; i++) {
      statuses.add((await getJson(`${s.url}/api/v3/transactions?api_key=${MAINNET_KEY}`)).status);
      s.clock.advance(100);
    }
    expect([...statuses]).toEqual([200]);
  });
});
