/**
 * The `nft_transfers` stream's request and row: lt paging, the owner, item and collection filters
 * under the names the service reads (`owner_address`, `item_address`, `collection_address`), aborted
 * transfers kept, the forward payload's text comment decoded, and v1.3's `""` for a missing address
 * stored as null.
 */
import { beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { nftTransfersStream, nftTransfersTable } from '../../src/streams/nft-transfers.js';
import { runStream } from './rows.js';

const ITEM = '0:B583469786E680C08DC04910915B7025FC3E2BF70B780E4D092FB299AD2D3EE5';
const COLLECTION = '0:A97F5F7B427B228A98489DC4A82FD036E6FBF78B337E7DA0CFF2241B91F11F6C';
const OLD_OWNER = '0:51B4E810E3E11982F4C64C33A4410317D5FB48C473BC426ED0D378890E3C83DE';
const NEW_OWNER = '0:71254C697BA27E9B92C5A5057E2FF3793A3715F0E29B9F3D038B1132241D2E23';
const COMMENT_BOC = beginCell().storeUint(0, 32).storeStringTail('gm').endCell().toBoc().toString('base64');

/** A devnet transfer (seed 7), as the service renders one, with a larger query id and a comment. */
const transfer = {
  query_id: '18446744073709551615',
  nft_address: ITEM,
  nft_collection: COLLECTION,
  transaction_hash: 'XQF942LAlfAVtg7ARj7Iif6xI/438Cahg+KW38L4cpA=',
  transaction_lt: '60000001000003',
  transaction_now: 1767225606,
  transaction_aborted: false,
  old_owner: OLD_OWNER,
  new_owner: NEW_OWNER,
  response_destination: OLD_OWNER,
  custom_payload: null,
  decoded_custom_payload: null,
  forward_amount: '1329227995784915872903807060280344583',
  forward_payload: COMMENT_BOC,
  decoded_forward_payload: null,
  trace_id: 'HLwqG/KVP0tJuusJmPtyqSwKi3dokG6hEY9T9GJNR5c=',
};

describe('nft_transfers request', () => {
  it('pages by lt, ascending, inclusive bounds, with owners and items as repeated keys and one collection_address', () => {
    const page = { from: 60_000_001_000_003n, to: 60_000_002_000_000n, limit: 1000, offset: 0 };
    const filters = { owner_addresses: [OLD_OWNER, NEW_OWNER], item_addresses: [ITEM], collection: COLLECTION };
    expect(nftTransfersStream.query(filters, page)).toEqual({
      start_lt: 60_000_001_000_003n,
      end_lt: 60_000_002_000_000n,
      limit: 1000,
      offset: 0,
      sort: 'asc',
      owner_address: [OLD_OWNER, NEW_OWNER],
      item_address: [ITEM],
      collection_address: COLLECTION,
    });
  });
});

describe('nft_transfers row', () => {
  it('keeps the transfer exactly: tx names, its day, a u64 query id, a forward amount above 2^120 and the comment', () => {
    const { rows, rejects } = runStream(nftTransfersStream, [transfer]);
    expect(rejects).toEqual([]);
    expect(rows.get(nftTransfersTable.name)).toEqual([
      {
        tx_hash: transfer.transaction_hash,
        tx_lt: 60_000_001_000_003n,
        tx_time: 1_767_225_606,
        block_date: '2026-01-01',
        tx_aborted: false,
        query_id: 2n ** 64n - 1n,
        nft_item: ITEM,
        collection: COLLECTION,
        old_owner: OLD_OWNER,
        new_owner: NEW_OWNER,
        response_destination: OLD_OWNER,
        forward_amount: 2n ** 120n + 7n,
        forward_payload: COMMENT_BOC,
        comment: 'gm',
        custom_payload: null,
        trace_id: transfer.trace_id,
      },
    ]);
  });

  it('keeps an aborted transfer, and stores v1.3\'s "" for a missing address and a null forward amount as null', () => {
    const aborted = { ...transfer, transaction_aborted: true, nft_collection: '', response_destination: '', forward_amount: null };
    const { rows } = runStream(nftTransfersStream, [aborted]);
    expect(rows.get(nftTransfersTable.name)).toMatchObject([{ tx_aborted: true, collection: null, response_destination: null, forward_amount: null }]);
  });

  it('rejects a transfer without its NFT item, naming the field', () => {
    const { rows, rejects } = runStream(nftTransfersStream, [{ ...transfer, nft_address: '' }]);
    expect(rows.get(nftTransfersTable.name)).toEqual([]);
    expect(rejects.map((r) => r.reason)).toEqual([expect.stringContaining('nft_address')]);
  });
});
