import { show } from './show.js';

/** What a field wants, and how to fix a wrong value when the expectation alone does not say. */
export interface Expectation {
  /** Completes "expected …", e.g. `an integer ≥ 0`. */
  readonly expected: string;
  /** Completes the message after a colon, e.g. `drop the trailing /api/v3`. @default none */
  readonly fix?: string;
  /** Never echo the value (it may be a key pasted in the wrong place). @default false */
  readonly secret?: boolean;
}

/** `expected X, got Y[: fix]`, or `missing: expected X[: fix]` when the key is absent. */
export function describeProblem(expectation: Expectation, input: unknown): string {
  const { expected, fix, secret = false } = expectation;
  const got = secret ? 'a value not shown here (it may be a secret)' : show(input);
  const head = input === undefined ? `missing: expected ${expected}` : `expected ${expected}, got ${got}`;
  return fix === undefined ? head : `${head}: ${fix}`;
}

/** A zod `error` option that words every issue of one field with `describeProblem`. */
export function problem(expectation: Expectation): (issue: { readonly input?: unknown }) => string {
  return (issue) => describeProblem(expectation, issue.input);
}
