/**
 * `hash_norm` of an external inbound message: the hash of the message rebuilt with no source, no
 * import fee, no StateInit and the body as a reference, so re-signed or re-wrapped copies of one
 * message share it. Checked against a mainnet message in test/devnet/realism.test.ts.
 */
import { beginCell, type Address, type Cell } from '@ton/core';

export function normalizedExternalHash(destination: Address, body: Cell): string {
  return beginCell()
    .storeUint(0b10, 2) // ext_in_msg_info$10
    .storeUint(0, 2) // src: addr_none
    .storeAddress(destination)
    .storeCoins(0) // import_fee
    .storeBit(false) // no StateInit
    .storeBit(true) // body in a reference
    .storeRef(body)
    .endCell()
    .hash()
    .toString('base64');
}
