/**
 * The `validator_cycles` stream's request and rows: utime paging on cycle_start with the validators
 * asked for (and so at most 100 cycles a page), the stake holder filter under the name the service
 * reads, one validator_cycles row per cycle and one validator_cycle_members row per validator.
 */
import { describe, expect, it } from 'vitest';
import { validatorCycleMembersTable, validatorCyclesStream, validatorCyclesTable } from '../../src/streams/validator-cycles.js';
import { runStream } from './rows.js';

const HOLDER = '-1:9212D912A4AB0DE9854ABF29E773102F6778703CB7C27CB941073B8AF028551F';
const PUBKEY = '51239986B7DAEA46FF88EA5AF2B3B0617690411357BDAEC92E3888B3D83DC3FD';
const ADNL = '868BABAE1AD6DE5C456A9B6CE408FACBBDCE8AF2B8A7951CBB0D2E8BC44C109B';

/** The devnet's first cycle (seed 7) with one validator, a stake above 2^120 and a complaint. */
const cycle = {
  election_id: 1767225600,
  cycle_start: 1767225600,
  cycle_end: 1767226050,
  total: 1,
  main: 1,
  total_weight: '18446744073709551615',
  total_stake: '1329227995784915872903807060280344583',
  validators_elected_for: 450,
  elections_start_before: 450,
  elections_end_before: 225,
  stake_held_for: 450,
  max_validators: 400,
  max_main_validators: 100,
  min_validators: 5,
  min_stake: '1329227995784915872903807060280344583',
  max_stake: '1329227995784915872903807060280344583',
  min_stake_limit: '300000000000000',
  max_stake_limit: '10000000000000000',
  min_total_stake: '1000000000000000',
  max_stake_factor: 196608,
  validators: [
    {
      validator_index: 0,
      validator_pubkey: PUBKEY,
      adnl_addr: ADNL,
      weight: '18446744073709551615',
      stake_holder_address: HOLDER,
      stake: '1329227995784915872903807060280344583',
      max_factor: 196608,
      complaints: [{ complaint_hash: 'x' }],
    },
  ],
};

describe('validator_cycles request', () => {
  it('pages by utime on cycle_start, ascending, inclusive bounds, with the validators and the stake holder as stake_holder_address', () => {
    const page = { from: 1_767_225_600n, to: 1_767_300_000n, limit: 100, offset: 2 };
    expect(validatorCyclesStream.query({ stake_holder: HOLDER }, page)).toEqual({
      stake_holder_address: HOLDER,
      return_validators: true,
      start_utime: 1_767_225_600,
      end_utime: 1_767_300_000,
      limit: 100,
      offset: 2,
      sort: 'asc',
    });
    expect(validatorCyclesStream.maxPageLimit).toBe(100);
  });
});

describe('validator_cycles rows', () => {
  it('keeps the cycle exactly: its times and day, u64 weights, stakes above 2^120, the elector configuration', () => {
    const { rows, rejects } = runStream(validatorCyclesStream, [cycle]);
    expect(rejects).toEqual([]);
    expect(rows.get(validatorCyclesTable.name)).toEqual([
      {
        cycle_start_time: 1_767_225_600,
        cycle_end_time: 1_767_226_050,
        block_date: '2026-01-01',
        election_id: 1_767_225_600n,
        total: 1,
        main: 1,
        total_weight: 2n ** 64n - 1n,
        total_stake: 2n ** 120n + 7n,
        min_stake: 2n ** 120n + 7n,
        max_stake: 2n ** 120n + 7n,
        validators_elected_for: 450,
        elections_start_before: 450,
        elections_end_before: 225,
        stake_held_for: 450,
        max_validators: 400,
        max_main_validators: 100,
        min_validators: 5,
        min_stake_limit: 300_000n * 10n ** 9n,
        max_stake_limit: 10_000_000n * 10n ** 9n,
        min_total_stake: 1_000_000n * 10n ** 9n,
        max_stake_factor: 196_608,
      },
    ]);
  });

  it('gives one member row per validator, keyed by the cycle start and its index, with its complaints counted', () => {
    const { rows } = runStream(validatorCyclesStream, [cycle]);
    expect(rows.get(validatorCycleMembersTable.name)).toEqual([
      {
        cycle_start_time: 1_767_225_600,
        validator_index: 0,
        block_date: '2026-01-01',
        validator_pubkey: PUBKEY,
        adnl_addr: ADNL,
        weight: 2n ** 64n - 1n,
        stake_holder: HOLDER,
        stake: 2n ** 120n + 7n,
        max_factor: 196_608,
        complaints: 1,
      },
    ]);
  });

  it('keeps a cycle without stakes (the spec leaves them out) and refuses a cycle asked without its validators', () => {
    const { total_stake: _t, min_stake: _n, max_stake: _x, ...bare } = cycle;
    const kept = runStream(validatorCyclesStream, [{ ...bare, validators: [] }]);
    expect(kept.rejects).toEqual([]);
    expect(kept.rows.get(validatorCyclesTable.name)).toMatchObject([{ total_stake: null, min_stake: null, max_stake: null }]);
    expect(kept.rows.get(validatorCycleMembersTable.name)).toEqual([]);
    const { validators: _v, ...withoutValidators } = cycle;
    const refused = runStream(validatorCyclesStream, [withoutValidators]);
    expect(refused.rejects.map((r) => r.reason)).toEqual([expect.stringContaining('validators')]);
  });
});
