/**
 * zod fields for item wire schemas, built from src/api/wire.ts and checked against the column kind
 * each value is stored as: an item that parses always yields rows the sink accepts, and an item that
 * would not becomes a reject at the edge instead.
 */
import type { z } from 'zod';
import { amount, hash, int32, int64, logicalTime, timestamptz, uint64 } from '../core/column-kinds.js';
import { WireProblem, checkedBy, refused, wireValue, type ValueParser } from '../core/wire-value.js';
import { uint256Decimal, uint64Decimal } from '../api/wire.js';
import { toRawAddress } from './address.js';
import { parseOpcode } from './opcode.js';

export { nullish } from '../core/wire-value.js';

/** Logical time as a decimal string → bigint below 2^63 (see `logicalTime`). */
export const lt = wireValue(checkedBy(uint64Decimal, logicalTime.problem));

/** u64 such as a query id, as a decimal string → bigint. */
export const u64 = wireValue(checkedBy(uint64Decimal, uint64.problem));

/** Nanoton or jetton amount as a decimal string → bigint that fits DECIMAL(38,0). */
export const amountString = wireValue(checkedBy(uint256Decimal, amount.problem));

/** 32-byte hash in standard base64. */
export const hashString = hash.wire;

/** Unix seconds as a number or decimal string. */
export const unixSeconds = timestamptz.wire;

/** Small integer as a number or decimal string. */
export const int32Value = int32.wire;

/** 64-bit integer as a decimal string or a number (gas, steps). */
export const int64Value = int64.wire;

/** An address in any form → raw `wc:HEX` upper case; `""` (v1.3), null and an absent key → null. */
const parseAddress: ValueParser<string | null> = (input) => {
  if (input === null || input === undefined) return null;
  if (typeof input !== 'string') return refused('an address or null', input);
  const raw = toRawAddress(input);
  return raw === undefined ? new WireProblem(`expected an address (raw wc:HEX or user-friendly), got ${JSON.stringify(input)}`) : raw;
};

/** An address in any form, or none; anything else that is not an address fails. */
export const address: z.ZodType<string | null> = wireValue(parseAddress);

/** An address that must be there. */
export const requiredAddress: z.ZodType<string> = wireValue((input) => {
  const raw = parseAddress(input);
  return raw === null ? new WireProblem('expected an address, got none') : raw;
});

/** Opcode as `"0x0f8a7ea5"`, decimal text or a number → unsigned 32-bit value; null/absent → null. */
export const opcode: z.ZodType<number | null> = wireValue((input) => {
  if (input === null || input === undefined) return null;
  if (typeof input !== 'string' && typeof input !== 'number') return refused('an opcode such as "0x0f8a7ea5"', input);
  return parseOpcode(input) ?? new WireProblem(`expected a 32-bit opcode such as "0x0f8a7ea5", got ${JSON.stringify(input)}`);
});
