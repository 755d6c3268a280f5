import { expect, test } from 'vitest';
import { parseAddress } from '../../src/options/address.js';
import { levenshtein, nearest } from '../../src/options/suggest.js';
import { isoToUnixSeconds } from '../../src/options/utime.js';

test('levenshtein', () => {
  expect(levenshtein('', 'abc')).toBe(3);
  expect(levenshtein('transactons', 'transactions')).toBe(1);
  expect(levenshtein('kitten', 'sitting')).toBe(3);
});

test('nearest suggests only likely typos', () => {
  const keys = ['network', 'base_url', 'api_key_env', 'rate', 'streams', 'sink'];
  expect(nearest('netwrk', keys)).toBe('network');
  expect(nearest('base-url', keys)).toBe('base_url');
  expect(nearest('baseUrl', keys)).toBe('base_url');
  expect(nearest('STREAMS', keys)).toBe('streams');
  expect(nearest('colour', keys)).toBeUndefined();
});

test.each([
  ['EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N', '0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8'],
  ['0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8', '0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8'],
  ['-1:3333333333333333333333333333333333333333333333333333333333333333', '-1:3333333333333333333333333333333333333333333333333333333333333333'],
  ['EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs', '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE'],
  ['EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id/sDs', '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE'],
])('address %s', (text, raw) => {
  expect(parseAddress(text)).toEqual({ raw });
});

test.each(['', '0:ABC', '0:' + 'g'.repeat(64), '0:' + 'a'.repeat(63), '1000:' + 'a'.repeat(64), 'EQ' + 'A'.repeat(46)])(
  'not an address: %j',
  (text) => {
    expect(parseAddress(text)).toHaveProperty('reason');
  },
);

test.each([
  ['2024-01-01', 1704067200],
  ['2024-01-01T00:00:00Z', 1704067200],
  ['2024-01-01 06:30', 1704090600],
  ['2024-01-01T02:00:00+0200', 1704067200],
  ['2024-02-29', 1709164800],
])('ISO %s', (text, seconds) => {
  expect(isoToUnixSeconds(text)).toBe(seconds);
});

test.each(['2023-02-29', '2024-13-01', '2024-1-1', 'yesterday', '1704067200', '2024-01-01T25:00'])('not a date: %s', (text) => {
  expect(isoToUnixSeconds(text)).toBeUndefined();
});
