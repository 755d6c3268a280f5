/**
 * The HTTP client against real servers on 127.0.0.1: redirects are followed within the base URL's
 * origin only (the key never reaches another origin), and a body is read up to the cap
 * (`maxResponseMb`, after decompression), never retried past it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { RedirectError, ResponseTooLargeError } from '../../src/api/errors.js';
import { startMisbehavingServer, type MisbehavingServer } from '../support/misbehaving-server.js';
import { rejectionOf, SECRET, testClient } from './helpers.js';

let api: MisbehavingServer;
let other: MisbehavingServer;

beforeAll(async () => {
  [api, other] = await Promise.all([startMisbehavingServer(), startMisbehavingServer()]);
  other.behave(() => ({ kind: 'reply', status: 200, body: '{"stolen":true}' }));
});
afterAll(async () => {
  await Promise.all([api?.close(), other?.close()]);
});
afterEach(() => {
  (api.seen as unknown[]).length = 0;
  (other.seen as unknown[]).length = 0;
});

const ENDPOINT = '/api/v3/masterchainInfo';
const client = (maxResponseMb?: number) => testClient({ baseUrl: api.url, apiKey: SECRET, maxRetries: 2, maxResponseMb });

describe('redirects', () => {
  test.each([301, 302, 303, 307, 308])('HTTP %i to another port: refused, not retried, the other origin sees nothing', async (status) => {
    api.behave(() => ({ kind: 'redirect', status, location: `${other.origin}${ENDPOINT}` }));
    const err = await rejectionOf(client().get(ENDPOINT));
    expect(err).toBeInstanceOf(RedirectError);
    expect(err.message).toBe(
      `GET ${ENDPOINT}: HTTP ${status} redirect to ${other.origin}, another origin than ${api.origin}: not followed, so the API key is not sent there; if the service moved, set base_url to its new address`,
    );
    expect(api.seen).toHaveLength(1);
    expect(other.seen).toEqual([]);
  });

  test.each([
    ['another host name on the same port', () => `http://localhost:${api.port}${ENDPOINT}`, () => `http://localhost:${api.port}`],
    ['another scheme on the same host and port', () => `https://127.0.0.1:${api.port}${ENDPOINT}`, () => `https://127.0.0.1:${api.port}`],
    ['a protocol-relative URL to another port', () => `//127.0.0.1:${other.port}/x`, () => other.origin],
  ])('%s is another origin', async (_name, location, target) => {
    api.behave(() => ({ kind: 'redirect', status: 302, location: location() }));
    const err = await rejectionOf(client().get(ENDPOINT));
    expect(err.message).toContain(`HTTP 302 redirect to ${target()}, another origin than ${api.origin}: not followed`);
    expect(api.seen).toHaveLength(1);
    expect(other.seen).toEqual([]);
  });

  test('same-origin redirects (relative and absolute) are followed with the key', async () => {
    api.behave(({ url }) =>
      url.startsWith(ENDPOINT)
        ? { kind: 'redirect', status: 301, location: '/moved/once' }
        : url === '/moved/once'
          ? { kind: 'redirect', status: 307, location: `${api.origin}/moved/twice?x=1` }
          : { kind: 'reply', status: 200, body: '{"first":1}' },
    );
    await expect(client().get(ENDPOINT)).resolves.toEqual({ first: 1 });
    expect(api.seen).toEqual([
      { url: ENDPOINT, key: SECRET },
      { url: '/moved/once', key: SECRET },
      { url: '/moved/twice?x=1', key: SECRET },
    ]);
  });

  test('at most 5 redirects within the origin', async () => {
    api.behave(({ url }) => ({ kind: 'redirect', status: 302, location: `${url.split('?')[0]}?hop=${api.seen.length}` }));
    const err = await rejectionOf(client().get(ENDPOINT));
    expect(err).toBeInstanceOf(RedirectError);
    expect(err.message).toBe(`GET ${ENDPOINT}: more than 5 redirects within ${api.origin} (the last HTTP 302): not followed further; check base_url`);
    expect(api.seen).toHaveLength(6);
  });

  test('a redirect without Location', async () => {
    api.behave(() => ({ kind: 'redirect', status: 301 }));
    const err = await rejectionOf(client().get(ENDPOINT));
    expect(err.message).toBe(`GET ${ENDPOINT}: HTTP 301 redirect without a valid Location header: not followed; check base_url`);
    expect(api.seen).toHaveLength(1);
  });
});

describe('the body cap', () => {
  const tooLarge = (mb: number): string =>
    `GET ${ENDPOINT}: the response body is larger than ${mb} MB (http.max_response_mb, counted after decompression): not retried; if the service really sends pages this large, raise http.max_response_mb in the pipeline file`;

  test('a body that never ends stops at the cap, once (not retried)', async () => {
    api.behave(() => ({ kind: 'endless' }));
    const err = await rejectionOf(client(1).get(ENDPOINT));
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err.message).toBe(tooLarge(1));
    expect(api.seen).toHaveLength(1);
  });

  test('the default cap is 64 MB', async () => {
    api.behave(() => ({ kind: 'endless' }));
    const err = await rejectionOf(client().get(ENDPOINT));
    expect(err.message).toBe(tooLarge(64));
  });

  test('a declared length over the cap fails before the body is read', async () => {
    const body = `{"x":"${'a'.repeat(600_000)}"}`;
    api.behave(() => ({ kind: 'reply', status: 200, body, headers: { 'content-length': String(Buffer.byteLength(body)) } }));
    expect((await rejectionOf(client(0.5).get(ENDPOINT))).message).toBe(tooLarge(0.5));
    await expect(client(1).get(ENDPOINT)).resolves.toEqual({ x: 'a'.repeat(600_000) });
  });

  test('a gzip bomb (512 MB inflated) stops at the cap after decompression, without inflating the rest', async () => {
    api.behave(() => ({ kind: 'gzip-bomb', inflatedBytes: 512 * 1024 * 1024 }));
    const before = process.memoryUsage();
    const started = performance.now();
    const err = await rejectionOf(client(2).get(ENDPOINT));
    expect(err.message).toBe(tooLarge(2));
    expect(performance.now() - started).toBeLessThan(5000);
    const after = process.memoryUsage();
    expect(after.rss + after.arrayBuffers - before.rss - before.arrayBuffers).toBeLessThan(200 * 1024 * 1024);
  });

  test('an error body is capped too', async () => {
    api.behave(() => ({ kind: 'reply', status: 500, body: 'x'.repeat(2 * 1024 * 1024) }));
    expect((await rejectionOf(client(1).get(ENDPOINT))).message).toBe(tooLarge(1));
    expect(api.seen).toHaveLength(1);
  });
});
