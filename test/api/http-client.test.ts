import nock from 'nock';
import { afterEach, describe, expect, test } from 'vitest';
import { FatalError, RetryableError } from '../../src/core/errors.js';
import type { ApiClient } from '../../src/api/http-client.js';
import {
  ApiNetworkError,
  ApiRequestError,
  ApiServerError,
  ApiTimeoutError,
  AuthError,
  InvalidBodyError,
  RateLimitedError,
  RetriesExhaustedError,
  UrlTooLongError,
} from '../../src/api/errors.js';
import { BASE, captureLogs, rejectionOf, SECRET, testClient, useNock } from './helpers.js';

useNock();
afterEach(() => {
  nock.cleanAll();
});

describe('request shape', () => {
  test('lists go as repeated keys, undefined is omitted, bigint and boolean as text', async () => {
    const scope = nock(BASE)
      .get('/api/v3/transactions')
      .query((q) => {
        expect(q).toEqual({ account: ['0:AA', '0:BB'], start_lt: '18446744073709551615', include: 'true', limit: '1000' });
        return true;
      })
      .reply(200, { transactions: [] });
    const body = await testClient().get('/api/v3/transactions', {
      account: ['0:AA', '0:BB'],
      start_lt: 2n ** 64n - 1n,
      include: true,
      limit: 1000,
      offset: undefined,
    });
    expect(body).toEqual({ transactions: [] });
    expect(scope.isDone()).toBe(true);
  });

  test('the wire query string repeats the key', async () => {
    let seen = '';
    nock(BASE)
      .get(/.*/)
      .reply(200, function () {
        seen = this.req.path;
        return {};
      });
    await testClient().get('/api/v3/transactions', { account: ['A', 'B'], limit: 2 });
    expect(seen).toBe('/api/v3/transactions?account=A&account=B&limit=2');
  });

  test('the API key goes in X-API-Key only, never in the URL', async () => {
    let path = '';
    nock(BASE, { reqheaders: { 'x-api-key': SECRET } })
      .get(/.*/)
      .reply(200, function () {
        path = this.req.path;
        return {};
      });
    await testClient({ apiKey: SECRET }).get('/api/v3/masterchainInfo', {});
    expect(path).toBe('/api/v3/masterchainInfo');
    expect(path).not.toContain('api_key');
  });

  test('caller headers are sent but cannot replace the key', async () => {
    nock(BASE, { reqheaders: { 'x-api-key': SECRET, 'x-no-metadata': 'true' } })
      .get('/x')
      .reply(200, {});
    await testClient({ apiKey: SECRET }).get('/x', {}, { headers: { 'X-No-Metadata': 'true', 'X-API-Key': 'other' } });
  });

  test('without a key no X-API-Key header is sent', async () => {
    nock(BASE, { badheaders: ['x-api-key'] })
      .get('/x')
      .reply(200, {});
    await testClient({ apiKey: '' }).get('/x', {});
  });
});

describe('retries', () => {
  test.each([500, 502, 503, 504, 408])('HTTP %i is retried, then the success is returned', async (status) => {
    nock(BASE).get('/x').times(2).reply(status, { error: 'try later' }).get('/x').reply(200, { ok: 1 });
    const client = testClient();
    await expect(client.get('/x', {})).resolves.toEqual({ ok: 1 });
    expect(client.stats).toMatchObject({ requests: 3, retries: 2, rateLimited: 0 });
  });

  test('a connection reset is retried', async () => {
    nock(BASE)
      .get('/x')
      .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
      .get('/x')
      .reply(200, { ok: 1 });
    const client = testClient();
    await expect(client.get('/x', {})).resolves.toEqual({ ok: 1 });
    expect(client.stats).toMatchObject({ requests: 2, retries: 1 });
  });

  test('a response slower than the timeout is retried', async () => {
    nock(BASE).get('/x').delay(10_000).reply(200, { late: true }).get('/x').reply(200, { ok: 1 });
    // Room for the second answer on a loaded machine: 50 ms timed it out too.
    const client = testClient({ timeoutMs: 1_000 });
    await expect(client.get('/x', {})).resolves.toEqual({ ok: 1 });
    expect(client.stats).toMatchObject({ requests: 2, retries: 1 });
  });

  test('a body that stalls past the timeout is retried', async () => {
    nock(BASE).get('/x').delayBody(10_000).reply(200, { late: true }).get('/x').reply(200, { ok: 1 });
    const client = testClient({ timeoutMs: 1_000 });
    await expect(client.get('/x', {})).resolves.toEqual({ ok: 1 });
    expect(client.stats.retries).toBe(1);
  });

  test('a body shorter than its Content-Length is retried', async () => {
    nock(BASE)
      .get('/x')
      .reply(200, '{"transactions":[', { 'Content-Length': '4000', 'Content-Type': 'application/json' })
      .get('/x')
      .reply(200, { ok: 1 });
    const client = testClient();
    await expect(client.get('/x', {})).resolves.toEqual({ ok: 1 });
    expect(client.stats).toMatchObject({ requests: 2, retries: 1 });
  });

  test('a connection lost in the middle of the body is retried', async () => {
    let calls = 0;
    const client = testClient({
      fetch: async () => {
        calls++;
        if (calls > 1) return Response.json({ ok: 1 });
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"transactions":['));
            controller.error(new TypeError('terminated'));
          },
        });
        return new Response(body, { status: 200 });
      },
    });
    await expect(client.get('/x', {})).resolves.toEqual({ ok: 1 });
    expect(calls).toBe(2);
  });

  test('malformed JSON is retried', async () => {
    nock(BASE)
      .get('/x')
      .reply(200, '{"a":1,,}', { 'Content-Type': 'application/json' })
      .get('/x')
      .reply(200, { ok: 1 });
    const client = testClient();
    await expect(client.get('/x', {})).resolves.toEqual({ ok: 1 });
    expect(client.stats).toMatchObject({ requests: 2, retries: 1 });
  });

  test('retries exhausted: a RetryableError carrying the last failure as cause', async () => {
    nock(BASE).get('/api/v3/blocks').times(4).reply(503, { error: 'upstream down' });
    const client = testClient({ maxRetries: 3 });
    const err = await rejectionOf(client.get('/api/v3/blocks', {}));
    expect(err).toBeInstanceOf(RetriesExhaustedError);
    expect(err).toBeInstanceOf(RetryableError);
    expect(err.message).toBe('GET /api/v3/blocks failed after 4 attempts: HTTP 503 upstream down');
    expect(err).toMatchObject({ endpoint: '/api/v3/blocks', attempts: 4 });
    expect(err.cause).toBeInstanceOf(ApiServerError);
    expect(err.cause).toMatchObject({ status: 503, serverError: 'upstream down', endpoint: '/api/v3/blocks' });
    expect(client.stats).toMatchObject({ requests: 4, retries: 3 });
  });

  test('each retry class is a RetryableError subclass', async () => {
    nock(BASE).get('/t').delay(5_000).reply(200, {});
    nock(BASE).get('/n').replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    nock(BASE).get('/j').reply(200, 'nope');
    // Only /t may time out: a 30 ms bound on all three timed out loaded runs of the others.
    const client = (path: string): ApiClient => testClient({ maxRetries: 0, timeoutMs: path === '/t' ? 30 : 10_000 });
    const causes = await Promise.all(['/t', '/n', '/j'].map(async (p) => (await rejectionOf(client(p).get(p, {}))).cause));
    expect(causes[0]).toBeInstanceOf(ApiTimeoutError);
    expect(causes[1]).toBeInstanceOf(ApiNetworkError);
    expect((causes[1] as Error).message).toBe('request failed: ECONNRESET socket hang up');
    expect(causes[2]).toBeInstanceOf(InvalidBodyError);
    for (const cause of causes) expect(cause).toBeInstanceOf(RetryableError);
  });

  test('an HTML page with status 200 ends in a message about the base URL', async () => {
    nock('https://wrong.example.test')
      .get('/api/v3/masterchainInfo')
      .times(3)
      .reply(200, '<!doctype html><html><body>Welcome</body></html>', { 'Content-Type': 'text/html' });
    const client = testClient({ baseUrl: 'https://wrong.example.test', maxRetries: 2 });
    const err = await rejectionOf(client.get('/api/v3/masterchainInfo', {}));
    expect(err).toBeInstanceOf(RetriesExhaustedError);
    expect(err.message).toMatch(
      /^GET \/api\/v3\/masterchainInfo answered 3 times with HTTP 200 with an HTML page, \d+ bytes, text\/html: the base URL https:\/\/wrong\.example\.test probably does not point at the Chain Data API/,
    );
    expect(err.cause).toMatchObject({ html: true, truncated: false, status: 200 });
  });

  test('malformed JSON declared as JSON ends in the plain exhausted message', async () => {
    nock(BASE).get('/x').times(2).reply(200, '{"a":', { 'Content-Type': 'application/json' });
    const err = await rejectionOf(testClient({ maxRetries: 1 }).get('/x', {}));
    expect(err.message).toMatch(/^GET \/x failed after 2 attempts: HTTP 200 with invalid JSON \(SyntaxError: /);
    expect(err.message).not.toMatch(/base URL/);
  });

  test('backoff delays come from the injected random', async () => {
    nock(BASE).get('/x').times(3).reply(500, {}).get('/x').reply(200, {});
    const draws: number[] = [];
    const values = [0.25, 0.5, 0.75];
    const logs = captureLogs();
    const client = testClient({
      backoff: { baseMs: 8, maxMs: 20 },
      logger: logs.logger,
      random: () => {
        const value = values[draws.length] ?? 0;
        draws.push(value);
        return value;
      },
    });
    await client.get('/x', {});
    expect(draws).toEqual([0.25, 0.5, 0.75]);
    // ceilings 8, 16, min(20, 32): delay = floor(random × ceiling)
    const delays = logs.lines().filter((l) => l.msg === 'retrying request').map((l) => l.delay_ms);
    expect(delays).toEqual([2, 8, 15]);
    expect(logs.lines().every((l) => l.level === 20)).toBe(true);
  });
});

describe('no retry', () => {
  test('401 with a key: AuthError naming the key source', async () => {
    nock(BASE).get('/api/v2/getMasterchainInfo').reply(401, { ok: false, code: 401, error: 'API key does not exist' });
    const client = testClient({ apiKey: SECRET, keySource: '$TONCENTER_API_KEY' });
    const err = await rejectionOf(client.get('/api/v2/getMasterchainInfo', {}));
    expect(err).toBeInstanceOf(AuthError);
    expect(err).toBeInstanceOf(FatalError);
    expect(err.message).toBe(
      'the API key in $TONCENTER_API_KEY was rejected (401 API key does not exist): check the key or unset it',
    );
    expect(err).toMatchObject({ status: 401, endpoint: '/api/v2/getMasterchainInfo' });
    expect(client.stats).toMatchObject({ requests: 1, retries: 0 });
  });

  test('401 without a key source still reads well', async () => {
    nock(BASE).get('/x').reply(401, { error: 'API key does not exist' });
    const err = await rejectionOf(testClient({ apiKey: SECRET }).get('/x', {}));
    expect(err.message).toBe('the API key was rejected (401 API key does not exist): check the key or unset it');
  });

  test('403: the key belongs to the other network', async () => {
    nock(BASE).get('/api/v3/masterchainInfo').reply(403, { error: 'Network not allowed' });
    const client = testClient({ apiKey: SECRET, keySource: '$TONCENTER_API_KEY' });
    const err = await rejectionOf(client.get('/api/v3/masterchainInfo', {}));
    expect(err).toBeInstanceOf(AuthError);
    expect(err.message).toBe(
      `Network not allowed: the key was issued for the other network (403 Network not allowed at ${BASE}, key from $TONCENTER_API_KEY)`,
    );
    expect(client.stats.requests).toBe(1);
  });

  test.each([
    [404, { error: 'masterchain block 99999999 not found' }, 'masterchain block 99999999 not found'],
    [422, { error: 'limit is not allowed: 1001 > 1000' }, 'limit is not allowed: 1001 > 1000'],
    [400, 'bad request', 'bad request'],
    [542, { ok: false, code: 542, error: 'Unsupported stack entry type: foo' }, 'Unsupported stack entry type: foo'],
  ])('HTTP %i: ApiRequestError with status, endpoint and the server text', async (status, body, text) => {
    nock(BASE).get('/api/v3/actions').query(true).reply(status, body);
    const client = testClient();
    const err = await rejectionOf(client.get('/api/v3/actions', { mc_seqno: 99999999 }));
    expect(err).toBeInstanceOf(ApiRequestError);
    expect(err).toBeInstanceOf(FatalError);
    expect(err.message).toBe(`GET /api/v3/actions: HTTP ${status} ${text}`);
    expect(err).toMatchObject({ status, endpoint: '/api/v3/actions', serverError: text });
    expect(client.stats).toMatchObject({ requests: 1, retries: 0 });
  });

  test.each([
    [414, '<html><head><title>414 Request-URI Too Large</title></head><body><center><h1>414 Request-URI Too Large</h1></center><hr><center>nginx</center></body></html>'],
    [431, ''],
  ])('HTTP %i: UrlTooLongError saying the URL was too long, its length and what to do, on one line and not retried', async (status, body) => {
    nock(BASE).get('/api/v3/nft/items').query(true).reply(status, body);
    const client = testClient({ apiKey: SECRET });
    const err = await rejectionOf(client.get('/api/v3/nft/items', { owner_address: ['0:AB', '0:CD'] }));
    const urlBytes = `${BASE}/api/v3/nft/items?owner_address=0%3AAB&owner_address=0%3ACD`.length;
    expect(err).toBeInstanceOf(UrlTooLongError);
    expect(err).toBeInstanceOf(ApiRequestError);
    expect(err.message).toBe(
      `GET /api/v3/nft/items: HTTP ${status}: the request URL (${urlBytes} bytes) was too long for the service: give the stream fewer addresses in its filter lists, over several pipelines`,
    );
    expect(err.message).not.toContain(SECRET);
    expect(err).toMatchObject({ status, endpoint: '/api/v3/nft/items', urlBytes });
    expect(client.stats).toMatchObject({ requests: 1, retries: 0 });
  });

  test('an aborted signal stops waiting and throws its reason', async () => {
    nock(BASE).get('/x').delay(500).reply(200, {});
    const controller = new AbortController();
    const pending = testClient().get('/x', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 20);
    const err = await rejectionOf(pending);
    expect(err.message).toBe('stop');
  });
});

describe('429', () => {
  test('pauses the queue, retries, counts, and logs the pause once at info', async () => {
    nock(BASE)
      .get('/x')
      .times(2)
      .reply(429, { ok: false, result: 'Ratelimit exceed', code: 429 })
      .get('/x')
      .reply(200, { ok: 1 });
    const logs = captureLogs();
    const client = testClient({ logger: logs.logger });
    await expect(client.get('/x', {})).resolves.toEqual({ ok: 1 });
    expect(client.stats).toMatchObject({ requests: 3, retries: 2, rateLimited: 2 });
    const pauses = logs.lines().filter((l) => String(l.msg).startsWith('rate limited'));
    expect(pauses.map((l) => l.level)).toEqual([30, 20]);
  });

  test('other requests wait for the pause to end', async () => {
    const started: Record<string, number> = {};
    let rateLimitedAt = 0;
    nock(BASE)
      .get('/first')
      .reply(() => {
        rateLimitedAt = Date.now();
        return [429, 'Ratelimit without API Key exceed: 1 per second'];
      })
      .get('/first')
      .reply(200, () => {
        started.firstRetry = Date.now();
        return {};
      })
      .get('/second')
      .reply(200, () => {
        started.second = Date.now();
        return {};
      });
    const client = testClient({ concurrency: 1, backoff: { baseMs: 300, maxMs: 300 }, random: () => 0.999 });
    const first = client.get('/first', {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = client.get('/second', {});
    await Promise.all([first, second]);
    expect(started.second! - rateLimitedAt).toBeGreaterThanOrEqual(250);
    expect(started.firstRetry! - rateLimitedAt).toBeGreaterThanOrEqual(250);
    expect(client.stats.rateLimited).toBe(1);
  });

  test('a 429 with Retry-After: 2 pauses every request to the network for 2 s', async () => {
    const started: Record<string, number> = {};
    let rateLimitedAt = 0;
    nock(BASE)
      .get('/first')
      .reply(() => {
        rateLimitedAt = Date.now();
        return [429, { ok: false, code: 429, error: 'Ratelimit exceeded' }, { 'Retry-After': '2' }];
      })
      .get('/first')
      .reply(200, () => {
        started.firstRetry = Date.now();
        return {};
      })
      .get('/second')
      .reply(200, () => {
        started.second = Date.now();
        return {};
      });
    const logs = captureLogs();
    const client = testClient({ concurrency: 2, logger: logs.logger });
    const first = client.get('/first', {});
    await new Promise((resolve) => setTimeout(resolve, 100));
    await Promise.all([first, client.get('/second', {})]);
    expect(started.firstRetry! - rateLimitedAt).toBeGreaterThanOrEqual(2000);
    expect(started.second! - rateLimitedAt).toBeGreaterThanOrEqual(2000);
    const pause = logs.lines().find((l) => String(l.msg).startsWith('rate limited'));
    expect(pause).toMatchObject({ level: 30, pause_ms: 2000 });
  });

  test('Retry-After as an HTTP date is honoured too', async () => {
    let rateLimitedAt = 0;
    let retriedAt = 0;
    nock(BASE)
      .get('/x')
      .reply(() => {
        rateLimitedAt = Date.now();
        // HTTP dates have whole seconds: 2 s ahead is at least 1 s ahead.
        return [429, 'Ratelimit exceeded', { 'Retry-After': new Date(rateLimitedAt + 2000).toUTCString() }];
      })
      .get('/x')
      .reply(200, () => {
        retriedAt = Date.now();
        return {};
      });
    await testClient().get('/x', {});
    expect(retriedAt - rateLimitedAt).toBeGreaterThanOrEqual(1000);
  });

  test('requests already waiting start no earlier than the pause ends', async () => {
    const started: Record<string, number> = {};
    let rateLimitedAt = 0;
    nock(BASE)
      .get('/first')
      .reply(() => {
        rateLimitedAt = Date.now();
        return [429, 'Ratelimit exceeded', { 'Retry-After': '1' }];
      })
      .get('/first')
      .reply(200, {})
      .get('/second')
      .reply(200, () => {
        started.second = Date.now();
        return {};
      });
    const client = testClient({ concurrency: 1 });
    await Promise.all([client.get('/first', {}), client.get('/second', {})]);
    expect(started.second! - rateLimitedAt).toBeGreaterThanOrEqual(1000);
  });

  test('without Retry-After and with a short backoff, a 429 still pauses one request spacing after the answer', async () => {
    const calls: number[] = [];
    let rateLimitedAt = 0;
    const fetch = async (): Promise<Response> => {
      calls.push(Date.now());
      if (calls.length > 1) return new Response('{}', { status: 200 });
      // Answered 300 ms after the start: the spacing from the start alone would allow a retry 200 ms later.
      await new Promise((resolve) => setTimeout(resolve, 300));
      rateLimitedAt = Date.now();
      return new Response('Ratelimit exceeded', { status: 429 });
    };
    const client = testClient({ rps: 2, fetch, backoff: { baseMs: 1, maxMs: 5 } });
    await client.get('/x', {});
    expect(calls).toHaveLength(2);
    expect(calls[1]! - rateLimitedAt).toBeGreaterThanOrEqual(500);
  });

  test('the last 429 is the cause when retries run out', async () => {
    nock(BASE).get('/x').times(2).reply(429, { ok: false, code: 429, error: 'Ratelimit exceeded' });
    const err = await rejectionOf(testClient({ maxRetries: 1 }).get('/x', {}));
    expect(err).toBeInstanceOf(RetriesExhaustedError);
    expect(err.cause).toBeInstanceOf(RateLimitedError);
    expect(err.message).toBe('GET /x failed after 2 attempts: HTTP 429 Ratelimit exceeded');
  });
});

describe('quiet happy path and stats', () => {
  test('a successful request logs nothing but the API version once; bytes are counted', async () => {
    nock(BASE).get('/x').times(2).reply(200, '{"a":1}', { 'X-API-Version': '1.2.8', 'Content-Type': 'application/json' });
    const logs = captureLogs();
    const client = testClient({ logger: logs.logger });
    await client.get('/x', {});
    await client.get('/x', {});
    expect(logs.lines()).toEqual([expect.objectContaining({ level: 20, api_version: '1.2.8', msg: 'API version' })]);
    expect(client.apiVersion).toBe('1.2.8');
    expect(client.stats).toEqual({ requests: 2, retries: 0, rateLimited: 0, bytes: 14 });
  });
});
