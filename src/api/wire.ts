/**
 * zod building blocks for API responses, parsed at the edge: numbers that can exceed 2^53 arrive
 * as decimal strings and leave as bigint; unknown fields and unknown enum values never reject.
 */
import { z } from 'zod';
import { JsonNumber } from '../core/exact-json.js';
import { storableProblem } from '../core/storable.js';
import { CANONICAL_INTEGER, nullish, refused, showInput, wireValue, type ValueParser, type WireProblem } from '../core/wire-value.js';
import { activeRedactor } from '../core/secret-scope.js';
import { UNDECIDED, itemReader } from './item-reader.js';

/** Objects tolerate (and keep) fields the API adds later. */
export const looseObject = z.looseObject;

const expected =
  (what: string) =>
  (issue: { readonly input?: unknown }): string =>
    `expected ${what}, got ${showInput(issue.input)}`;

function decimal(pattern: RegExp, what: string, min: bigint, max: bigint): ValueParser<bigint> {
  const maxLength = Math.max(String(min).length, String(max).length);
  return (input) => {
    if (typeof input !== 'string' || !pattern.test(input)) return refused(what, input);
    // A longer text is out of range; BigInt's parse time grows with the square of the length.
    if (input.length > maxLength) return refused(`${what} ≤ ${max}`, input);
    const value = BigInt(input);
    if (value < min) return refused(`${what} ≥ ${min}`, value);
    if (value > max) return refused(`${what} ≤ ${max}`, value);
    return value;
  };
}

/** Digits without leading zeros (canonical: "007" is refused, not read as 7). */
const UNSIGNED = /^(?:0|[1-9]\d*)$/;

/** u64 as a decimal string (lt, seqno-like counters) → bigint; digits only, at most 2^64−1. */
export const uint64Decimal = decimal(UNSIGNED, 'an unsigned 64-bit integer as a decimal string', 0n, 2n ** 64n - 1n);
export const uint64String = wireValue(uint64Decimal);

/** Unsigned amount as a decimal string (nanoton, jetton amounts reach 2^120) → bigint, at most 2^256−1. */
export const uint256Decimal = decimal(UNSIGNED, 'an unsigned integer as a decimal string', 0n, 2n ** 256n - 1n);
export const uint256String = wireValue(uint256Decimal);

/** Signed 257-bit TVM-style integer as a decimal string → bigint, within ±2^255. */
export const int256String = wireValue(decimal(CANONICAL_INTEGER, 'a signed integer as a decimal string', -(2n ** 255n), 2n ** 255n - 1n));

/** Non-negative integer below 2^53 sent as a JSON number or a decimal string (block `gen_utime`) → number. */
export const safeUint = z.union(
  [
    z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    z
      .string()
      .regex(/^(?:0|[1-9]\d{0,14})$/)
      .transform(Number),
  ],
  { error: expected('a non-negative integer (number or decimal string)') },
);

/** A string, null, or absent (→ null). */
export const nullableString = nullish(wireValue((input) => (typeof input === 'string' ? input : refused('a string or null', input))));

/** `pending` (emulated), `confirmed` (shard block), `finalized` (masterchain); others kept as text. */
export type Finality = 'pending' | 'confirmed' | 'finalized' | (string & {});

const FINALITY_BY_CODE: readonly Finality[] = ['pending', 'confirmed', 'finalized'];

/** Finality as the API's integer code or its text; an unknown value (`unknown_3`) is kept, never rejected. */
export const finality = wireValue((input): Finality | WireProblem => {
  if (typeof input === 'string') return input;
  if (Number.isInteger(input) && (input as number) >= 0) return FINALITY_BY_CODE[input as number] ?? `unknown_${input as number}`;
  return refused('a finality code or name', input);
});

/** `address_book` value: the user-friendly form of a raw address, plus its DNS name and interfaces. */
export const addressBookEntry = looseObject({
  user_friendly: nullableString,
  domain: nullableString,
  interfaces: z.array(z.string()).nullish().transform((value) => value ?? []),
});

export const addressBook = z.record(z.string(), addressBookEntry);

/** One entry of `metadata[address].token_info`. */
export const tokenInfo = looseObject({
  valid: z.boolean().optional(),
  type: z.string().optional(),
  name: z.string().optional(),
  symbol: z.string().optional(),
  description: z.string().optional(),
  image: z.string().optional(),
  nft_index: z.string().optional(),
  is_nsfw: z.boolean().optional(),
  is_scam: z.boolean().optional(),
  extra: z.record(z.string(), z.unknown()).optional(),
});

/** `metadata` value: whether the address is indexed, and what is known about its token. */
export const metadataEntry = looseObject({
  is_indexed: z.boolean(),
  token_info: z.array(tokenInfo).nullish().transform((value) => value ?? []),
});

export const metadata = z.record(z.string(), metadataEntry);

export interface ParsedItems<T> {
  readonly ok: T[];
  /** Items that failed validation, with the raw JSON for the dead-letter table. */
  readonly rejects: { readonly raw: unknown; readonly reason: string }[];
}

/**
 * Validates each item on its own: an invalid item becomes a reject, the rest still parse. An item
 * holding text no sink can store as sent (a lone surrogate anywhere in it) is a reject too. A reject
 * is kept in the warehouse, so the secret scope's keys are redacted from it. Items are read by the
 * schema's compiled reader; the schema itself parses only those the reader leaves undecided, so it
 * alone words every reason.
 */
export function parseItems<S extends z.ZodType>(schema: S, items: readonly unknown[]): ParsedItems<z.output<S>> {
  const result: ParsedItems<z.output<S>> = { ok: [], rejects: [] };
  const redactor = activeRedactor();
  const reader = itemReader(schema);
  for (const raw of items) {
    const unstorable = storableProblem(raw);
    if (unstorable !== undefined) {
      result.rejects.push({ raw: redactor.redactValue(raw), reason: redactor.redact(unstorable) });
      continue;
    }
    const read = reader(raw);
    if (read !== UNDECIDED) {
      result.ok.push(read);
      continue;
    }
    const parsed = schema.safeParse(raw, { reportInput: true });
    if (parsed.success) result.ok.push(parsed.data);
    else result.rejects.push({ raw: redactor.redactValue(raw), reason: redactor.redact(describeIssues(parsed.error)) });
  }
  return result;
}

/** One line per failure: `path.to.field: message; …`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.map(String).join('.') || '(item)'}: ${issueMessage(issue)}`).join('; ');
}

/** zod's message, except that a JSON number kept as text (`JsonNumber`) is named by that text. */
function issueMessage(issue: z.core.$ZodIssue): string {
  const input: unknown = issue.input;
  return issue.code === 'invalid_type' && input instanceof JsonNumber ? `expected ${issue.expected}, got the JSON number ${input.source}` : issue.message;
}
