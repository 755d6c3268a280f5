import { expect, test } from 'vitest';
import { describeOptions } from '../../src/config/index.js';
import { isSnapshot } from '../../src/core/stream.js';
import { allStreams } from '../../src/streams/index.js';

const rows = describeOptions();
const row = (key: string) => rows.find((r) => r.key === key);

test('every option is described', () => {
  expect(rows.map((r) => r.key)).toEqual([
    'network',
    'base_url',
    'api_key_env',
    'rate',
    'rate.rps',
    'rate.concurrency',
    'http',
    'http.timeout_seconds',
    'http.retries',
    'http.max_response_mb',
    'workers',
    'start',
    'start.lt',
    'start.utime',
    'start.mc_seqno',
    'lag',
    'lag.mc_blocks',
    'actions_overlap',
    'actions_overlap.mc_blocks',
    'streams',
    // Each stream in the registry's order, then its filters in the order its file declares them.
    ...allStreams.flatMap((stream) => [
      `streams.${stream.name}`,
      ...Object.keys(stream.filters).map((name) => `streams.${stream.name}.${name}`),
      ...(isSnapshot(stream) ? [`streams.${stream.name}.refresh`, `streams.${stream.name}.refresh.every`] : []),
    ]),
    'sink',
    'sink.kind',
    'sink.path',
    'sink.retain_superseded_minutes',
    'sink.compact_after_files',
    'sink.wait_for_readers_seconds',
  ]);
  for (const r of rows) {
    expect(r.description, r.key).toMatch(/\S.*\.$/);
    expect(r.type, r.key).not.toBe('value');
  }
});

test('the first streams and their filters are described as their files declare them', () => {
  expect(rows.map((r) => r.key).filter((key) => key.startsWith('streams.')).slice(0, 9)).toEqual([
    'streams.transactions',
    'streams.transactions.accounts',
    'streams.actions',
    'streams.actions.action_types',
    'streams.jetton_transfers',
    'streams.jetton_transfers.jetton_master',
    'streams.jetton_transfers.owner_addresses',
    'streams.validator_events',
    'streams.validator_events.stake_holder',
  ]);
});

test('types and defaults come from the schema', () => {
  expect(row('network')).toMatchObject({ type: 'mainnet | testnet', default: 'required' });
  expect(row('sink.kind')).toMatchObject({ type: 'duckdb | parquet', default: 'required' });
  expect(row('lag.mc_blocks')).toMatchObject({ type: 'integer ≥ 0', default: '2' });
  expect(row('actions_overlap.mc_blocks')?.default).toBe('150');
  expect(row('sink.retain_superseded_minutes')).toMatchObject({ type: 'integer ≥ 0', default: '10' });
  expect(row('sink.compact_after_files')).toMatchObject({ type: 'integer ≥ 0', default: '8' });
  expect(row('rate.rps')?.default).toBe('10 with an API key, else 1');
  expect(row('rate.concurrency')?.default).toBe('min(16, max(1, ceil(rps / 2)))');
  expect(row('base_url')?.default).toBe('https://toncenter.com (mainnet), https://testnet.toncenter.com (testnet)');
  expect(row('start')?.default).toBe('the settled tip at the first run');
  expect(row('streams.transactions.accounts')).toMatchObject({ type: 'list of addresses', default: '—' });
});
