import { inspect } from 'node:util';
import nock from 'nock';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { ApiClient } from '../../src/api/http-client.js';
import { BASE, captureLogs, rejectionOf, SECRET, testClient } from './helpers.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
});

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
  [
    'connection reset',
    () => x().times(3).replyWithError(Object.assign(new Error('reset'), { code: 'ECONNRESET' })),
    'ApiNetworkError',
  ],
  ['timeout', () => x().times(3).delay(200).reply(200, {}), 'ApiTimeoutError'],
  // nock's own "No match" error prints the request headers, key included: a library echoing it.
  ['library error printing the headers', () => nock(BASE).get('/other').reply(200, {}), 'ApiNetworkError'],
];

test.each(failures)('the key appears in no error or log line: %s', async (_name, arrange, failure) => {
  arrange();
  const logs = captureLogs();
  const client = testClient({ apiKey: SECRET, keySource: '$KEY', maxRetries: 2, timeoutMs: 50, logger: logs.logger });
  const err = await rejectionOf(client.get('/x', { account: ['0:AA'] }));
  const last = err.name === 'RetriesExhaustedError' ? (err.cause as Error) : err;
  expect(last.name).toBe(failure);
  logs.logger.error({ err }, 'request failed');
  expect(everything(err)).not.toContain(SECRET);
  expect(logs.text()).not.toContain(SECRET);
  expect(logs.text()).toContain('request failed');
});

test('the client object itself does not reveal the key', () => {
  const client = new ApiClient({ baseUrl: BASE, apiKey: SECRET, rps: 1, concurrency: 1 });
  expect(JSON.stringify(client)).not.toContain(SECRET);
  expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(SECRET);
});
