import { expect, test } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { buildUrl, normalizeBaseUrl } from '../../src/api/query.js';
import { DEFAULT_BASE_URLS, isNetwork } from '../../src/api/network.js';

test('lists repeat the key, undefined is omitted, values are URL-encoded', () => {
  const url = buildUrl('https://toncenter.com', '/api/v3/transactions', {
    account: ['0:AA', 'EQB+/='],
    start_lt: 123n,
    include_accounts: false,
    offset: undefined,
  });
  expect(url.pathname + url.search).toBe(
    '/api/v3/transactions?account=0%3AAA&account=EQB%2B%2F%3D&start_lt=123&include_accounts=false',
  );
});

test('a base URL with a path prefix keeps it', () => {
  expect(buildUrl(normalizeBaseUrl('http://127.0.0.1:8081/index/'), '/api/v3/blocks', {}).href).toBe(
    'http://127.0.0.1:8081/index/api/v3/blocks',
  );
});

test.each([
  ['not a url', 'Expected base_url to be an http(s) URL such as https://toncenter.com, got "not a url"'],
  ['ftp://toncenter.com', 'Expected base_url to use http or https, got ftp:'],
  ['https://toncenter.com/?api_key=x', 'Expected base_url without credentials, query or fragment'],
  ['https://user:pw@toncenter.com', 'Expected base_url without credentials, query or fragment'],
  ['https://toncenter.com/api/v3/', 'drop the trailing /api/v3 (the client adds it)'],
])('base URL %s is refused', (baseUrl, message) => {
  expect(() => normalizeBaseUrl(baseUrl)).toThrow(ConfigError);
  expect(() => normalizeBaseUrl(baseUrl)).toThrow(message);
});

test('query-string and credential refusals do not echo the URL', () => {
  expect(() => normalizeBaseUrl('https://toncenter.com/?api_key=SECRET')).not.toThrow(/SECRET/);
  expect(() => normalizeBaseUrl('https://u:SECRET@toncenter.com')).not.toThrow(/SECRET/);
});

test('networks and their default roots', () => {
  expect(DEFAULT_BASE_URLS).toEqual({ mainnet: 'https://toncenter.com', testnet: 'https://testnet.toncenter.com' });
  expect(isNetwork('testnet')).toBe(true);
  expect(isNetwork('devnet')).toBe(false);
});
