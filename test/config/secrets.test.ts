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
