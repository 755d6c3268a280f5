/**
 * Addresses in the one form every table joins on: raw `wc:HEX` with 64 upper-case hex digits. The
 * pipeline file's filters and the API's values are read by the same rules.
 */
import { tonCore } from './ton-core.js';

/**
 * The workchains a standard address can name: `workchain_id:int8` (the user-friendly form stores it
 * in one byte; the service sends and accepts standard addresses only).
 */
export const WORKCHAINS = { min: -128, max: 127 } as const;

const RAW = /^(-?\d{1,10}):([0-9a-fA-F]{64})$/;
const FORMS = 'use the raw form wc:HEX or a 48-character user-friendly address';

/** The outcome of reading an address: its raw upper-case form, or why it is not one. */
export type AddressReading = { readonly raw: string } | { readonly reason: string };

/**
 * Reads an address in raw form (`wc:64 hex digits`, any case) or user-friendly form (48 characters
 * of base64 or base64url, checksum verified) and returns the raw upper-case form `wc:HEX`.
 */
export function readAddress(text: string): AddressReading {
  const raw = RAW.exec(text);
  if (raw !== null) {
    const workchain = Number(raw[1]);
    if (workchain < WORKCHAINS.min || workchain > WORKCHAINS.max) {
      return { reason: `its workchain ${workchain} is not one from ${WORKCHAINS.min} to ${WORKCHAINS.max}` };
    }
    return { raw: `${workchain}:${raw[2]!.toUpperCase()}` };
  }
  if (!tonCore().Address.isFriendly(text)) return { reason: FORMS };
  try {
    const { address } = tonCore().Address.parseFriendly(text);
    return { raw: `${asInt8(address.workChain)}:${address.hash.toString('hex').toUpperCase()}` };
  } catch {
    return { reason: 'its checksum or tag is wrong: copy the address again' };
  }
}

/** `@ton/core` reads the workchain byte unsigned except 0xff (-1); the byte is `int8`. */
function asInt8(byte: number): number {
  return byte > WORKCHAINS.max ? byte - 256 : byte;
}

/**
 * The raw form of an address the API sent. `""` is v1.3's spelling of a missing address and becomes
 * null; undefined means "not an address".
 */
export function toRawAddress(text: string): string | null | undefined {
  if (text === '') return null;
  const reading = readAddress(text);
  return 'raw' in reading ? reading.raw : undefined;
}
