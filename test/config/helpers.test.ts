import { expect, test } from 'vitest';
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
