import { inspect } from 'node:util';
import { expect, test } from 'vitest';
import { configErrorOf, load, VALID_TAIL } from './helpers.js';

const KEY = '5f2d0c1e9a7b4c3d8e6f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d';
const WITH_KEY = `network: mainnet\napi_key_env: TONCENTER_API_KEY\n${VALID_TAIL}`;

test('the key is readable by the client and nowhere else', () => {
  const pipeline = load(WITH_KEY, { TONCENTER_API_KEY: KEY });
  expect(pipeline.apiKey).toBe(KEY);
  expect(pipeline.apiKeyEnv).toBe('TONCENTER_API_KEY');
  for (const shown of [
    JSON.stringify(pipeline),
    JSON.stringify({ nested: { pipeline } }),
    inspect(pipeline),
    inspect(pipeline, { depth: Infinity, showHidden: true, getters: true }),
    inspect({ nested: { pipeline } }, { depth: Infinity }),
    String(pipeline),
    JSON.stringify(Object.entries(pipeline)),
    JSON.stringify({ ...pipeline }),
  ]) {
    expect(shown).not.toContain(KEY);
  }
  expect(JSON.stringify(pipeline)).toContain('"apiKey":"[redacted]"');
  expect(inspect(pipeline)).toContain("apiKey: '[redacted]'");
});

test('surrounding blanks of the variable are not part of the key', () => {
  expect(load(WITH_KEY, { TONCENTER_API_KEY: ` ${KEY}\n` }).apiKey).toBe(KEY);
});

test('a key pasted into api_key_env is refused and not echoed', () => {
  const err = configErrorOf(() => load(`network: mainnet\napi_key_env: ${KEY}\n${VALID_TAIL}`));
  expect(err.message).toBe(
    'pipelines/x.yaml:2:14: api_key_env: expected the name of an environment variable such as TONCENTER_API_KEY, got a value not shown here (it may be a secret): put the key itself in that variable, never in the file',
  );
  expect(err.message).not.toContain(KEY);
  expect(err.exitCode).toBe(2);
});

test('a key in base_url is refused and not echoed', () => {
  const err = configErrorOf(() => load(`network: mainnet\nbase_url: https://toncenter.com/?api_key=${KEY}\n${VALID_TAIL}`));
  expect(err.message).toBe(
    'pipelines/x.yaml:2:11: base_url: expected an http(s) URL of the service root such as https://toncenter.com, got a value not shown here (it may be a secret): remove the credentials, query and fragment (the API key goes in api_key_env)',
  );
  expect(err.message).not.toContain(KEY);
});

test('errors in a pipeline with a key set do not mention the key', () => {
  const err = configErrorOf(() => load(`${WITH_KEY}rate: { rps: -1 }\n`, { TONCENTER_API_KEY: KEY }));
  expect(err.message).toBe('pipelines/x.yaml:5:14: rate.rps: expected requests per second, a number > 0, got -1');
  expect(`${err.message}${err.stack ?? ''}${inspect(err)}`).not.toContain(KEY);
});

const NOT_SHOWN = 'expected an http(s) URL of the service root such as https://toncenter.com, got a value not shown here (it may be a secret)';

test.each([
  ['the key as a path segment', `https://rpc.example.com/${KEY}`],
  ['the key percent-encoded in the path', `https://rpc.example.com/v1/${[...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`],
  ['a 40-character hex token', 'https://rpc.example.com/a3f9c2e1d4b5a6f7e8d9c0b1a2f3e4d5c6b7a8f9'],
  ['a random-looking token', 'https://rpc.example.com/v2/Xk9mQ2rT7vLw4NpZ8cHs3JdF'],
  ['a UUID', 'https://rpc.example.com/123e4567-e89b-12d3-a456-426614174000/'],
])('base_url with a token-like path segment is refused and not echoed: %s', (_name, url) => {
  const err = configErrorOf(() => load(`network: mainnet\nbase_url: ${url}\n${VALID_TAIL}`));
  expect(err.message).toBe(`pipelines/x.yaml:2:11: base_url: ${NOT_SHOWN}: remove the token-like segment from the path (the API key goes in api_key_env)`);
  expect(err.exitCode).toBe(2);
});

test.each([
  'https://toncenter.com',
  'https://my-indexer-2024-mainnet.example.com/ton/indexer-v1-2024-07-01',
  'http://127.0.0.1:8081/services/chain-data-archive',
  'https://api.example.com/proxy/toncenter',
])('a base_url with names in its path is accepted: %s', (url) => {
  expect(load(`network: mainnet\nbase_url: ${url}\n${VALID_TAIL}`).baseUrl).toBe(url);
});

test.each([
  ['the key in the host name', `https://${KEY.slice(0, 20)}.example.com`],
  ['a 6-character piece of the key in a word of the path', `https://example.com/svc-${KEY.slice(30, 36)}-x`],
])('base_url holding %s is refused when the key is set, and neither is shown', (_name, url) => {
  const err = configErrorOf(() => load(`${WITH_KEY}base_url: ${url}\n`, { TONCENTER_API_KEY: KEY }));
  expect(err.message).toBe(`pipelines/x.yaml:5:11: base_url: ${NOT_SHOWN}: it holds the API key from $TONCENTER_API_KEY, or a piece of it: remove it (the API key goes in api_key_env)`);
  expect(err.exitCode).toBe(2);
  expect(load(`network: mainnet\nbase_url: ${url}\n${VALID_TAIL}`).baseUrl).toBe(url);
});

test('--base-url holding a piece of the key is refused the same way', () => {
  const err = configErrorOf(() => load(WITH_KEY, { TONCENTER_API_KEY: KEY }, { baseUrl: `http://127.0.0.1:1/p-${KEY.slice(5, 15)}` }));
  expect(err.message).toBe(`--base-url: ${NOT_SHOWN}: it holds the API key from $TONCENTER_API_KEY, or a piece of it: remove it (the API key goes in api_key_env)`);
});
