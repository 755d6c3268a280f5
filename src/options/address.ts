import { tonCore } from '../transform/ton-core.js';
import type { Address } from '@ton/core';

const RAW = /^-?\d{1,3}:[0-9a-fA-F]{64}$/;

/** The outcome of reading an address: its raw upper-case form, or why it is not one. */
export type AddressResult = { readonly raw: string } | { readonly reason: string };

/**
 * Reads an address in raw form (`wc:64 hex digits`) or user-friendly form (48 characters of base64
 * or base64url, checksum verified) and returns the raw upper-case form `wc:HEX` used in the warehouse.
 */
export function parseAddress(text: string): AddressResult {
  if (tonCore().Address.isFriendly(text)) {
    try {
      return { raw: rawForm(tonCore().Address.parseFriendly(text).address) };
    } catch {
      return { reason: 'its checksum or tag is wrong: copy the address again' };
    }
  }
  if (RAW.test(text) && tonCore().Address.isRaw(text)) {
    const address = tonCore().Address.parse(text);
    if (address.workChain >= -128 && address.workChain <= 127) return { raw: rawForm(address) };
  }
  return { reason: 'use the raw form wc:HEX or a 48-character user-friendly address' };
}

function rawForm(address: Address): string {
  return `${address.workChain}:${address.hash.toString('hex').toUpperCase()}`;
}
