/**
 * The `validator_elections` stream: the elector's elections and their stakes
 * (`/api/v3/validators/elections`), one row per election and one per participant. The service orders
 * elections by election_id (the unix time the elected set starts validating) and compares its utime
 * filter to it, so the stream pages by utime on election_id. An election's participants and stakes
 * change while it runs; it ends `elections_end_before` seconds before its election_id, so by the time
 * the settled tip reaches an election_id the election is finished and read once, final
 * (docs/design.md §2).
 */
import { z } from 'zod';
import { utimePage } from '../api/v3.js';
import { looseObject, nullableString } from '../api/wire.js';
import { amount, bool, date, int32, int64, rawAddress, text, timestamptz } from '../core/column-kinds.js';
import { defineStream, tableRows } from '../core/stream.js';
import { defineTable, type RowOf } from '../core/table.js';
import { utcDay } from '../core/utc-day.js';
import * as filter from '../options/fields.js';
import { amountString, int32Value, int64Value, nullish, requiredAddress, unixSeconds } from '../transform/fields.js';

/** With `return_participants` the service serves at most 100 elections a page. */
const ELECTIONS_PER_PAGE = 100;

const participant = looseObject({
  validator_pubkey: z.string(),
  validator_index: nullish(int32Value),
  stake: amountString,
  max_factor: int32Value,
  stake_holder_address: requiredAddress,
  adnl_addr: nullableString,
});

/** One `/validators/elections` item asked with `return_participants`. */
export const validatorElectionItem = looseObject({
  election_id: int64Value,
  elect_close: unixSeconds,
  min_stake: amountString,
  total_stake: amountString,
  total_participants: int32Value,
  failed: bool.wire,
  finished: bool.wire,
  participants: z.array(participant),
});

export type ValidatorElectionItem = z.output<typeof validatorElectionItem>;

export const validatorElectionsTable = defineTable({
  name: 'validator_elections',
  doc: 'One row per election of the elector, keyed by election_id, read once it is finished.',
  columns: {
    election_id: int64.doc('Election id: the unix time the elected set starts validating (validator_cycles.election_id).'),
    elect_close_time: timestamptz.doc('Time the election stopped taking stakes.'),
    block_date: date.doc('UTC day of election_id (the day the elected set starts validating; the stream\'s position).'),
    min_stake: amount.doc('Smallest stake the election accepted, nanoton.'),
    total_stake: amount.doc('Sum of the accepted stakes, nanoton.'),
    total_participants: int32.doc('Stakes accepted.'),
    failed: bool.doc('Whether the election failed (no set elected).'),
    finished: bool.doc('Whether the election is over (always true: the stream reads an election once it is).'),
  },
  primaryKey: ['election_id'],
  partitionBy: (row) => row.block_date,
  dayOf: 'election_id',
  clusterBy: 'election_id',
});

export const validatorElectionParticipantsTable = defineTable({
  name: 'validator_election_participants',
  doc: 'One row per stake accepted in an election, keyed by (election_id, validator_pubkey).',
  columns: {
    election_id: int64.doc('Election the stake was made in (joins validator_elections).'),
    validator_pubkey: text.doc('Validator public key (hex) the stake is for.'),
    block_date: date.doc('UTC day of the election\'s election_id.'),
    stake_holder: rawAddress.doc('Wallet or pool that staked.'),
    adnl_addr: text.nullable().doc('Validator ADNL address (hex).'),
    stake: amount.doc('Stake accepted, nanoton.'),
    max_factor: int32.doc('Validator max_factor, times 65536.'),
    validator_index: int32.nullable().doc('Index of the validator in the elected set, when the service gives it.'),
  },
  primaryKey: ['election_id', 'validator_pubkey'],
  partitionBy: (row) => row.block_date,
  dayOf: 'election_id',
  clusterBy: 'election_id',
});

type ValidatorElectionRow = RowOf<typeof validatorElectionsTable>;
type ValidatorElectionParticipantRow = RowOf<typeof validatorElectionParticipantsTable>;

export const validatorElectionsStream = defineStream({
  name: 'validator_elections',
  doc: 'Elections of the elector with their accepted stakes (validator_elections, validator_election_participants).',
  filters: {
    stake_holder: filter.optionalAddress('Only elections this stake holder (validator wallet or pool) staked in, with only its stakes.'),
  },
  tables: [validatorElectionsTable, validatorElectionParticipantsTable],
  axis: 'utime',
  endpoint: '/api/v3/validators/elections',
  itemsKey: 'elections',
  maxPageLimit: ELECTIONS_PER_PAGE,
  // The utime filter is compared to election_id: a page holds the elections whose id the tip has reached.
  query: (filters, page) => ({
    stake_holder_address: filters.stake_holder,
    return_participants: true,
    ...utimePage(page),
  }),
  metadata: false,
  item: validatorElectionItem,
  rescansOverlap: false,
  position: (election) => election.election_id,
  key: (election) => String(election.election_id),
  toRows: (election) =>
    new Map([
      tableRows(validatorElectionsTable, [validatorElectionRow(election)]),
      tableRows(validatorElectionParticipantsTable, election.participants.map((p) => participantRow(election, p))),
    ]),
});

function validatorElectionRow(e: ValidatorElectionItem): ValidatorElectionRow {
  return {
    election_id: e.election_id,
    elect_close_time: e.elect_close,
    block_date: utcDay(Number(e.election_id)),
    min_stake: e.min_stake,
    total_stake: e.total_stake,
    total_participants: e.total_participants,
    failed: e.failed,
    finished: e.finished,
  };
}

function participantRow(e: ValidatorElectionItem, p: ValidatorElectionItem['participants'][number]): ValidatorElectionParticipantRow {
  return {
    election_id: e.election_id,
    validator_pubkey: p.validator_pubkey,
    block_date: utcDay(Number(e.election_id)),
    stake_holder: p.stake_holder_address,
    adnl_addr: p.adnl_addr,
    stake: p.stake,
    max_factor: p.max_factor,
    validator_index: p.validator_index,
  };
}
