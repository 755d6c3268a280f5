import type { FaultProfile } from './faults.js';

export type FaultKind =
  | 'storm429'
  | 'http5xx'
  | 'reset'
  | 'stall'
  | 'truncate'
  | 'malformedJson'
  | 'unknownFields'
  | 'unknownEnum';

/** What the faults do to one request. */
export interface FaultPlan {
  /** Answer this status instead of calling the handler (429 storm or 5xx). */
  readonly rejectStatus: number | undefined;
  readonly reset: boolean;
  readonly stalled: boolean;
  /** Stall plus sampled latency. */
  readonly delayMs: number;
  readonly truncate: boolean;
  readonly malformedJson: boolean;
  readonly unknownFields: boolean;
  readonly unknownEnum: boolean;
}

export const NO_FAULTS: FaultPlan = {
  rejectStatus: undefined,
  reset: false,
  stalled: false,
  delayMs: 0,
  truncate: false,
  malformedJson: false,
  unknownFields: false,
  unknownEnum: false,
};

const STATUSES_5XX = [500, 502, 503, 504] as const;
/** Standard normal quantile at 0.99. */
const Z99 = 2.3263478740408408;
/** Caps the tail so one unlucky draw cannot hold a request for hours. */
const MAX_LATENCY_FACTOR = 10;

/** Log-normal with the given median and 99th percentile, from two uniforms in [0, 1). */
export function sampleLatency(medianMs: number, p99Ms: number, u1: number, u2: number): number {
  const sigma = Math.log(p99Ms / medianMs) / Z99;
  const z = Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
  return Math.min(medianMs * Math.exp(sigma * z), p99Ms * MAX_LATENCY_FACTOR);
}

/**
 * Decides the faults of each request from the injected RNG. Every configured kind draws the same
 * number of values on every request, so a run with the same request order is reproducible.
 */
export class FaultInjector {
  #stormUntil = -Infinity;

  constructor(
    private readonly profile: FaultProfile,
    private readonly random: () => number,
    private readonly now: () => number,
  ) {}

  plan(): FaultPlan {
    const p = this.profile;
    const hit = (rate: number | undefined): boolean => rate !== undefined && this.random() < rate;
    const storm = this.#storm();
    const reset = hit(p.reset);
    const http5xx = hit(p.http5xx);
    const status5xx = p.http5xx === undefined ? 500 : this.#pick5xx();
    const stalled = hit(p.stall?.rate);
    const latency = p.latency ? sampleLatency(p.latency.medianMs, p.latency.p99Ms, this.random(), this.random()) : 0;
    const truncate = hit(p.truncate);
    const malformedJson = hit(p.malformedJson);
    const unknownFields = hit(p.unknownFields);
    const unknownEnum = hit(p.unknownEnum);
    return {
      rejectStatus: storm ? 429 : http5xx && !reset ? status5xx : undefined,
      reset: reset && !storm,
      stalled,
      delayMs: (stalled ? (p.stall?.ms ?? 0) : 0) + latency,
      truncate,
      malformedJson: malformedJson && !truncate,
      unknownFields,
      unknownEnum,
    };
  }

  #storm(): boolean {
    const storm = this.profile.storm429;
    if (storm === undefined) return false;
    const now = this.now();
    const starts = this.random() < storm.rate;
    if (now < this.#stormUntil) return true;
    if (starts) this.#stormUntil = now + storm.durationMs;
    return starts;
  }

  #pick5xx(): number {
    const i = Math.min(STATUSES_5XX.length - 1, Math.floor(this.random() * STATUSES_5XX.length));
    return STATUSES_5XX[i] ?? 500;
  }
}
