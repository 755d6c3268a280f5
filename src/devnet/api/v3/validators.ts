/**
 * GET /validators/events, /validators/elections, /validators/cycles (v1.3 only).
 * Events: order (tx_now, tx_lt), no lt filter. Elections: opened at or before the indexed seqno,
 * order election_id, utime bounds compared to election_id. Cycles: those whose first block is
 * indexed, order cycle start (utime of that block).
 */
import type { Handler } from '../../http/types.js';
import type { QueryParams } from '../../http/query-params.js';
import type { Election, ElectionParticipant } from '../../chain/model.js';
import { FIRST_MC_SEQNO } from '../../chain/constants.js';
import { ApiError } from '../../http/api-error.js';
import { enrich, pageParams, Refs, type DevnetApi } from '../context.js';
import { selectPage } from '../paging.js';
import { optionalAccountParam, selectRecords, txWindowParams } from '../record-page.js';
import { renderValidatorEvent } from '../../render/records.js';
import { renderCycle, renderElection, type ElectionState } from '../../render/validators.js';

const EVENT_TYPES = ['stake_accepted', 'stake_rejected', 'stake_recovered'] as const;
/** With participants or validators in the response the service caps `limit` at 100. */
const DETAILED_MAX_LIMIT = 100;

export function validatorHandlers(api: DevnetApi): Record<string, Handler> {
  const chain = api.view.chain;
  return {
    'validators/events': (req) => {
      const q = req.query;
      if (q.get('stake_holder_address') && q.get('adnl_address')) {
        throw new ApiError(422, 'stake_holder_address and adnl_address cannot be used together');
      }
      const holder = optionalAccountParam(api, q, 'stake_holder_address');
      const adnl = keyParam(q, 'adnl_address');
      const pubkey = keyParam(q, 'validator_pubkey');
      const type = q.enumOf('type', EVENT_TYPES);
      const window = txWindowParams(q, false);
      const rows = selectRecords(
        api,
        chain.validatorEvents,
        window,
        (e) =>
          (holder === undefined || e.stakeHolder === holder) &&
          (adnl === undefined || e.adnlAddr === adnl) &&
          (pubkey === undefined || e.validatorPubkey === pubkey) &&
          (type === undefined || e.type === type),
        pageParams(q),
        { randomTies: false },
      );
      const refs = new Refs();
      const body: Record<string, unknown> = {};
      if (window.startUtime !== undefined) body.start_utime = window.startUtime;
      if (window.endUtime !== undefined) body.end_utime = window.endUtime;
      body.events = rows.map((e) => renderValidatorEvent(api.render, e, refs));
      return enrich(api, req, body, refs, { addressBook: true, metadata: false });
    },
    'validators/elections': (req) => {
      const q = req.query;
      const electionId = q.int('election_id');
      const matches = participantFilter(api, q);
      const returnParticipants = q.bool('return_participants') ?? false;
      const finished = q.bool('finished');
      const startUtime = q.int('start_utime', { min: 0 });
      const endUtime = q.int('end_utime', { min: 0 });
      const page = pageParams(q, 10, returnParticipants ? DETAILED_MAX_LIMIT : 1000);
      const states = electionStates(api);
      const picked = selectPage(
        0,
        states.length,
        (i) => states[i]!,
        ({ election: e, participants, finished: done }) =>
          (electionId === undefined || e.electionId === electionId) &&
          (finished === undefined || done === finished) &&
          (startUtime === undefined || e.electionId >= startUtime) &&
          (endUtime === undefined || e.electionId <= endUtime) &&
          (matches === undefined || participants.some(matches)),
        page,
      );
      const refs = new Refs();
      const elections = picked.map((state) =>
        renderElection(api.render, state, refs, returnParticipants ? state.participants.filter(matches ?? (() => true)) : undefined),
      );
      return enrich(api, req, { elections }, refs, { addressBook: true, metadata: false });
    },
    'validators/cycles': (req) => {
      const q = req.query;
      const cycleStart = q.int('cycle_start');
      const electionId = q.int('election_id');
      const matches = participantFilter(api, q);
      const returnValidators = q.bool('return_validators') ?? false;
      const startUtime = q.int('start_utime', { min: 0 });
      const endUtime = q.int('end_utime', { min: 0 });
      const page = pageParams(q, 10, returnValidators ? DETAILED_MAX_LIMIT : 1000);
      const cycles = api.view.indexedCycles;
      const picked = selectPage(
        0,
        cycles.length,
        (i) => cycles[i]!,
        ({ election: e, start }) =>
          (cycleStart === undefined || start === cycleStart) &&
          (electionId === undefined || e.electionId === electionId) &&
          (startUtime === undefined || start >= startUtime) &&
          (endUtime === undefined || start <= endUtime) &&
          (matches === undefined || e.participants.some(matches)),
        page,
      );
      const refs = new Refs();
      const complaints = api.view.indexedComplaints;
      const rendered = picked.map(({ election, start }) =>
        renderCycle(api.render, election, start, complaints, refs, returnValidators ? (matches ?? (() => true)) : undefined),
      );
      return enrich(api, req, { cycles: rendered }, refs, { addressBook: true, metadata: false });
    },
  };
}

/**
 * Elections the indexer has seen open, with the participants whose accepted stake it has indexed;
 * `finished` once the closing masterchain block is indexed.
 */
export function electionStates(api: DevnetApi): ElectionState[] {
  const chain = api.view.chain;
  const indexed = api.view.indexedSeqno;
  const events = chain.validatorEvents.slice(0, api.view.visibleRecords(chain.validatorEvents));
  const accepted = new Set(events.filter((e) => e.type === 'stake_accepted').map((e) => `${e.electionId}:${e.stakeHolder}`));
  return chain.elections
    .filter((e: Election) => e.openedMc <= indexed)
    .map((election) => ({
      election,
      // The genesis election's stakes were accepted before the devnet's first block: all known.
      participants: election.openedMc < FIRST_MC_SEQNO ? election.participants : election.participants.filter((p) => accepted.has(`${election.electionId}:${p.stakeHolder}`)),
      finished: election.closesMc <= indexed,
    }));
}

/** stake_holder_address / adnl_address / validator_pubkey, ANDed; undefined when none is given. */
export function participantFilter(api: DevnetApi, q: QueryParams): ((p: ElectionParticipant) => boolean) | undefined {
  const holder = optionalAccountParam(api, q, 'stake_holder_address');
  const adnl = keyParam(q, 'adnl_address');
  const pubkey = keyParam(q, 'validator_pubkey');
  if (holder === undefined && adnl === undefined && pubkey === undefined) return undefined;
  return (p) =>
    (holder === undefined || p.stakeHolder === holder) &&
    (adnl === undefined || p.adnlAddr === adnl) &&
    (pubkey === undefined || p.validatorPubkey === pubkey);
}

/** A 32-byte key (validator pubkey, ADNL address) as hex, base64 or base64url; compared as upper-case hex. */
function keyParam(q: QueryParams, name: string): string | undefined {
  const text = q.get(name);
  if (text === undefined || text === '') return undefined;
  const bytes = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length !== 32) throw new ApiError(422, `failed to parse ${name}: invalid 32-byte key ${JSON.stringify(text)}`);
  return bytes.toString('hex').toUpperCase();
}
