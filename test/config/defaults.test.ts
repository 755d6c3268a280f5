import { expect, test } from 'vitest';
import { defaultWorkers } from '../../src/config/defaults.js';
import { parsePipeline } from '../../src/config/index.js';
import { load, VALID_TAIL } from './helpers.js';

const KEYED = { TONCENTER_API_KEY: 'k' };
const withKey = (body: string) => `network: mainnet\napi_key_env: TONCENTER_API_KEY\n${body}${VALID_TAIL}`;

test('without a key: 1 request/s, one in flight, and every other default', () => {
  const p = load(`network: mainnet\n${VALID_TAIL}`);
  expect(p.toJSON()).toEqual({
    file: 'pipelines/x.yaml',
    network: 'mainnet',
    baseUrl: 'https://toncenter.com',
    apiKeyEnv: undefined,
    apiKey: undefined,
    rate: { rps: 1, concurrency: 1 },
    http: { timeoutSeconds: 15, retries: 8, maxResponseMb: 64 },
    workers: defaultWorkers(),
    start: { kind: 'tip' },
    lag: { mcBlocks: 2 },
    actionsOverlap: { mcBlocks: 150 },
    streams: { transactions: {} },
    sink: { kind: 'duckdb', path: 'data/x.duckdb', retainSupersededMinutes: 10, compactAfterFiles: 8, waitForReadersSeconds: 30 },
  });
  expect(p.apiKey).toBeUndefined();
  expect(p.streamNames).toEqual(['transactions']);
});

test('status reads a pipeline whose key variable is unset: no key, the keyless defaults', () => {
  const p = parsePipeline(withKey(''), 'pipelines/x.yaml', {}, {}, { requireApiKey: false });
  expect(p.apiKey).toBeUndefined();
  expect(p.rate).toEqual({ rps: 1, concurrency: 1 });
  expect(parsePipeline(withKey(''), 'pipelines/x.yaml', {}, KEYED, { requireApiKey: false }).apiKey).toBe('k');
  expect(() => load(withKey(''))).toThrow('api_key_env names TONCENTER_API_KEY, but that environment variable is not set');
});

test('sink.wait_for_readers_seconds: 30 unless given; 0 gives up at once', () => {
  expect(load(`network: mainnet
streams: [transactions]
sink: { kind: duckdb, path: x, wait_for_readers_seconds: 0 }
`).sink.waitForReadersSeconds).toBe(0);
  expect(() => load(`network: mainnet
streams: [transactions]
sink: { kind: duckdb, path: x, wait_for_readers_seconds: -1 }
`)).toThrow(
    'sink.wait_for_readers_seconds: expected seconds, an integer ≥ 0, got -1',
  );
});

test('with a key: 10 requests/s, five in flight', () => {
  const p = load(withKey(''), KEYED);
  expect(p.rate).toEqual({ rps: 10, concurrency: 5 });
  expect(p.apiKey).toBe('k');
});

test.each([
  [0.5, 1],
  [3, 2],
  [10, 5],
  [31, 16],
  [100, 16],
])('rps %d alone gives concurrency %d', (rps, concurrency) => {
  expect(load(withKey(`rate: { rps: ${rps} }\n`), KEYED).rate).toEqual({ rps, concurrency });
});

test('a given rate is kept, with or without a key', () => {
  expect(load(`network: mainnet\nrate: { rps: 4, concurrency: 3 }\n${VALID_TAIL}`).rate).toEqual({ rps: 4, concurrency: 3 });
  expect(load(withKey('rate: { concurrency: 2 }\n'), KEYED).rate).toEqual({ rps: 10, concurrency: 2 });
});

test('the base URL follows the network unless given', () => {
  expect(load(`network: testnet\n${VALID_TAIL}`).baseUrl).toBe('https://testnet.toncenter.com');
  expect(load(`network: testnet\nbase_url: http://127.0.0.1:8081/\n${VALID_TAIL}`).baseUrl).toBe('http://127.0.0.1:8081');
});

test('lag 0 and overlap 0 are allowed', () => {
  const p = load(`network: mainnet\nlag: { mc_blocks: 0 }\nactions_overlap: { mc_blocks: 0 }\n${VALID_TAIL}`);
  expect([p.lag.mcBlocks, p.actionsOverlap.mcBlocks]).toEqual([0, 0]);
});

test.each([
  ['lt: 60000000000000', { kind: 'lt', lt: 60000000000000n }],
  ['lt: "18446744073709551615"', { kind: 'lt', lt: 18446744073709551615n }],
  ['utime: 1704067200', { kind: 'utime', utime: 1704067200 }],
  ['utime: 2024-01-01', { kind: 'utime', utime: 1704067200 }],
  ['utime: 2024-01-01T12:00', { kind: 'utime', utime: 1704110400 }],
  ['utime: 2024-01-01T12:00:00.5Z', { kind: 'utime', utime: 1704110400 }],
  ['utime: "2024-01-01T14:00:00+02:00"', { kind: 'utime', utime: 1704110400 }],
  ['mc_seqno: 50000000', { kind: 'mc_seqno', mcSeqno: 50000000 }],
])('start { %s }', (start, expected) => {
  expect(load(`network: mainnet\nstart: { ${start} }\n${VALID_TAIL}`).start).toEqual(expected);
});

test('addresses become raw upper case, once each', () => {
  const raw = '0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8';
  const p = load(
    [
      'network: mainnet',
      'streams:',
      '  transactions:',
      '    accounts:',
      '      - EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N', // bounceable
      '      - UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI', // non-bounceable, same account
      `      - "${raw.toLowerCase()}"`,
      '  jetton_transfers: { jetton_master: EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs }',
      '  validator_events: { stake_holder: "-1:3333333333333333333333333333333333333333333333333333333333333333" }',
      '  actions: { action_types: [jetton_transfer, ton_transfer] }',
      'sink: { kind: parquet, path: data/x }',
      '',
    ].join('\n'),
  );
  expect(p.streams).toEqual({
    transactions: { accounts: [raw] },
    jetton_transfers: { jetton_master: '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE' },
    validator_events: { stake_holder: '-1:3333333333333333333333333333333333333333333333333333333333333333' },
    actions: { action_types: ['jetton_transfer', 'ton_transfer'] },
  });
  expect(p.streamNames).toEqual(['transactions', 'actions', 'jetton_transfers', 'validator_events']);
});

test('the list form and the map form with empty values are the same', () => {
  const list = load('network: mainnet\nstreams: [actions, transactions]\nsink: { kind: duckdb, path: x }\n');
  const map = load('network: mainnet\nstreams:\n  actions:\n  transactions: {}\nsink: { kind: duckdb, path: x }\n');
  expect(map.toJSON()).toEqual(list.toJSON());
});

test('overrides replace the URL and the sink; the path follows the kind', () => {
  const text = `network: mainnet\nstreams: [transactions]\nsink: { kind: duckdb, path: data/w.duckdb }\n`;
  expect(load(text, {}, { baseUrl: 'http://127.0.0.1:9000/' }).baseUrl).toBe('http://127.0.0.1:9000');
  expect(load(text, {}, { sink: 'parquet' }).sink).toEqual({ kind: 'parquet', path: 'data/w', retainSupersededMinutes: 10, compactAfterFiles: 8, waitForReadersSeconds: 30 });
  expect(load(text, {}, { sink: 'parquet', out: 'out/pq' }).sink).toEqual({ kind: 'parquet', path: 'out/pq', retainSupersededMinutes: 10, compactAfterFiles: 8, waitForReadersSeconds: 30 });
  expect(load(text, {}, { out: 'other.duckdb' }).sink).toEqual({ kind: 'duckdb', path: 'other.duckdb', retainSupersededMinutes: 10, compactAfterFiles: 8, waitForReadersSeconds: 30 });
  const parquet = 'network: mainnet\nstreams: [transactions]\nsink: { kind: parquet, path: data/pq/ }\n';
  expect(load(parquet, {}, { sink: 'duckdb' }).sink).toEqual({ kind: 'duckdb', path: 'data/pq.duckdb', retainSupersededMinutes: 10, compactAfterFiles: 8, waitForReadersSeconds: 30 });
});

test('the pipeline is frozen all the way down', () => {
  const p = load(withKey('start: { lt: 5 }\n'), KEYED);
  expect(Object.isFrozen(p)).toBe(true);
  expect(Object.isFrozen(p.rate)).toBe(true);
  expect(Object.isFrozen(p.streams.transactions)).toBe(true);
  expect(() => {
    (p as { network: string }).network = 'testnet';
  }).toThrow(TypeError);
  expect(() => {
    (p.rate as { rps: number }).rps = 99;
  }).toThrow(TypeError);
});

test('workers: one per core but the main thread, at least one, at most 8; 0 is kept', () => {
  expect([1, 2, 4, 16].map((cores) => defaultWorkers(cores))).toEqual([1, 1, 3, 8]);
  expect(load(`network: mainnet\nworkers: 0\n${VALID_TAIL}`).workers).toBe(0);
  expect(load(`network: mainnet\nworkers: 3\n${VALID_TAIL}`).workers).toBe(3);
});

test('http timeout, retries and response cap are kept when given', () => {
  expect(load(`network: mainnet\nhttp: { timeout_seconds: 2.5, retries: 0 }\n${VALID_TAIL}`).http).toEqual({ timeoutSeconds: 2.5, retries: 0, maxResponseMb: 64 });
  expect(load(`network: mainnet\nhttp: { retries: 3 }\n${VALID_TAIL}`).http).toEqual({ timeoutSeconds: 15, retries: 3, maxResponseMb: 64 });
  expect(load(`network: mainnet\nhttp: { max_response_mb: 0.5 }\n${VALID_TAIL}`).http).toEqual({ timeoutSeconds: 15, retries: 8, maxResponseMb: 0.5 });
});
