/**
 * GET /detectAddress, /packAddress, /unpackAddress, /detectHash: the gateway's conversions between
 * address and hash forms; no chain state is read. `friendlyAddress` is the form every v2 answer prints.
 */
import { Address } from '@ton/core';
import type { Handler } from '../../http/types.js';
import { ApiError } from '../../http/api-error.js';
import type { DevnetApi } from '../context.js';
import { parseTonHash } from './params.js';

/** Bounceable and url-safe, flagged test-only on a testnet devnet. */
export function friendlyAddress(api: DevnetApi, address: Address): string {
  return address.toString({ urlSafe: true, bounceable: true, testOnly: api.render.network === 'testnet' });
}

interface ParsedAddress {
  readonly address: Address;
  readonly givenType: 'raw_form' | 'friendly_bounceable' | 'friendly_non_bounceable';
  readonly testOnly: boolean;
}

function addressArgument(api: DevnetApi, text: string | undefined): ParsedAddress {
  if (text === undefined || text.trim() === '') throw new ApiError(422, 'empty address');
  const trimmed = text.trim();
  try {
    if (Address.isRaw(trimmed)) return { address: Address.parseRaw(trimmed), givenType: 'raw_form', testOnly: api.render.network === 'testnet' };
    const friendly = Address.parseFriendly(trimmed);
    return { address: friendly.address, givenType: friendly.isBounceable ? 'friendly_bounceable' : 'friendly_non_bounceable', testOnly: friendly.isTestOnly };
  } catch {
    throw new ApiError(422, 'failed to parse address');
  }
}

function variant(address: Address, bounceable: boolean, testOnly: boolean): Record<string, unknown> {
  return {
    '@type': 'ext.utils.detectedAddressVariant',
    b64: address.toString({ urlSafe: false, bounceable, testOnly }),
    b64url: address.toString({ urlSafe: true, bounceable, testOnly }),
  };
}

export function addressFormsHandlers(api: DevnetApi): Record<string, Handler> {
  return {
    detectAddress: (req) => {
      const { address, givenType, testOnly } = addressArgument(api, req.query.get('address'));
      return {
        '@type': 'ext.utils.detectedAddress',
        raw_form: address.toRawString(),
        bounceable: variant(address, true, testOnly),
        non_bounceable: variant(address, false, testOnly),
        given_type: givenType,
        test_only: testOnly,
      };
    },
    packAddress: (req) => friendlyAddress(api, addressArgument(api, req.query.get('address')).address),
    unpackAddress: (req) => {
      const { address, givenType, testOnly } = addressArgument(api, req.query.get('address'));
      return { workchain: address.workChain, bounceable: givenType !== 'friendly_non_bounceable', testnet: testOnly, addr_hex: address.hash.toString('hex') };
    },
    detectHash: (req) => {
      const text = req.query.get('hash');
      if (text === undefined || text === '') throw new ApiError(422, 'empty hash');
      const hash = parseTonHash(text.trim());
      if (hash === undefined) throw new ApiError(422, 'failed to parse hash');
      const bytes = Buffer.from(hash, 'base64');
      return { '@type': 'ext.utils.detectedHash', b64: hash, b64url: bytes.toString('base64url'), hex: bytes.toString('hex') };
    },
  };
}
