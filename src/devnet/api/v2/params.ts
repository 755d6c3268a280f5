/**
 * v2 parameter readers. The v2 gateway (C++ ton-http-api) words its 422s differently from v3:
 * `workchain required`, `failed to parse shard`, `count should be positive`… (the enums of the
 * v2 OpenAPI's 422 responses), so these readers do not reuse QueryParams' Go-style texts.
 */
import { Address } from '@ton/core';
import { ApiError } from '../../http/api-error.js';
import type { QueryParams } from '../../http/query-params.js';
import { readAddress } from '../../../transform/address.js';

const INTEGER = /^[+-]?\d+$/;
const HEX64 = /^[0-9a-fA-F]{64}$/;
const HEX_SHARD = /^(?:0x[0-9a-fA-F]{1,16}|[0-9a-fA-F]{16})$/;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

function unprocessable(message: string): ApiError {
  return new ApiError(422, message);
}

function present(query: QueryParams, name: string): string | undefined {
  const raw = query.get(name);
  return raw === undefined || raw === '' ? undefined : raw;
}

/** A 64-bit signed integer; `required` makes a missing value `<name> required`. */
export function int64Param(query: QueryParams, name: string, required: true): bigint;
export function int64Param(query: QueryParams, name: string, required?: boolean): bigint | undefined;
export function int64Param(query: QueryParams, name: string, required = false): bigint | undefined {
  const raw = present(query, name);
  if (raw === undefined) {
    if (required) throw unprocessable(`${name} required`);
    return undefined;
  }
  if (!INTEGER.test(raw)) throw unprocessable(`failed to parse ${name}`);
  const value = BigInt(raw);
  if (value < INT64_MIN || value > INT64_MAX) throw unprocessable(`failed to parse ${name}`);
  return value;
}

/** A 32-bit signed integer (workchain, seqno). */
export function int32Param(query: QueryParams, name: string, required: true): number;
export function int32Param(query: QueryParams, name: string, required?: boolean): number | undefined;
export function int32Param(query: QueryParams, name: string, required = false): number | undefined {
  const value = int64Param(query, name, required);
  if (value === undefined) return undefined;
  if (value < -(1n << 31n) || value >= 1n << 31n) throw unprocessable(`failed to parse ${name}`);
  return Number(value);
}

/** A positive count with a default and a maximum (`count`, `limit`): `<name> should be positive`, `… less or equal <max>`. */
export function countParam(query: QueryParams, name: string, defaultValue: number, max: number): number {
  const raw = present(query, name);
  if (raw === undefined) return defaultValue;
  if (!INTEGER.test(raw)) throw unprocessable(`failed to parse ${name}`);
  const count = Number(raw);
  if (count <= 0) throw unprocessable(`${name} should be positive`);
  if (count > max) throw unprocessable(`${name} should be less or equal ${max}`);
  return count;
}

/** A masterchain seqno: required unless told otherwise, and positive. */
export function seqnoParam(query: QueryParams, required: true): number;
export function seqnoParam(query: QueryParams, required: false): number | undefined;
export function seqnoParam(query: QueryParams, required: boolean): number | undefined {
  const seqno = int32Param(query, 'seqno', required);
  if (seqno !== undefined && seqno <= 0) throw unprocessable('seqno should be positive');
  return seqno;
}

/**
 * A shard as the unsigned upper-case hex the chain model keeps. Accepted: the signed decimal the v2
 * API prints (`-9223372036854775808`), `0x`-prefixed hex, or exactly 16 hex digits as v3 prints it
 * (`8000000000000000`). A 16-character all-digit value is read as hex: a real shard id in decimal has
 * at least 18 digits unless it is split more than 9 levels deep.
 */
export function shardParam(query: QueryParams, required: true): string;
export function shardParam(query: QueryParams, required: boolean): string | undefined;
export function shardParam(query: QueryParams, required: boolean): string | undefined {
  const raw = present(query, 'shard');
  if (raw === undefined) {
    if (required) throw unprocessable('shard required');
    return undefined;
  }
  let value: bigint;
  if (HEX_SHARD.test(raw)) value = BigInt(raw.startsWith('0x') ? raw : `0x${raw}`);
  else if (INTEGER.test(raw)) value = BigInt(raw);
  else throw unprocessable('failed to parse shard');
  if (value < INT64_MIN || value > INT64_MAX * 2n + 1n || value === 0n) throw unprocessable('failed to parse shard');
  return BigInt.asUintN(64, value).toString(16).toUpperCase().padStart(16, '0');
}

/** A 256-bit hash (TonHash): 64 hex digits or 32 bytes of base64 / base64url. Returns standard base64. */
export function parseTonHash(text: string): string | undefined {
  if (HEX64.test(text)) return Buffer.from(text, 'hex').toString('base64');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) return undefined;
  const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === 32 ? bytes.toString('base64') : undefined;
}

export function hashParam(query: QueryParams, name: string): string | undefined {
  const raw = present(query, name);
  if (raw === undefined) return undefined;
  const hash = parseTonHash(raw);
  if (hash === undefined) throw unprocessable(`failed to parse ${name}`);
  return hash;
}

/**
 * An account id without its workchain (TonAddrWithoutWorkchain): 64 hex digits or base64 of 32
 * bytes; also the `wc:hex` raw form and user-friendly addresses, since clients pass back the
 * `account` of the last item (the form getBlockTransactions prints). Returns upper-case hex.
 */
export function accountIdParam(query: QueryParams, name: string): string | undefined {
  const raw = present(query, name);
  if (raw === undefined) return undefined;
  const hash = parseTonHash(raw);
  if (hash !== undefined) return Buffer.from(hash, 'base64').toString('hex').toUpperCase();
  try {
    return Address.parse(raw).hash.toString('hex').toUpperCase();
  } catch {
    throw unprocessable(`failed to parse ${name}`);
  }
}

/** An address in any form, as `wc:HEX` (the population's key); `empty address` / `failed to parse address`. */
export function addressParam(query: QueryParams, name = 'address'): string {
  const raw = present(query, name);
  if (raw === undefined) throw unprocessable(`empty ${name}`);
  return parseAddressText(raw, name);
}

export function parseAddressText(text: string, name = 'address'): string {
  const reading = readAddress(text.trim());
  if ('raw' in reading) return reading.raw;
  throw unprocessable(`failed to parse ${name}`);
}
