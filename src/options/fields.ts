import { z } from 'zod';
import { readAddress } from '../transform/address.js';
import { describeProblem, problem, type Expectation } from './expect.js';
import { oneOf } from './show.js';
import { unknownName, type Naming } from './suggest.js';
import { isoToUnixSeconds } from './utime.js';
import './meta.js';

/** A map that accepts only the keys of `shape`; an unknown key gets the nearest valid one suggested. */
export function closedMap<Shape extends z.ZodRawShape>(shape: Shape, naming: Naming) {
  const valid = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? unknownName(issue.keys[0] ?? '', valid, naming)
        : describeProblem({ expected: naming.expected ?? `a map of ${naming.listName} (${valid.join(', ')})` }, issue.input),
  });
}

/** One of a fixed set of words. */
export function choice<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: problem({ expected: oneOf(values.map((v) => JSON.stringify(v))) }) });
}

/** A whole number ≥ `min` (safe integers only). */
export function wholeNumber(min: number, expected: string) {
  const error = problem({ expected });
  return z.int({ error }).min(min, { error });
}

/** A number > 0 (not necessarily whole). */
export function positiveNumber(expected: string) {
  const error = problem({ expected });
  return z.number({ error }).positive({ error });
}

/** Text with at least one non-blank character. */
export function text(expected: string) {
  const error = problem({ expected });
  return z.string({ error }).trim().min(1, { error });
}

/** Text matching `pattern`; `expectation` words both a wrong type and a wrong shape. */
export function matching(pattern: RegExp, expectation: Expectation) {
  const error = problem(expectation);
  return z.string({ error }).regex(pattern, { error });
}

const ADDRESS = 'an address (raw wc:HEX with 64 hex digits, or 48-character user-friendly)';

/** An account address in either form, normalised to raw upper case `wc:HEX`. */
export function address() {
  return z.string({ error: problem({ expected: ADDRESS }) }).transform((value, ctx) => {
    const result = readAddress(value);
    if ('raw' in result) return result.raw;
    ctx.addIssue({ code: 'custom', input: value, message: describeProblem({ expected: ADDRESS, fix: result.reason }, value) });
    return z.NEVER;
  });
}

/** A non-empty list whose repeated items (after normalisation) count once. */
export function list<T extends z.ZodType>(item: T, expected: string) {
  const error = problem({ expected, fix: 'remove the key to take everything' });
  return z
    .array(item, { error })
    .min(1, { error })
    .transform((items) => [...new Set(items)]);
}

/** An optional stream filter of one address, documented by `description`. */
export function optionalAddress(description: string) {
  return address().optional().meta({ description, typeLabel: 'address' });
}

/** An optional stream filter of a list of addresses, documented by `description`. */
export function optionalAddresses(description: string) {
  return list(address(), 'a list of addresses').optional().meta({ description, typeLabel: 'list of addresses', listOf: 'addresses' });
}

const UNIX_OR_ISO =
  'unix seconds (an integer ≥ 0) or an ISO 8601 date or date-time such as 2024-01-01 or 2024-01-01T12:00:00Z';

/** A moment in chain time: unix seconds, or an ISO date/time string (UTC unless it has an offset). */
export function utime() {
  return z.unknown().transform((value, ctx) => {
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
    const seconds = typeof value === 'string' ? isoToUnixSeconds(value.trim()) : undefined;
    if (seconds !== undefined && seconds >= 0) return seconds;
    ctx.addIssue({ code: 'custom', input: value, message: describeProblem({ expected: UNIX_OR_ISO }, value) });
    return z.NEVER;
  });
}

const LT = 'a logical time, an integer ≥ 0 (quote it if it has more than 15 digits)';

/** A logical time: an integer, or a string of digits for values beyond 2^53. */
export function logicalTime() {
  return z.unknown().transform((value, ctx) => {
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
    if (typeof value === 'string' && /^\d{1,20}$/.test(value) && BigInt(value) < 2n ** 64n) return BigInt(value);
    ctx.addIssue({ code: 'custom', input: value, message: describeProblem({ expected: LT }, value) });
    return z.NEVER;
  });
}

const DURATION = 'a duration such as 30m, 6h or 1d (s, m, h, d), or whole seconds';
const DURATION_UNITS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** A span of time in whole seconds: `30m`, `6h`, `1d`, or a number of seconds. */
export function duration() {
  return z.unknown().transform((value, ctx) => {
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
    const match = typeof value === 'string' ? /^(\d{1,9})\s*([smhd])$/.exec(value.trim()) : null;
    if (match !== null) return Number(match[1]) * DURATION_UNITS[match[2]!]!;
    ctx.addIssue({ code: 'custom', input: value, message: describeProblem({ expected: DURATION }, value) });
    return z.NEVER;
  });
}
