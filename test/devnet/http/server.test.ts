import { describe, expect, it } from 'vitest';
import { getJson, MAINNET_KEY, MASTERCHAIN_INFO, postJson, startServer, TRANSACTIONS } from './helpers.js';

const key = { 'X-API-Key': MAINNET_KEY };
const auth = { headers: key };

describe('devnet HTTP server', () => {
  it('binds 127.0.0.1 on a random port', async () => {
    const s = await startServer();
    expect(s.url).toBe(`http://127.0.0.1:${s.port}`);
    expect(s.port).toBeGreaterThan(0);
  });

  it('wraps v2 results in {ok, result, @extra} and sends JSON with X-API-Version', async () => {
    const s = await startServer();
    const { status, body, headers } = await getJson(`${s.url}/api/v2/getMasterchainInfo`, auth);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/json');
    expect(headers.get('x-api-version')).toBe('1.2.8-devnet');
    expect(body).toEqual({ ok: true, result: MASTERCHAIN_INFO, '@extra': '1763745600.000:0:1' });
  });

  it('sends the v3 payload as the body', async () => {
    const s = await startServer();
    const { status, body } = await getJson(`${s.url}/api/v3/transactions?limit=1000&offset=5&sort=a`, auth);
    expect(status).toBe(200);
    expect(body).toEqual({
      transactions: TRANSACTIONS,
      address_book: {},
      paging: { limit: 1000, offset: 5, sort: 'asc' },
    });
  });

  it('routes multi-segment v3 endpoints and ignores a trailing slash', async () => {
    const s = await startServer();
    for (const path of ['/api/v3/jetton/transfers', '/api/v3/jetton/transfers/']) {
      expect(await getJson(`${s.url}${path}`, auth)).toMatchObject({ status: 200, body: { jetton_transfers: [] } });
    }
  });

  it('exposes the fields of a v2 POST JSON body through the query and the body', async () => {
    const s = await startServer();
    const res = await postJson(`${s.url}/api/v2/echo?seqno=3`, { address: 'EQA', libraries: ['l1', 'l2'] }, key);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: unknown }).result).toEqual({
      method: 'POST',
      version: 'v2',
      endpoint: 'echo',
      query: { seqno: ['3'], address: ['EQA'], libraries: ['l1', 'l2'] },
      body: { address: 'EQA', libraries: ['l1', 'l2'] },
    });
  });

  it('keeps v3 POST bodies out of the query', async () => {
    const s = await startServer();
    const res = await postJson(`${s.url}/api/v3/echo?x=1`, { address: 'EQA' }, key);
    expect(await res.json()).toEqual({
      method: 'POST',
      version: 'v3',
      endpoint: 'echo',
      query: { x: ['1'] },
      body: { address: 'EQA' },
    });
  });

  it('answers an invalid JSON body with 422', async () => {
    const s = await startServer();
    const res = await fetch(`${s.url}/api/v2/echo`, { method: 'POST', headers: key, body: '{"a":' });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ ok: false, code: 422, error: expect.stringMatching(/^failed to parse JSON body: /) });
  });

  describe('JSON-RPC', () => {
    it('dispatches to the named v2 method with params as the query and echoes the id', async () => {
      const s = await startServer();
      const call = { jsonrpc: '2.0', id: 'req-7', method: 'getBlockTransactions', params: { workchain: -1, seqno: 57442406 } };
      const res = await postJson(`${s.url}/api/v2/jsonRPC`, call, key);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        ok: true,
        result: { workchain: -1, seqno: 57442406, count: 40 },
        '@extra': '1763745600.000:0:1',
        jsonrpc: '2.0',
        id: 'req-7',
      });
    });

    it('echoes a numeric id and passes params as the body', async () => {
      const s = await startServer();
      const res = await postJson(`${s.url}/api/v2/jsonRPC`, { jsonrpc: '2.0', id: 3, method: 'echo', params: { a: [1, 2] } }, key);
      expect(await res.json()).toMatchObject({
        ok: true,
        result: { endpoint: 'echo', query: { a: ['1', '2'] }, body: { a: [1, 2] } },
        jsonrpc: '2.0',
        id: 3,
      });
    });

    it('answers failures with the v2 failure envelope plus jsonrpc and id', async () => {
      const s = await startServer();
      const rpc = (body: unknown) => postJson(`${s.url}/api/v2/jsonRPC`, body, key);
      const bad = await rpc({ jsonrpc: '2.0', id: '1', method: 'getBlockTransactions', params: { workchain: 'x', seqno: 1 } });
      expect([bad.status, await bad.json()]).toEqual([
        422,
        { ok: false, code: 422, error: 'failed to parse workchain: strconv.ParseInt: parsing "x": invalid syntax', jsonrpc: '2.0', id: '1' },
      ]);
      const noParams = await rpc({ jsonrpc: '2.0', id: '2', method: 'echo', params: [1] });
      expect([noParams.status, await noParams.json()]).toEqual([
        422,
        { ok: false, code: 422, error: 'params must contain an object', jsonrpc: '2.0', id: '2' },
      ]);
      const unknown = await rpc({ jsonrpc: '2.0', id: '3', method: 'sendBoc', params: {} });
      expect([unknown.status, await unknown.json()]).toEqual([
        404,
        { ok: false, code: 404, error: 'not found', jsonrpc: '2.0', id: '3' },
      ]);
    });

    it('only accepts POST', async () => {
      const s = await startServer();
      expect(await getJson(`${s.url}/api/v2/jsonRPC`, auth)).toMatchObject({
        status: 405,
        body: { ok: false, code: 405, error: 'method not allowed' },
      });
    });
  });

  it('answers unknown paths with 404 in the envelope of the version', async () => {
    const s = await startServer();
    expect(await getJson(`${s.url}/api/v3/nope`, auth)).toEqual(expect.objectContaining({ status: 404, body: { code: 404, error: 'not found' } }));
    expect(await getJson(`${s.url}/api/v2/nope`, auth)).toMatchObject({ status: 404, body: { ok: false, code: 404, error: 'not found' } });
    expect(await getJson(`${s.url}/api/v3/constructor`, auth)).toMatchObject({ status: 404 });
    expect(await getJson(`${s.url}/index.html`, auth)).toMatchObject({ status: 404, body: { code: 404, error: 'not found' } });
    expect(await getJson(`${s.url}/api/v4/transactions`, auth)).toMatchObject({ status: 404 });
  });

  it('renders handler ApiErrors with their status and other handler errors as 500', async () => {
    const s = await startServer();
    expect(await getJson(`${s.url}/api/v3/conflict`, auth)).toMatchObject({
      status: 409,
      body: { code: 409, error: 'Smart contract is not Jetton or NFT' },
    });
    expect(await getJson(`${s.url}/api/v3/bug`, auth)).toMatchObject({
      status: 500,
      body: { code: 500, error: 'internal error: handler bug' },
    });
    expect(await getJson(`${s.url}/api/v3/bigint`, auth)).toMatchObject({
      status: 500,
      body: { code: 500, error: 'internal error: Do not know how to serialize a BigInt' },
    });
    expect(await getJson(`${s.url}/api/v3/nothing`, auth)).toMatchObject({
      status: 500,
      body: { code: 500, error: 'internal error: handler of nothing returned no JSON value' },
    });
  });

  it('answers methods other than GET and POST with 405', async () => {
    const s = await startServer();
    expect(await getJson(`${s.url}/api/v3/transactions`, { method: 'DELETE', headers: key })).toMatchObject({
      status: 405,
      body: { code: 405, error: 'method not allowed' },
    });
  });

  it('reports each request to the hook', async () => {
    const s = await startServer();
    await getJson(`${s.url}/api/v3/transactions`, auth);
    await getJson(`${s.url}/api/v3/nope`, auth);
    expect(s.requests.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: 'GET', path: '/api/v3/transactions', status: 200 },
      { method: 'GET', path: '/api/v3/nope', status: 404 },
    ]);
  });

  it('closes while a client holds a keep-alive connection', async () => {
    const s = await startServer();
    await getJson(`${s.url}/api/v3/transactions`, auth);
    await s.close();
    await expect(fetch(`${s.url}/api/v3/transactions`, auth)).rejects.toThrow();
  });
});
