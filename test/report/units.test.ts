/** How the report writes numbers, durations and axes for people (src/report/units.ts, value-axis.ts). */
import { describe, expect, it } from 'vitest';
import { formatDuration, formatMoment, formatNumber, formatTick, timeUnit } from '../../src/report/units.js';
import { countAxis, durationAxis, niceTicks, rateAxis } from '../../src/report/value-axis.js';

const labels = (axis: { ticks: readonly number[]; label(value: number): string }): string[] => axis.ticks.map((tick) => axis.label(tick));

describe('formatDuration', () => {
  it.each([
    [0, '0 s'],
    [0.4, '0 s'],
    [42, '42 s'],
    [59.6, '1 min'],
    [60, '1 min'],
    [277, '4 min 37 s'],
    [3599, '59 min 59 s'],
    [3600, '1 h'],
    [7500, '2 h 5 min'],
    [86399, '23 h 59 min'],
    [86400, '1 d'],
    [28_490_151, '329 d 17 h'],
    [1e9, '11,574 d 1 h'],
    [-5, '-5 s'],
    [-7500, '-2 h 5 min'],
  ])('%s s is %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});

describe('timeUnit', () => {
  it.each([
    [0, 's'],
    [119, 's'],
    [120, 'min'],
    [7199, 'min'],
    [7200, 'h'],
    [172_799, 'h'],
    [172_800, 'd'],
    [1e12, 'd'],
  ])('an axis up to %s s counts in %s', (max, unit) => {
    expect(timeUnit(max).name).toBe(unit);
  });
});

describe('formatTick and formatNumber', () => {
  it.each([
    [0, '0'],
    [5, '5'],
    [0.02, '0.02'],
    [0.30000000000000004, '0.3'],
    [250, '250'],
    [1000, '1k'],
    [40_000, '40k'],
    [500_000, '500k'],
    [1_500_000, '1.5M'],
    [2e9, '2B'],
    [3e12, '3T'],
    [1.2e15, '1,200T'],
  ])('the tick %s reads %s', (value, text) => {
    expect(formatTick(value)).toBe(text);
  });

  it('writes numbers in full, grouped, to one decimal', () => {
    expect([1_916_320, 12.46, 0, 1e15].map(formatNumber)).toEqual(['1,916,320', '12.5', '0', '1,000,000,000,000,000']);
  });

  it('writes a moment to the second in UTC', () => {
    expect(formatMoment('2026-01-01T02:29:53.123Z')).toBe('2026-01-01 02:29:53 UTC');
  });
});

describe('value axes', () => {
  it('ticks about four round steps from 0 to at least the largest value', () => {
    expect(niceTicks(45_576)).toEqual([0, 20_000, 40_000, 60_000]);
    expect(niceTicks(1_916_320)).toEqual([0, 500_000, 1_000_000, 1_500_000, 2_000_000]);
    expect(niceTicks(100)).toEqual([0, 50, 100]);
    expect(niceTicks(0.07)).toEqual([0, 0.02, 0.04, 0.06, 0.08]);
    expect(niceTicks(1e15)).toEqual([0, 5e14, 1e15]);
  });

  it('has a top for nothing at all', () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(Number.NaN)).toEqual([0, 1]);
  });

  it('counts rows in whole steps', () => {
    expect(labels(countAxis(1))).toEqual(['0', '1']);
    expect(labels(countAxis(3))).toEqual(['0', '1', '2', '3']);
    expect(labels(countAxis(1_916_320))).toEqual(['0', '500k', '1M', '1.5M', '2M']);
  });

  it('counts rates in fractions where they are small', () => {
    expect(labels(rateAxis(0.07))).toEqual(['0', '0.02', '0.04', '0.06', '0.08']);
    expect(labels(rateAxis(2984))).toEqual(['0', '1k', '2k', '3k']);
  });

  it('labels distances in the unit their magnitude calls for', () => {
    expect(labels(durationAxis(45))).toEqual(['0 s', '20 s', '40 s', '60 s']);
    expect(labels(durationAxis(600))).toEqual(['0 min', '5 min', '10 min']);
    expect(labels(durationAxis(5 * 3600))).toEqual(['0 h', '2 h', '4 h', '6 h']);
    expect(labels(durationAxis(28_936_964))).toEqual(['0 d', '100 d', '200 d', '300 d', '400 d']);
    expect(labels(durationAxis(150))).toEqual(['0 min', '1 min', '2 min', '3 min']);
    expect(labels(durationAxis(120))).toEqual(['0 min', '0.5 min', '1 min', '1.5 min', '2 min']);
  });
});
