/**
 * The `validator_cycles` stream: validation cycles and their validator sets
 * (`/api/v3/validators/cycles`), one row per cycle and one per validator of it. The service orders
 * cycles by their start (utime_since) and its utime filter is on it, so the stream pages by utime on
 * cycle_start. A cycle is listed once its first block is indexed, and its set is final then; its
 * members' complaints are not: they are registered until the set's stakes are released, so a sync
 * reads a cycle again until then (`openUntil`).
 */
import { z } from 'zod';
import { utimePage } from '../api/v3.js';
import { looseObject, nullableString } from '../api/wire.js';
import { amount, date, int32, int64, rawAddress, text, timestamptz, uint64 } from '../core/column-kinds.js';
import { defineStream, tableRows } from '../core/stream.js';
import { defineTable, type RowOf } from '../core/table.js';
import { utcDay } from '../core/utc-day.js';
import * as filter from '../options/fields.js';
import { address, amountString, int32Value, int64Value, nullish, u64, unixSeconds } from '../transform/fields.js';

/** With `return_validators` the service serves at most 100 cycles a page. */
const CYCLES_PER_PAGE = 100;

const cycleValidator = looseObject({
  validator_index: int32Value,
  validator_pubkey: z.string(),
  adnl_addr: nullableString,
  weight: u64,
  stake_holder_address: nullish(address),
  stake: nullish(amountString),
  max_factor: nullish(int32Value),
  complaints: nullish(z.array(z.unknown())),
});

/** One `/validators/cycles` item asked with `return_validators`. */
export const validatorCycleItem = looseObject({
  election_id: nullish(int64Value),
  cycle_start: unixSeconds,
  cycle_end: unixSeconds,
  total: int32Value,
  main: int32Value,
  total_weight: u64,
  total_stake: nullish(amountString),
  validators_elected_for: int32Value,
  elections_start_before: int32Value,
  elections_end_before: int32Value,
  stake_held_for: int32Value,
  max_validators: int32Value,
  max_main_validators: int32Value,
  min_validators: int32Value,
  min_stake: nullish(amountString),
  max_stake: nullish(amountString),
  min_stake_limit: amountString,
  max_stake_limit: amountString,
  min_total_stake: amountString,
  max_stake_factor: int32Value,
  validators: z.array(cycleValidator),
});

export type ValidatorCycleItem = z.output<typeof validatorCycleItem>;

export const validatorCyclesTable = defineTable({
  name: 'validator_cycles',
  doc: 'One row per validation cycle: its time span, the election that chose its set, the set totals and the elector configuration (parameters 15-17) it ran under.',
  columns: {
    cycle_start_time: timestamptz.doc('Time the cycle starts (utime_since of its validator set).'),
    cycle_end_time: timestamptz.doc('Time the cycle ends (utime_until of its validator set).'),
    block_date: date.doc('UTC day of cycle_start_time.'),
    election_id: int64.nullable().doc('Election that chose the set (the unix time its validation round starts).'),
    total: int32.doc('Validators in the set.'),
    main: int32.doc('Validators of the set that also validate the masterchain.'),
    total_weight: uint64.doc('Sum of the validators\' weights.'),
    total_stake: amount.nullable().doc('Sum of the validators\' stakes, nanoton.'),
    min_stake: amount.nullable().doc('Smallest stake in the set, nanoton.'),
    max_stake: amount.nullable().doc('Largest stake in the set, nanoton.'),
    validators_elected_for: int32.doc('Seconds a set validates (config parameter 15).'),
    elections_start_before: int32.doc('Seconds before a cycle starts that its elections open (parameter 15).'),
    elections_end_before: int32.doc('Seconds before a cycle starts that its elections close (parameter 15).'),
    stake_held_for: int32.doc('Seconds stakes stay frozen after the cycle ends (parameter 15).'),
    max_validators: int32.doc('Largest set allowed (parameter 16).'),
    max_main_validators: int32.doc('Most masterchain validators allowed (parameter 16).'),
    min_validators: int32.doc('Smallest set allowed (parameter 16).'),
    min_stake_limit: amount.doc('Smallest stake allowed, nanoton (parameter 17).'),
    max_stake_limit: amount.doc('Largest stake allowed, nanoton (parameter 17).'),
    min_total_stake: amount.doc('Smallest total stake of a set, nanoton (parameter 17).'),
    max_stake_factor: int32.doc('Largest max_factor a validator may set, times 65536 (parameter 17).'),
  },
  primaryKey: ['cycle_start_time'],
  partitionBy: (row) => row.block_date,
  dayOf: 'cycle_start_time',
});

export const validatorCycleMembersTable = defineTable({
  name: 'validator_cycle_members',
  doc: 'One row per validator of a cycle\'s set, keyed by (cycle_start_time, validator_index).',
  columns: {
    cycle_start_time: timestamptz.doc('Start of the cycle (joins validator_cycles).'),
    validator_index: int32.doc('Index of the validator in the set (by stake, largest first).'),
    block_date: date.doc('UTC day of cycle_start_time.'),
    validator_pubkey: text.doc('Validator public key (hex).'),
    adnl_addr: text.nullable().doc('Validator ADNL address (hex).'),
    weight: uint64.doc('Validator weight in the set (its share of total_weight).'),
    stake_holder: rawAddress.nullable().doc('Wallet or pool whose stake elected the validator.'),
    stake: amount.nullable().doc('Stake of the validator, nanoton.'),
    max_factor: int32.nullable().doc('Validator max_factor, times 65536.'),
    complaints: int32.doc('Complaints filed against the validator in the cycle.'),
  },
  primaryKey: ['cycle_start_time', 'validator_index'],
  partitionBy: (row) => row.block_date,
  dayOf: 'cycle_start_time',
});

type ValidatorCycleRow = RowOf<typeof validatorCyclesTable>;
type ValidatorCycleMemberRow = RowOf<typeof validatorCycleMembersTable>;

export const validatorCyclesStream = defineStream({
  name: 'validator_cycles',
  doc: 'Validation cycles with their validator sets (validator_cycles, validator_cycle_members).',
  filters: {
    stake_holder: filter.optionalAddress('Only cycles this stake holder (validator wallet or pool) validates in, with only its validator rows.'),
  },
  tables: [validatorCyclesTable, validatorCycleMembersTable],
  axis: 'utime',
  endpoint: '/api/v3/validators/cycles',
  itemsKey: 'cycles',
  maxPageLimit: CYCLES_PER_PAGE,
  query: (filters, page) => ({
    stake_holder_address: filters.stake_holder,
    return_validators: true,
    ...utimePage(page),
  }),
  metadata: false,
  item: validatorCycleItem,
  rescansOverlap: false,
  position: (cycle) => BigInt(cycle.cycle_start),
  // Complaints against the set's validators are registered until its stakes are released.
  openUntil: (cycle) => BigInt(cycle.cycle_end + cycle.stake_held_for),
  key: (cycle) => String(cycle.cycle_start),
  toRows: (cycle) =>
    new Map([
      tableRows(validatorCyclesTable, [validatorCycleRow(cycle)]),
      tableRows(validatorCycleMembersTable, cycle.validators.map((v) => memberRow(cycle, v))),
    ]),
});

function validatorCycleRow(c: ValidatorCycleItem): ValidatorCycleRow {
  return {
    cycle_start_time: c.cycle_start,
    cycle_end_time: c.cycle_end,
    block_date: utcDay(c.cycle_start),
    election_id: c.election_id,
    total: c.total,
    main: c.main,
    total_weight: c.total_weight,
    total_stake: c.total_stake,
    min_stake: c.min_stake,
    max_stake: c.max_stake,
    validators_elected_for: c.validators_elected_for,
    elections_start_before: c.elections_start_before,
    elections_end_before: c.elections_end_before,
    stake_held_for: c.stake_held_for,
    max_validators: c.max_validators,
    max_main_validators: c.max_main_validators,
    min_validators: c.min_validators,
    min_stake_limit: c.min_stake_limit,
    max_stake_limit: c.max_stake_limit,
    min_total_stake: c.min_total_stake,
    max_stake_factor: c.max_stake_factor,
  };
}

function memberRow(c: ValidatorCycleItem, v: ValidatorCycleItem['validators'][number]): ValidatorCycleMemberRow {
  return {
    cycle_start_time: c.cycle_start,
    validator_index: v.validator_index,
    block_date: utcDay(c.cycle_start),
    validator_pubkey: v.validator_pubkey,
    adnl_addr: v.adnl_addr,
    weight: v.weight,
    stake_holder: v.stake_holder_address,
    stake: v.stake,
    max_factor: v.max_factor,
    complaints: v.complaints?.length ?? 0,
  };
}
