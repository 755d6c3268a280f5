/** Numbers, durations and moments as the report writes them for people. */

/** A number in full, grouped: `1,916,320`, `12.5`. */
export function formatNumber(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

const SCALES = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'k'],
] as const;

/** An axis tick, short: `0`, `250`, `40k`, `1.5M`, `0.02`; beyond trillions grouped (`1,200T`). */
export function formatTick(value: number): string {
  const [divisor, suffix] = SCALES.find(([scale]) => Math.abs(value) >= scale) ?? [1, ''];
  return `${(value / divisor).toLocaleString('en-US', { maximumSignificantDigits: 6 })}${suffix}`;
}

/** A unit a time axis counts in. */
export interface TimeUnit {
  readonly name: 's' | 'min' | 'h' | 'd';
  readonly seconds: number;
}

const TIME_UNITS: readonly TimeUnit[] = [
  { name: 's', seconds: 1 },
  { name: 'min', seconds: 60 },
  { name: 'h', seconds: 3600 },
  { name: 'd', seconds: 86400 },
];

/** The unit for an axis up to `maxSeconds`: the largest of which it spans at least two. */
export function timeUnit(maxSeconds: number): TimeUnit {
  return [...TIME_UNITS].reverse().find((unit) => maxSeconds >= 2 * unit.seconds) ?? TIME_UNITS[0]!;
}

/**
 * A duration or distance in time, to the second, in its two largest units: `0 s`, `42 s`,
 * `4 min 37 s`, `2 h 5 min`, `329 d 18 h` (a zero second unit is left out: `3 h`).
 */
export function formatDuration(seconds: number): string {
  const sign = seconds < 0 ? '-' : '';
  const whole = Math.round(Math.abs(seconds));
  const two = (big: number, bigUnit: string, small: number, smallUnit: string): string =>
    `${sign}${big.toLocaleString('en-US')} ${bigUnit}${small === 0 ? '' : ` ${small} ${smallUnit}`}`;
  if (whole < 60) return `${sign}${whole} s`;
  if (whole < 3600) return two(Math.floor(whole / 60), 'min', whole % 60, 's');
  if (whole < 86400) return two(Math.floor(whole / 3600), 'h', Math.floor((whole % 3600) / 60), 'min');
  return two(Math.floor(whole / 86400), 'd', Math.floor((whole % 86400) / 3600), 'h');
}

/** An ISO moment (`2026-01-01T02:29:53Z`, any fraction) to the second: `2026-01-01 02:29:53 UTC`. */
export function formatMoment(iso: string): string {
  return `${iso.replace('T', ' ').slice(0, 19)} UTC`;
}
