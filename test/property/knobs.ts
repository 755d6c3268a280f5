/**
 * The ways the generated server misbehaves, each a knob fast-check draws, and the kinds still waiting
 * for their fix on main (PENDING: left out of generation, each kept as an `it.fails` seed).
 */
import type { StreamName } from './truth.js';

export const KNOB_KINDS = [
  /** Items sharing a position come in a fresh random order, where the service promises one (transactions, actions). */
  'shuffleTies',
  /** Pages sorted descending whatever `sort` says. */
  'descending',
  /** A phantom item (not in the truth) just outside the requested bounds. */
  'outsideRange',
  /** Some items come twice in a page. */
  'duplicates',
  /** `offset` is ignored (read as 0). */
  'ignoreOffset',
  /** More items than `limit`. */
  'overLimit',
  /** The previous page of the stream again instead of the one asked for. */
  'repeatPage',
  /** One item with an unsafe integer (transactions) or a lone surrogate (actions, others). */
  'poison',
  /** HTTP 500 with the service's timeout body instead of the page. */
  'http5xx',
  /** The page's body cut in half (a connection closed mid-body). */
  'truncatedBody',
  /** HTTP 200 with an empty list and the service's error beside it: an error, never an empty page. */
  'errorBody',
  /**
   * Some keys are listed twice while the server misbehaves: at their position and at an earlier one,
   * as the service lists a key before it moves on (an action's trace grows); the later is the truth.
   */
  'moveKey',
  /** One item is silently left out: no client can notice, so the judge must (never generated; its self-check). */
  'loseItem',
] as const;

export type KnobKind = (typeof KNOB_KINDS)[number];

export interface Knob {
  readonly kind: KnobKind;
  readonly stream: StreamName;
  /** Share of the stream's list requests it acts on. */
  readonly rate: number;
}

/** How the server misbehaves in one case. */
export interface Misbehaviour {
  readonly knobs: readonly Knob[];
  /** Every other v3 request is answered by a replica this many masterchain blocks behind (the head moves backwards). */
  readonly replicaLag: number;
  /** Share of `/masterchainInfo` answers whose newest block ends 10^12 lt too high (a glitched tip). @default 0 */
  readonly tipGlitch?: number;
}

/** Misbehaviour a client cannot detect: only the judge's self-check uses it. */
export const UNDETECTABLE: readonly KnobKind[] = ['loseItem'];

export const HEALTHY: Misbehaviour = { knobs: [], replicaLag: 0, tipGlitch: 0 };

/** How far a glitched tip's end_lt lies past the true one. */
export const TIP_GLITCH_LT = 10n ** 12n;

/**
 * Knob kinds whose fix is not on main yet, with the class that owns it: generation skips them and
 * each has an `it.fails` regression seed in adversarial.test.ts. Remove an entry when its fix lands.
 */
export const PENDING: Readonly<Partial<Record<KnobKind, string>>> = {};

export function describeMisbehaviour(misbehaviour: Misbehaviour): string {
  const knobs = misbehaviour.knobs.map((knob) => `${knob.kind}@${knob.stream}×${knob.rate.toFixed(2)}`);
  if (misbehaviour.replicaLag > 0) knobs.push(`replica ${misbehaviour.replicaLag} behind`);
  if ((misbehaviour.tipGlitch ?? 0) > 0) knobs.push(`tip glitched ×${misbehaviour.tipGlitch!.toFixed(2)}`);
  return knobs.length === 0 ? 'healthy' : knobs.join(', ');
}
