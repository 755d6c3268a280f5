import { describe, expect, it } from 'vitest';
import type { FaultProfile } from '../../../src/devnet/http/faults.js';
import { getJson, MAINNET_KEY, postJson, scripted, startServer, TRANSACTIONS } from './helpers.js';

const key = { 'X-API-Key': MAINNET_KEY };
const auth = { headers: key };

function faulty(faults: FaultProfile, random: () => number = () => 0) {
  return startServer({ faults, random, keyRps: Infinity });
}

/** Reads a body until the server ends it, returning the bytes received. */
async function bytesUntilCut(res: Response): Promise<{ received: number; error: unknown }> {
  const reader = res.body!.getReader();
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { received, error: undefined };
      received += value.length;
    }
  } catch (error) {
    return { received, error };
  }
}

describe('fault injection', () => {
  it('reset: destroys the connection without an answer', async () => {
    const s = await faulty({ reset: 1 });
    await expect(fetch(`${s.url}/api/v3/transactions`, auth)).rejects.toThrow(TypeError);
    expect(s.requests).toEqual([expect.objectContaining({ status: 0, fault: 'reset' })]);
  });

  it('truncate: announces the full Content-Length but sends only part of the body', async () => {
    const s = await faulty({ truncate: 1 });
    const res = await fetch(`${s.url}/api/v3/transactions`, auth);
    expect(res.status).toBe(200);
    const announced = Number(res.headers.get('content-length'));
    const { received, error } = await bytesUntilCut(res);
    expect(announced).toBe(JSON.stringify({ transactions: TRANSACTIONS, address_book: {}, paging: { limit: 10, offset: 0, sort: 'desc' } }).length);
    expect(received).toBe(Math.floor(announced / 2));
    expect(error).toBeInstanceOf(TypeError);
  });

  it('truncate: makes res.json() fail', async () => {
    const s = await faulty({ truncate: 1 });
    const res = await fetch(`${s.url}/api/v2/getMasterchainInfo`, auth);
    await expect(res.json()).rejects.toThrow();
  });

  it('malformedJson: answers 200 with a body that is not JSON', async () => {
    const s = await faulty({ malformedJson: 1 });
    const res = await fetch(`${s.url}/api/v3/transactions`, auth);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(Number(res.headers.get('content-length'))).toBe(text.length);
    expect(() => JSON.parse(text) as unknown).toThrow(SyntaxError);
  });

  it('unknownFields: adds x_devnet_extra at the top level and to objects of top-level arrays', async () => {
    const s = await faulty({ unknownFields: 1 });
    const { status, body } = await getJson(`${s.url}/api/v3/transactions`, auth);
    expect(status).toBe(200);
    expect(body).toEqual({
      transactions: TRANSACTIONS.map((t) => ({ ...t, x_devnet_extra: 'unknown' })),
      address_book: {},
      paging: { limit: 10, offset: 0, sort: 'desc' },
      x_devnet_extra: 'unknown',
    });
    const v2 = await getJson(`${s.url}/api/v2/getMasterchainInfo`, auth);
    expect(v2.body).toMatchObject({ ok: true, result: { '@type': 'blocks.masterchainInfo', x_devnet_extra: 'unknown' } });
  });

  it('unknownEnum: replaces every finality value with unknown_3', async () => {
    const s = await faulty({ unknownEnum: 1 });
    const { body } = await getJson(`${s.url}/api/v3/transactions`, auth);
    expect((body as { transactions: unknown }).transactions).toEqual([
      { ...TRANSACTIONS[0], finality: 'unknown_3', account_state_before: { finality: 'unknown_3' } },
      { ...TRANSACTIONS[1], finality: 'unknown_3' },
    ]);
    // Logged as injected only where a value was replaced: an answer without finality carries no such fault.
    await getJson(`${s.url}/api/v2/getMasterchainInfo`, auth);
    expect(s.requests.map((r) => r.faults)).toEqual([['unknownEnum'], []]);
  });

  it.each([
    [0, 500, 'internal server error'],
    [0.3, 502, 'bad gateway'],
    [0.6, 503, 'service unavailable'],
    [0.9, 504, 'LITE_SERVER_NETWORK timeout'],
  ])('http5xx: draw %d answers %d with the envelope of the version', async (pick, status, error) => {
    const s = await faulty({ http5xx: 0.5 }, scripted([0.1, pick, 0.1, pick]));
    expect(await getJson(`${s.url}/api/v3/transactions`, auth)).toMatchObject({ status, body: { code: status, error } });
    expect(await getJson(`${s.url}/api/v2/getMasterchainInfo`, auth)).toMatchObject({
      status,
      body: { ok: false, code: status, error },
    });
    expect(s.requests.map((r) => r.fault)).toEqual(['http5xx', 'http5xx']);
  });

  it('http5xx: keeps the JSON-RPC id in the failure envelope', async () => {
    const s = await faulty({ http5xx: 1 });
    const res = await postJson(`${s.url}/api/v2/jsonRPC`, { jsonrpc: '2.0', id: 'x', method: 'getMasterchainInfo', params: {} }, key);
    expect([res.status, await res.json()]).toEqual([500, { ok: false, code: 500, error: 'internal server error', jsonrpc: '2.0', id: 'x' }]);
  });

  it('storm429: once started, answers 429 to every request for durationMs', async () => {
    // First draw starts the storm; later draws (0.999) never start one.
    const s = await faulty({ storm429: { rate: 0.01, durationMs: 5000 } }, scripted([0]));
    const status = async () => (await getJson(`${s.url}/api/v3/transactions`, auth)).status;
    expect(await getJson(`${s.url}/api/v3/transactions`, auth)).toMatchObject({
      status: 429,
      body: { code: 429, error: 'Ratelimit exceeded' },
    });
    s.clock.advance(2500);
    expect(await getJson(`${s.url}/api/v2/getMasterchainInfo`, auth)).toMatchObject({
      status: 429,
      body: { ok: false, code: 429, error: 'Ratelimit exceeded' },
    });
    s.clock.advance(2499);
    expect(await status()).toBe(429);
    s.clock.advance(1);
    expect(await status()).toBe(200);
    expect(s.requests.map((r) => r.fault)).toEqual(['storm429', 'storm429', 'storm429', undefined]);
  });

  it('stall: holds the response past a client timeout', async () => {
    const s = await faulty({ stall: { rate: 1, ms: 60_000 } });
    await expect(fetch(`${s.url}/api/v3/transactions`, { ...auth, signal: AbortSignal.timeout(100) })).rejects.toThrow(
      expect.objectContaining({ name: 'TimeoutError' }),
    );
  });

  it('stall: then answers normally', async () => {
    const s = await faulty({ stall: { rate: 1, ms: 20 } });
    expect(await getJson(`${s.url}/api/v3/transactions`, auth)).toMatchObject({ status: 200, body: { transactions: TRANSACTIONS } });
    expect(s.requests.map((r) => r.fault)).toEqual(['stall']);
  });

  it('latency: delays the answer without changing it', async () => {
    const s = await faulty({ latency: { medianMs: 1, p99Ms: 5 } });
    expect(await getJson(`${s.url}/api/v3/transactions`, auth)).toMatchObject({ status: 200, body: { transactions: TRANSACTIONS } });
  });

  it('never changes authentication, rate limiting or routing answers', async () => {
    const s = await startServer({ faults: { http5xx: 1 }, random: () => 0 });
    expect(await getJson(`${s.url}/api/v3/transactions`, { headers: { 'X-API-Key': 'nope' } })).toMatchObject({
      status: 401,
      body: { code: 401, error: 'API key does not exist' },
    });
    expect(await getJson(`${s.url}/api/v3/nope`, auth)).toMatchObject({ status: 404, body: { code: 404, error: 'not found' } });
    expect((await getJson(`${s.url}/api/v3/transactions`)).status).toBe(500);
    expect(await getJson(`${s.url}/api/v3/transactions`)).toMatchObject({
      status: 429,
      body: { code: 429, error: 'Ratelimit exceeded' },
    });
    expect(s.requests.map((r) => [r.status, r.fault])).toEqual([
      [401, undefined],
      [404, undefined],
      [500, 'http5xx'],
      [429, undefined],
    ]);
  });

  it('draws from the injected RNG only for data requests', async () => {
    let draws = 0;
    const s = await faulty({ unknownFields: 0.5 }, () => {
      draws++;
      return 0.9;
    });
    await getJson(`${s.url}/api/v3/transactions`, { headers: { 'X-API-Key': 'nope' } });
    await getJson(`${s.url}/api/v3/nope`, auth);
    expect(draws).toBe(0);
    await getJson(`${s.url}/api/v3/transactions`, auth);
    expect(draws).toBe(1);
  });
});
