/**
 * zod building blocks for API responses, parsed at the edge: numbers that can exceed 2^53 arrive
 * as decimal strings and leave as bigint; unknown fields and unknown enum values never reject.
 */
import { z } from 'zod';

/** Objects tolerate (and keep) fields the API adds later. */
export const looseObject = z.looseObject;

const expected =
  (what: string) =>
  (issue: { readonly input?: unknown }): string =>
    `expected ${what}, got ${show(issue.input)}`;

function decimal(pattern: RegExp, what: string, min: bigint, max: bigint) {
  return z
    .string({ error: expected(what) })
    .regex(pattern, { error: expected(what) })
    .transform((text) => BigInt(text))
    .pipe(
      z
        .bigint()
        .min(min, { error: expected(`${what} ≥ ${min}`) })
        .max(max, { error: expected(`${what} ≤ ${max}`) }),
    );
}

/** u64 as a decimal string (lt, seqno-like counters) → bigint; digits only, at most 2^64−1. */
export const uint64String = decimal(/^\d+$/, 'an unsigned 64-bit integer as a decimal string', 0n, 2n ** 64n - 1n);

/** Unsigned amount as a decimal string (nanoton, jetton amounts reach 2^120) → bigint, at most 2^256−1. */
export const uint256String = decimal(/^\d+$/, 'an unsigned integer as a decimal string', 0n, 2n ** 256n - 1n);

/** Signed 257-bit TVM-style integer as a decimal string → bigint, within ±2^255. */
export const int256String = decimal(/^-?\d+$/, 'a signed integer as a decimal string', -(2n ** 255n), 2n ** 255n - 1n);

/** Non-negative integer below 2^53 sent as a JSON number or a decimal string (block `gen_utime`) → number. */
export const safeUint = z.union(
  [
    z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    z
      .string()
      .regex(/^\d{1,15}$/)
      .transform(Number),
  ],
  { error: expected('a non-negative integer (number or decimal string)') },
);

/** A string, null, or absent (→ null). */
export const nullableString = z
  .string({ error: expected('a string or null') })
  .nullish()
  .transform((value) => value ?? null);

/** `pending` (emulated), `confirmed` (shard block), `finalized` (masterchain); others kept as text. */
export type Finality = 'pending' | 'confirmed' | 'finalized' | (string & {});

const FINALITY_BY_CODE: readonly Finality[] = ['pending', 'confirmed', 'finalized'];

/** Finality as the API's integer code or its text; an unknown value (`unknown_3`) is kept, never rejected. */
export const finality = z
  .union([z.number().int().min(0), z.string()], { error: expected('a finality code or name') })
  .transform((value): Finality => (typeof value === 'number' ? (FINALITY_BY_CODE[value] ?? `unknown_${value}`) : value));

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

/** Validates each item on its own: an invalid item becomes a reject, the rest still parse. */
export function parseItems<S extends z.ZodType>(schema: S, items: readonly unknown[]): ParsedItems<z.output<S>> {
  const result: ParsedItems<z.output<S>> = { ok: [], rejects: [] };
  for (const raw of items) {
    const parsed = schema.safeParse(raw);
    if (parsed.success) result.ok.push(parsed.data);
    else result.rejects.push({ raw, reason: describeIssues(parsed.error) });
  }
  return result;
}

/** One line per failure: `path.to.field: message; …`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.map(String).join('.') || '(item)'}: ${issue.message}`).join('; ');
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'bigint') return `${value}`;
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
