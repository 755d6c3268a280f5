/**
 * The `jetton_burns` stream's request and row: lt paging, the owner and jetton filters under the
 * names the service reads (`owner_address`, not the spec's `address`), aborted burns kept, and v1.3's
 * `""` for a missing address stored as null.
 */
import { describe, expect, it } from 'vitest';
import { jettonBurnsStream, jettonBurnsTable } from '../../src/streams/jetton-burns.js';
import { runStream } from './rows.js';

const OWNER = '0:5C9130BC9F0511D1A66FA5B0E4959827763EAE102F5508121B599AEDA3712477';
const WALLET = '0:EB80F13D2EFCDB7BD4777B8D752638EFDFF259CB6A265481F7D8781EF1189B35';
const MASTER = '0:FFD8CEB7A392D8AC2F9A0C0875925CF1F878E029033BA915702ADA90E4A83BDB';

/** A devnet burn (seed 7), as the service renders one. */
const burn = {
  query_id: '18446744073709551615',
  owner: OWNER,
  jetton_wallet: WALLET,
  jetton_master: MASTER,
  transaction_hash: 'wq1Au+lujogQ+0i22Wt7Lk6EH650o8FH244cdg8lEzg=',
  transaction_lt: '60000008000001',
  transaction_now: 1767225633,
  transaction_aborted: false,
  amount: '1329227995784915872903807060280344583',
  response_destination: OWNER,
  custom_payload: null,
  decoded_custom_payload: null,
  trace_id: 'oB0PlYdzItqP+4z2DjDIzNE4rzJj0fAgII6nKPahcEk=',
};

describe('jetton_burns request', () => {
  it('pages by lt, ascending, inclusive bounds, with owners as repeated owner_address and one jetton_master', () => {
    const page = { from: 60_000_008_000_001n, to: 60_000_009_000_000n, limit: 1000, offset: 0 };
    expect(jettonBurnsStream.query({ owner_addresses: [OWNER, WALLET], jetton_master: MASTER }, page)).toEqual({
      start_lt: 60_000_008_000_001n,
      end_lt: 60_000_009_000_000n,
      limit: 1000,
      offset: 0,
      sort: 'asc',
      owner_address: [OWNER, WALLET],
      jetton_master: MASTER,
    });
  });
});

describe('jetton_burns row', () => {
  it('keeps the burn exactly: tx names, its day, a u64 query id and an amount above 2^120', () => {
    const { rows, rejects } = runStream(jettonBurnsStream, [burn]);
    expect(rejects).toEqual([]);
    expect(rows.get(jettonBurnsTable.name)).toEqual([
      {
        tx_hash: burn.transaction_hash,
        tx_lt: 60_000_008_000_001n,
        tx_time: 1_767_225_633,
        block_date: '2026-01-01',
        tx_aborted: false,
        query_id: 2n ** 64n - 1n,
        jetton_master: MASTER,
        owner: OWNER,
        jetton_wallet: WALLET,
        amount: 2n ** 120n + 7n,
        response_destination: OWNER,
        custom_payload: null,
        trace_id: burn.trace_id,
      },
    ]);
  });

  it('keeps an aborted burn, and stores v1.3\'s "" for a missing address as null', () => {
    const { rows } = runStream(jettonBurnsStream, [{ ...burn, transaction_aborted: true, response_destination: '' }]);
    expect(rows.get(jettonBurnsTable.name)).toMatchObject([{ tx_aborted: true, response_destination: null }]);
  });
});
