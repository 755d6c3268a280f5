/**
 * The `validator_elections` stream's request and rows: utime paging on election_id with the
 * participants asked for (and so at most 100 elections a page), the stake holder filter under the
 * name the service reads, one validator_elections row per election and one
 * validator_election_participants row per accepted stake.
 */
import { describe, expect, it } from 'vitest';
import { validatorElectionParticipantsTable, validatorElectionsStream, validatorElectionsTable } from '../../src/streams/validator-elections.js';
import { runStream } from './rows.js';

const HOLDER = '-1:9212D912A4AB0DE9854ABF29E773102F6778703CB7C27CB941073B8AF028551F';
const PUBKEY = '51239986B7DAEA46FF88EA5AF2B3B0617690411357BDAEC92E3888B3D83DC3FD';
const ADNL = '868BABAE1AD6DE5C456A9B6CE408FACBBDCE8AF2B8A7951CBB0D2E8BC44C109B';

/** A devnet election (seed 7) with one participant whose stake is above 2^120. */
const election = {
  election_id: 1767226401,
  elect_close: 1767225801,
  min_stake: '300000000000000',
  total_stake: '1329227995784915872903807060280344583',
  total_participants: 1,
  failed: false,
  finished: true,
  participants: [{ validator_pubkey: PUBKEY, stake: '1329227995784915872903807060280344583', max_factor: 196608, stake_holder_address: HOLDER, adnl_addr: ADNL }],
};

describe('validator_elections request', () => {
  it('pages by utime on election_id, ascending, inclusive bounds, with the participants and the stake holder as stake_holder_address', () => {
    const page = { from: 1_767_225_600n, to: 1_767_300_000n, limit: 100, offset: 1 };
    expect(validatorElectionsStream.query({ stake_holder: HOLDER }, page)).toEqual({
      stake_holder_address: HOLDER,
      return_participants: true,
      start_utime: 1_767_225_600,
      end_utime: 1_767_300_000,
      limit: 100,
      offset: 1,
      sort: 'asc',
    });
    expect(validatorElectionsStream.maxPageLimit).toBe(100);
    expect(validatorElectionsStream.position(runStream(validatorElectionsStream, [election]).items[0]!)).toBe(1_767_226_401n);
  });
});

describe('validator_elections rows', () => {
  it('keeps the election exactly: its close time and day, stakes above 2^120, its state', () => {
    const { rows, rejects } = runStream(validatorElectionsStream, [election]);
    expect(rejects).toEqual([]);
    expect(rows.get(validatorElectionsTable.name)).toEqual([
      {
        election_id: 1_767_226_401n,
        elect_close_time: 1_767_225_801,
        block_date: '2026-01-01',
        min_stake: 300_000n * 10n ** 9n,
        total_stake: 2n ** 120n + 7n,
        total_participants: 1,
        failed: false,
        finished: true,
      },
    ]);
  });

  it('gives one participant row per accepted stake, keyed by the election and the validator key', () => {
    const { rows } = runStream(validatorElectionsStream, [{ ...election, participants: [{ ...election.participants[0]!, validator_index: 3 }] }]);
    expect(rows.get(validatorElectionParticipantsTable.name)).toEqual([
      {
        election_id: 1_767_226_401n,
        validator_pubkey: PUBKEY,
        block_date: '2026-01-01',
        stake_holder: HOLDER,
        adnl_addr: ADNL,
        stake: 2n ** 120n + 7n,
        max_factor: 196_608,
        validator_index: 3,
      },
    ]);
  });

  it('refuses an election asked without its participants', () => {
    const { participants: _p, ...withoutParticipants } = election;
    expect(runStream(validatorElectionsStream, [withoutParticipants]).rejects.map((r) => r.reason)).toEqual([expect.stringContaining('participants')]);
  });
});
