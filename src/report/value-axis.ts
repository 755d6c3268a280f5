/**
 * A chart's value axis: round ticks from 0 to at least the largest value (0, 20k, 40k, 60k), labelled
 * short and in the unit the magnitude calls for, so a reader compares bars against gridlines.
 */
import { formatNumber, formatTick, timeUnit } from './units.js';

export interface ValueAxis {
  /** Ascending from 0; the last is the chart's top. */
  readonly ticks: readonly number[];
  label(value: number): string;
}

/** About four round steps (1, 2 or 5 times a power of ten) from 0 up to `max` or just past it. */
export function niceTicks(max: number, options: { readonly integer?: boolean } = {}): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(options.integer ? 1 : 0, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough * (1 - 1e-9))!);
  const steps = Math.max(1, Math.ceil(max / step - 1e-9));
  return Array.from({ length: steps + 1 }, (_, i) => Number((i * step).toPrecision(12)));
}

/** For counts (rows): whole steps. */
export function countAxis(max: number): ValueAxis {
  return { ticks: niceTicks(max, { integer: true }), label: formatTick };
}

/** For rates (rows/s). */
export function rateAxis(max: number): ValueAxis {
  return { ticks: niceTicks(max), label: formatTick };
}

/** For seconds, ticked and labelled in s, min, h or d by the magnitude: `0 d`, `100 d`, `200 d` (days grouped in full: `5,000 d`). */
export function durationAxis(maxSeconds: number): ValueAxis {
  const unit = timeUnit(maxSeconds);
  return {
    ticks: niceTicks(maxSeconds / unit.seconds).map((tick) => tick * unit.seconds),
    label: (seconds) => `${formatNumber(seconds / unit.seconds)} ${unit.name}`,
  };
}
