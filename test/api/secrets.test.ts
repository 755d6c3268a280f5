import { inspect } from 'node:util';
import nock from 'nock';
import { afterEach, expect, test } from 'vitest';
import { ApiClient } from '../../src/api/http-client.js';
import { BASE, captureLogs, rejectionOf, SECRET, testClient, useNock } from './helpers.js';

useNock();
afterEach(() => {
  nock.cleanAll();
});

const unicode = (text: string): string => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** Every 6-character piece of the key (any longer piece contains one), lower case. */
const PIECES = Array.from({ length: SECRET.length - 5 }, (_, i) => SECRET.slice(i, i + 6).toLowerCase());
const piecesIn = (text: string): string[] => PIECES.filter((piece) => text.toLowerCase().includes(piece));

/** Every way an error reaches a human or a file: message, stack, JSON, inspect, and the cause chain. */
function everything(err: Error): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current instanceof Error && depth < 10; depth++) {
    parts.push(current.message, current.stack ?? '', JSON.stringify(current), inspect(current, { depth: 10 }));
    current = current.cause;
  }
  return parts.join('\n');
}

const x = (): nock.Interceptor => nock(BASE).get('/x').query({ account: '0:AA' });

const failures: [string, () => void, string][] = [
  ['401 echoing the key', () => x().reply(401, { error: `API key ${SECRET} does not exist` }), 'AuthError'],
  ['403', () => x().reply(403, { error: 'Network not allowed' }), 'AuthError'],
  ['422 echoing the key', () => x().reply(422, { error: `bad api_key=${SECRET}` }), 'ApiRequestError'],
  ['500 echoing the key', () => x().times(3).reply(500, `oops ${SECRET}`), 'ApiServerError'],
  ['429', () => x().times(3).reply(429, { error: 'Ratelimit exceeded' }), 'RateLimitedError'],
  ['HTML echoing the key', () => x().times(3).reply(200, `<html>${SECRET}</html>`), 'InvalidBodyError'],
  ['malformed JSON echoing the key', () => x().times(3).reply(200, `{"k":"${SECRET}",`), 'InvalidBodyError'],
  // V8's JSON.parse message quotes the first 10 characters of the body: a cut-off copy of the key.
  ['malformed JSON starting with the key', () => x().times(3).reply(200, SECRET), 'InvalidBodyError'],
  ['malformed JSON with the key unquoted', () => x().times(3).reply(200, `{"k":${SECRET}}`), 'InvalidBodyError'],
  ['422 echoing a piece of the key, \\u-escaped', () => x().reply(422, `{"error":"bad key ${unicode(SECRET.slice(4, 14))}"}`), 'ApiRequestError'],
  ['500 echoing the key percent-encoded in a URL', () => x().times(3).reply(500, `see /login?api_key=${encodeURIComponent(SECRET).replace(/./g, (c) => `%${c.charCodeAt(0).toString(16)}`)}`), 'ApiServerError'],
  ['404 HTML echoing the key in lower case', () => x().reply(404, `<p>no ${SECRET.toLowerCase()}</p>`), 'ApiRequestError'],
  [
    'connection reset',
    () => x().times(3).replyWithError(Object.assign(new Error('reset'), { code: 'ECONNRESET' })),
    'ApiNetworkError',
  ],
  ['timeout', () => x().times(3).delay(5_000).reply(200, {}), 'ApiTimeoutError'],
  // nock's own "No match" error prints the request headers, key included: a library echoing it.
  ['library error printing the headers', () => nock(BASE).get('/other').reply(200, {}), 'ApiNetworkError'],
];

test.each(failures)('the key appears in no error or log line: %s', async (name, arrange, failure) => {
  arrange();
  const logs = captureLogs();
  // Only the timeout case may time out: a 50 ms bound on every case timed out loaded runs of the others.
  const timeoutMs = name === 'timeout' ? 50 : 10_000;
  const client = testClient({ apiKey: SECRET, keySource: '$KEY', maxRetries: 2, timeoutMs, logger: logs.logger });
  const err = await rejectionOf(client.get('/x', { account: ['0:AA'] }));
  const last = err.name === 'RetriesExhaustedError' ? (err.cause as Error) : err;
  expect(last.name).toBe(failure);
  logs.logger.error({ err }, 'request failed');
  expect(piecesIn(everything(err))).toEqual([]);
  expect(piecesIn(logs.text())).toEqual([]);
  expect(logs.text()).toContain('request failed');
});

test('the client object itself does not reveal the key', () => {
  const client = new ApiClient({ baseUrl: BASE, apiKey: SECRET, rps: 1, concurrency: 1 });
  expect(JSON.stringify(client)).not.toContain(SECRET);
  expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(SECRET);
});
