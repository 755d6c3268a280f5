import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allStreams } from '../../src/streams/index.js';
import { expect, test } from 'vitest';
import { defaultWorkers } from '../../src/config/defaults.js';
import { loadPipeline } from '../../src/config/index.js';

const DIR = 'pipelines';
const ENV = { TONCENTER_API_KEY: 'test-key', CHAIN_ETL_DEMO_KEY: 'demo-key' };
const files = readdirSync(DIR).filter((name) => name.endsWith('.yaml'));

test('the examples are all there', () => {
  expect(files.sort()).toEqual([
    'account-history.yaml',
    'blocks.yaml',
    'cron-sync.yaml',
    'demo.yaml',
    'jetton-burns.yaml',
    'jetton-transfers.yaml',
    'nft-transfers.yaml',
    'token-holdings.yaml',
    'traces.yaml',
    'validator-events.yaml',
  ]);
});

test.each(files)('%s loads and says what it is for', (name) => {
  const path = join(DIR, name);
  expect(readFileSync(path, 'utf8')).toMatch(/^# \S/);
  const pipeline = loadPipeline(path, {}, ENV);
  expect(pipeline.file).toBe(path);
  expect(pipeline.streamNames.length).toBeGreaterThan(0);
});

test('demo.yaml: the devnet, all streams, from its first block', () => {
  const p = loadPipeline(join(DIR, 'demo.yaml'), { baseUrl: 'http://127.0.0.1:40123' }, ENV);
  expect(p.toJSON()).toEqual({
    file: 'pipelines/demo.yaml',
    network: 'mainnet',
    baseUrl: 'http://127.0.0.1:40123',
    apiKeyEnv: 'CHAIN_ETL_DEMO_KEY',
    apiKey: '[redacted]',
    rate: { rps: 50, concurrency: 8 },
    http: { timeoutSeconds: 15, retries: 8, maxResponseMb: 64 },
    workers: defaultWorkers(),
    start: { kind: 'mc_seqno', mcSeqno: 50_000_000 },
    lag: { mcBlocks: 0 },
    actionsOverlap: { mcBlocks: 150 },
    streams: Object.fromEntries(allStreams.map((stream) => [stream.name, {}])),
    sink: { kind: 'duckdb', path: 'data/demo.duckdb', retainSupersededMinutes: 10, compactAfterFiles: 8, waitForReadersSeconds: 30 },
  });
  expect(p.apiKey).toBe('demo-key');
});

test('the public examples', () => {
  const load = (name: string) => loadPipeline(join(DIR, name), {}, ENV);
  expect(load('account-history.yaml').streams).toEqual({
    transactions: { accounts: ['0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8'] },
  });
  const usdt = load('jetton-transfers.yaml');
  expect(usdt.streams).toEqual({
    jetton_transfers: { jetton_master: '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE' },
  });
  expect(usdt.sink.kind).toBe('parquet');
  expect(usdt.start).toEqual({ kind: 'utime', utime: 1735689600 });
  expect(load('validator-events.yaml').streamNames).toEqual(['validator_events']);
  expect(load('jetton-burns.yaml').streams).toEqual({
    jetton_transfers: { jetton_master: '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE' },
    jetton_burns: { jetton_master: '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE' },
  });
  const usernames = load('nft-transfers.yaml');
  expect(usernames.streams).toEqual({
    nft_transfers: { collection: '0:80D78A35F955A14B679FAA887FF4CD5BFC0F43B4A4EEA2A7E6927F3701B273C2' },
    nft_collections: { addresses: ['0:80D78A35F955A14B679FAA887FF4CD5BFC0F43B4A4EEA2A7E6927F3701B273C2'] },
  });
  expect(usernames.refresh).toEqual({ nft_collections: 86_400 });
  expect([usernames.sink.kind, usernames.start]).toEqual(['duckdb', { kind: 'utime', utime: 1767225600 }]);
  const blocks = load('blocks.yaml');
  expect(blocks.streams).toEqual({ blocks: {} });
  expect([blocks.sink.kind, blocks.start]).toEqual(['parquet', { kind: 'utime', utime: 1767225600 }]);
  const wallet = '0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8';
  expect(load('traces.yaml').streams).toEqual({ traces: { account: wallet }, transactions: { accounts: [wallet] } });
  const holdings = load('token-holdings.yaml');
  expect(holdings.streamNames).toEqual(['jetton_transfers', 'jetton_masters', 'jetton_wallets', 'nft_items']);
  expect(holdings.refresh).toEqual({ jetton_masters: 86_400, jetton_wallets: 3600, nft_items: 86_400 });
  expect(holdings.streams.jetton_wallets).toEqual({ owner_addresses: ['0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8'] });
  const cron = load('cron-sync.yaml');
  expect(cron.start).toEqual({ kind: 'tip' });
  expect(cron.streamNames).toEqual(['transactions', 'actions', 'jetton_transfers', 'validator_events', 'blocks', 'jetton_burns', 'nft_transfers']);
  for (const name of files.filter((f) => f !== 'demo.yaml')) expect(load(name).baseUrl).toBe('https://toncenter.com');
});
