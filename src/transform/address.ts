/**
 * Addresses in the one form every table joins on: raw `wc:HEX` with 64 upper-case hex digits.
 */
import { tonCore } from './ton-core.js';

const RAW = /^(-?\d{1,10}):([0-9a-fA-F]{64})$/;

/**
 * The raw form of an address the API sent: raw in any case, or user-friendly (base64 or base64url).
 * `""` is v1.3's spelling of a missing address and becomes null; undefined means "not an address".
 */
export function toRawAddress(text: string): string | null | undefined {
  if (text === '') return null;
  const raw = RAW.exec(text);
  if (raw !== null) return `${raw[1]}:${raw[2]!.toUpperCase()}`;
  try {
    if (!tonCore().Address.isFriendly(text)) return undefined;
    const { address } = tonCore().Address.parseFriendly(text);
    return `${address.workChain}:${address.hash.toString('hex').toUpperCase()}`;
  } catch {
    return undefined;
  }
}
