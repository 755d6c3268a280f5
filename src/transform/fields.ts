/**
 * zod fields for item wire schemas, built from src/api/wire.ts and checked against the column kind
 * each value is stored as: an item that parses always yields rows the sink accepts, and an item that
 * would not becomes a reject at the edge instead.
 */
import { z } from 'zod';
import type { ColumnKind } from '../core/column-kind.js';
import { amount, hash, int32, int64, timestamptz, uint64 } from '../core/column-kinds.js';
import { uint256String, uint64String } from '../api/wire.js';
import { toRawAddress } from './address.js';
import { parseOpcode } from './opcode.js';

/** `schema`, plus the check of the kind its values are stored as. */
export function kindChecked<T>(schema: z.ZodType<T>, kind: Pick<ColumnKind<T>, 'problem'>): z.ZodType<T> {
  return schema.superRefine((value, ctx) => {
    const found = kind.problem(value);
    if (found !== undefined) ctx.addIssue({ code: 'custom', message: found });
  });
}

/** A value, null, or an absent key (→ null): the API's nullable and `omitempty` fields. */
export function nullish<T>(schema: z.ZodType<T>): z.ZodType<T | null> {
  return schema.nullish().transform((value) => value ?? null);
}

/** Logical time (u64) as a decimal string → bigint. */
export const lt = kindChecked(uint64String, uint64);

/** u64 such as a query id, as a decimal string → bigint. */
export const u64 = lt;

/** Nanoton or jetton amount as a decimal string → bigint that fits DECIMAL(38,0). */
export const amountString = kindChecked(uint256String, amount);

/** 32-byte hash in standard base64. */
export const hashString = hash.wire;

/** Unix seconds as a number or decimal string. */
export const unixSeconds = timestamptz.wire;

/** Small integer as a number or decimal string. */
export const int32Value = int32.wire;

/** 64-bit integer as a decimal string or a number (gas, steps). */
export const int64Value = int64.wire;

const expected =
  (what: string) =>
  (issue: { readonly input?: unknown }): string =>
    `expected ${what}, got ${JSON.stringify(issue.input) ?? 'nothing'}`;

/**
 * An address in any form → raw `wc:HEX` upper case. `""` (v1.3), null and an absent key → null;
 * anything else that is not an address fails.
 */
export const address: z.ZodType<string | null> = z
  .string({ error: expected('an address or null') })
  .nullish()
  .transform((text, ctx) => {
    if (text === null || text === undefined) return null;
    const raw = toRawAddress(text);
    if (raw === undefined) {
      ctx.addIssue({ code: 'custom', message: `expected an address (raw wc:HEX or user-friendly), got ${JSON.stringify(text)}` });
      return z.NEVER;
    }
    return raw;
  });

/** An address that must be there. */
export const requiredAddress: z.ZodType<string> = address.transform((raw, ctx) => {
  if (raw === null) {
    ctx.addIssue({ code: 'custom', message: 'expected an address, got none' });
    return z.NEVER;
  }
  return raw;
});

/** Opcode as `"0x0f8a7ea5"`, decimal text or a number → unsigned 32-bit value; null/absent → null. */
export const opcode: z.ZodType<number | null> = z
  .union([z.string(), z.number()], { error: expected('an opcode such as "0x0f8a7ea5"') })
  .nullish()
  .transform((value, ctx) => {
    if (value === null || value === undefined) return null;
    const parsed = parseOpcode(value);
    if (parsed === undefined) {
      ctx.addIssue({ code: 'custom', message: `expected a 32-bit opcode such as "0x0f8a7ea5", got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return parsed;
  });
