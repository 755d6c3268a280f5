import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { loadPipeline } from '../../src/config/index.js';
import { STREAM_CHOICE, STREAM_LIST } from '../support/stream-names.js';
import { configErrorOf, load, VALID_TAIL } from './helpers.js';

const STREAMS = `(streams: ${STREAM_LIST})`;
const KEYS = '(keys: network, base_url, api_key_env, rate, http, workers, start, lag, actions_overlap, streams, sink)';
const ADDRESS = 'expected an address (raw wc:HEX with 64 hex digits, or 48-character user-friendly)';
const WALLET = 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N';

/** [case, file text, environment, the exact message] */
const cases: [string, string, NodeJS.ProcessEnv, string][] = [
  [
    'invalid YAML',
    'network: mainnet\nstreams: [transactions\nsink: { kind: duckdb, path: x }\n',
    {},
    'pipelines/x.yaml:3:1: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]',
  ],
  [
    'a key given twice',
    `network: mainnet\nnetwork: testnet\n${VALID_TAIL}`,
    {},
    'pipelines/x.yaml:2:1: invalid YAML: Map keys must be unique',
  ],
  [
    'two YAML documents',
    `network: mainnet\n${VALID_TAIL}---\nnetwork: testnet\n`,
    {},
    'pipelines/x.yaml:4:1: invalid YAML: a pipeline file holds one document: remove the second ---',
  ],
  ['an empty file', '', {}, 'pipelines/x.yaml:1:1: expected a map of pipeline options (network, streams, sink, …), got an empty value'],
  [
    'unknown top-level key, with the nearest one',
    `netwrk: mainnet\n${VALID_TAIL}`,
    {},
    `pipelines/x.yaml:1:1: unknown key "netwrk": did you mean "network"? ${KEYS}`,
  ],
  [
    'unknown top-level key, nothing near',
    `network: mainnet\ncolour: blue\n${VALID_TAIL}`,
    {},
    `pipelines/x.yaml:2:1: unknown key "colour": remove it or use a valid one ${KEYS}`,
  ],
  [
    'unknown key in a section',
    `network: mainnet\nrate: { rsp: 5 }\n${VALID_TAIL}`,
    {},
    'pipelines/x.yaml:2:9: unknown key "rsp" in rate: did you mean "rps"? (rate keys: rps, concurrency)',
  ],
  [
    'unknown stream in the map form',
    'network: mainnet\nsink: { kind: duckdb, path: x }\nstreams:\n  transactons:\n',
    {},
    `pipelines/x.yaml:4:3: unknown stream "transactons": did you mean "transactions"? ${STREAMS}`,
  ],
  [
    'unknown stream in the list form',
    'network: mainnet\nstreams: [actions, jeton_transfers]\nsink: { kind: duckdb, path: x }\n',
    {},
    `pipelines/x.yaml:2:20: unknown stream "jeton_transfers": did you mean "jetton_transfers"? ${STREAMS}`,
  ],
  [
    'unknown filter',
    'network: mainnet\nstreams:\n  transactions: { acounts: [] }\nsink: { kind: duckdb, path: x }\n',
    {},
    'pipelines/x.yaml:3:19: unknown filter "acounts" for transactions: did you mean "accounts"? (transactions filters: accounts)',
  ],
  [
    'bad network',
    `network: devnet\n${VALID_TAIL}`,
    {},
    'pipelines/x.yaml:1:10: network: expected "mainnet" or "testnet", got "devnet"',
  ],
  ['missing network', VALID_TAIL, {}, 'pipelines/x.yaml:1:1: network: missing: expected "mainnet" or "testnet"'],
  [
    'two start kinds',
    `network: mainnet\nstart: { lt: 1, utime: 2024-01-01 }\n${VALID_TAIL}`,
    {},
    'pipelines/x.yaml:2:8: start: expected exactly one of lt, utime or mc_seqno, got lt and utime: keep one',
  ],
  [
    'no start kind',
    `network: mainnet\nstart: {}\n${VALID_TAIL}`,
    {},
    'pipelines/x.yaml:2:8: start: expected exactly one of lt, utime or mc_seqno, got none: add one, or remove start to begin at the settled tip',
  ],
  [
    'a date that does not exist',
    `network: mainnet\nstart:\n  utime: 2024-02-30\n${VALID_TAIL}`,
    {},
    'pipelines/x.yaml:3:10: start.utime: expected unix seconds (an integer ≥ 0) or an ISO 8601 date or date-time such as 2024-01-01 or 2024-01-01T12:00:00Z, got "2024-02-30"',
  ],
  [
    'negative lag',
    `network: mainnet\nlag: { mc_blocks: -1 }\n${VALID_TAIL}`,
    {},
    'pipelines/x.yaml:2:19: lag.mc_blocks: expected a number of masterchain blocks, an integer ≥ 0, got -1',
  ],
  [
    'rps 0',
    `network: mainnet\nrate:\n  rps: 0\n${VALID_TAIL}`,
    {},
    'pipelines/x.yaml:3:8: rate.rps: expected requests per second, a number > 0, got 0',
  ],
  [
    'fractional concurrency',
    `network: mainnet\nrate: { rps: 2, concurrency: 1.5 }\n${VALID_TAIL}`,
    {},
    'pipelines/x.yaml:2:30: rate.concurrency: expected requests in flight, an integer ≥ 1, got 1.5',
  ],
  [
    'an address with a wrong checksum',
    `network: mainnet\nstreams:\n  transactions:\n    accounts:\n      - ${WALLET}\n      - ${WALLET.slice(0, -1)}M\nsink: { kind: duckdb, path: x }\n`,
    {},
    `pipelines/x.yaml:6:9: streams.transactions.accounts[1]: ${ADDRESS}, got "${WALLET.slice(0, -1)}M": its checksum or tag is wrong: copy the address again`,
  ],
  [
    'an address in neither form',
    'network: mainnet\nstreams:\n  jetton_transfers: { jetton_master: "0:ABC" }\nsink: { kind: duckdb, path: x }\n',
    {},
    `pipelines/x.yaml:3:38: streams.jetton_transfers.jetton_master: ${ADDRESS}, got "0:ABC": use the raw form wc:HEX or a 48-character user-friendly address`,
  ],
  [
    'an address on a workchain a standard address cannot name',
    `network: mainnet\nstreams:\n  jetton_transfers: { jetton_master: "128:${'A'.repeat(64)}" }\nsink: { kind: duckdb, path: x }\n`,
    {},
    `pipelines/x.yaml:3:38: streams.jetton_transfers.jetton_master: ${ADDRESS}, got "128:${'A'.repeat(64)}": its workchain 128 is not one from -128 to 127`,
  ],
  [
    'bad action type',
    'network: mainnet\nstreams:\n  actions: { action_types: [jetton_transfer, Jetton-Burn] }\nsink: { kind: duckdb, path: x }\n',
    {},
    'pipelines/x.yaml:3:46: streams.actions.action_types[1]: expected an action type name of lower-case letters, digits, _ and . (e.g. jetton_transfer), got "Jetton-Burn"',
  ],
  [
    'an empty filter list',
    'network: mainnet\nstreams:\n  transactions: { accounts: [] }\nsink: { kind: duckdb, path: x }\n',
    {},
    'pipelines/x.yaml:3:29: streams.transactions.accounts: expected a list of addresses, got an empty list: remove the key to take everything',
  ],
  [
    'two filters of one stream that contradict each other',
    'network: mainnet\nstreams:\n  blocks: { workchain: -1, shard: "0:8000000000000000" }\nsink: { kind: duckdb, path: x }\n',
    {},
    'pipelines/x.yaml:3:11: streams.blocks: the shard 0:8000000000000000 is in workchain 0, not in the workchain filter\'s -1: remove one of the two filters',
  ],
  [
    'no streams',
    'network: mainnet\nstreams: []\nsink: { kind: duckdb, path: x }\n',
    {},
    `pipelines/x.yaml:2:10: streams: expected at least one of ${STREAM_CHOICE}, got none`,
  ],
  [
    'missing sink path',
    'network: mainnet\nstreams: [transactions]\nsink:\n  kind: duckdb\n',
    {},
    'pipelines/x.yaml:3:1: sink.path: missing: expected the path of the DuckDB file (kind duckdb) or output folder (kind parquet), e.g. data/warehouse.duckdb',
  ],
  [
    'bad sink kind',
    'network: mainnet\nstreams: [transactions]\nsink: { kind: csv, path: data/x.csv }\n',
    {},
    'pipelines/x.yaml:3:15: sink.kind: expected "duckdb" or "parquet", got "csv"',
  ],
  [
    'base_url with the API path',
    `network: mainnet\nbase_url: https://toncenter.com/api/v3/\n${VALID_TAIL}`,
    {},
    'pipelines/x.yaml:2:11: base_url: expected an http(s) URL of the service root such as https://toncenter.com, got "https://toncenter.com/api/v3/": drop the trailing /api/v3 (the client adds it)',
  ],
  [
    'zero timeout',
    `network: mainnet\nhttp: { timeout_seconds: 0 }\n${VALID_TAIL}`,
    {},
    'pipelines/x.yaml:2:26: http.timeout_seconds: expected seconds, a number > 0, got 0',
  ],
  [
    'negative retries',
    `network: mainnet\nhttp: { retries: -1 }\n${VALID_TAIL}`,
    {},
    'pipelines/x.yaml:2:18: http.retries: expected a number of retries, an integer ≥ 0, got -1',
  ],
  [
    'zero response cap',
    `network: mainnet\nhttp: { max_response_mb: 0 }\n${VALID_TAIL}`,
    {},
    'pipelines/x.yaml:2:26: http.max_response_mb: expected megabytes, a number > 0, got 0',
  ],
  [
    'negative workers',
    `network: mainnet\nworkers: -1\n${VALID_TAIL}`,
    {},
    'pipelines/x.yaml:2:10: workers: expected worker threads, an integer ≥ 0, got -1',
  ],
  [
    'missing env var',
    `network: mainnet\napi_key_env: TONCENTER_API_KEY\n${VALID_TAIL}`,
    { OTHER: 'x' },
    'pipelines/x.yaml:2:14: api_key_env names TONCENTER_API_KEY, but that environment variable is not set: export it or remove api_key_env',
  ],
  [
    'empty env var',
    `network: mainnet\napi_key_env: TONCENTER_API_KEY\n${VALID_TAIL}`,
    { TONCENTER_API_KEY: ' ' },
    'pipelines/x.yaml:2:14: api_key_env names TONCENTER_API_KEY, but that environment variable is not set: export it or remove api_key_env',
  ],
];

test.each(cases)('%s', (_name, text, env, message) => {
  const err = configErrorOf(() => load(text, env));
  expect(err.message).toBe(message);
  expect(err.message).not.toContain('\n');
  expect(err.exitCode).toBe(2);
});

const dir = mkdtempSync(join(tmpdir(), 'chain-etl-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a missing file', () => {
  const path = join(dir, 'nope.yaml');
  const err = configErrorOf(() => loadPipeline(path, {}, {}));
  expect(err.message).toBe(`cannot read pipeline file ${path}: no such file`);
  expect(err.exitCode).toBe(2);
});

test('a directory', () => {
  expect(configErrorOf(() => loadPipeline(dir, {}, {})).message).toBe(`cannot read pipeline file ${dir}: it is a directory`);
});

test('a bad --base-url override names the flag', () => {
  const err = configErrorOf(() => load(`network: mainnet\n${VALID_TAIL}`, {}, { baseUrl: 'ftp://x' }));
  expect(err.message).toBe('--base-url: expected an http(s) URL of the service root such as https://toncenter.com, got "ftp://x"');
});

test('a misspelt key is reported before the key it leaves missing', () => {
  const err = configErrorOf(() => load('network: mainnet\nstreams: [transactions]\nsink: { kind: duckdb, pth: x }\n'));
  expect(err.message).toBe('pipelines/x.yaml:3:23: unknown key "pth" in sink: did you mean "path"? (sink keys: kind, path, retain_superseded_minutes, compact_after_files, wait_for_readers_seconds)');
});

test('an unresolved alias', () => {
  const err = configErrorOf(() => load(`network: *net\n${VALID_TAIL}`));
  expect(err.message).toMatch(/^pipelines\/x\.yaml:1:10: invalid YAML: .*net/);
});
