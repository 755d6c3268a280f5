/**
 * GET /validators/complaints: the complaints registered in indexed blocks (chain/complaints.ts),
 * ordered by (created_at, complaint_hash); filters on the cycle, the election, the accused (stake
 * holder, ADNL address, public key) and created_at.
 */
import type { Handler } from '../../http/types.js';
import { enrich, pageParams, Refs, type DevnetApi } from '../context.js';
import { selectPage } from '../paging.js';
import { participantFilter } from './validators.js';
import { cycleStartOf, renderComplaint } from '../../render/complaint.js';

export function complaintHandlers(api: DevnetApi): Record<string, Handler> {
  const chain = api.view.chain;
  return {
    'validators/complaints': (req) => {
      const q = req.query;
      const cycleStart = q.int('cycle_start');
      const electionId = q.int('election_id');
      const accused = participantFilter(api, q);
      const startUtime = q.int('start_utime', { min: 0 });
      const endUtime = q.int('end_utime', { min: 0 });
      const page = pageParams(q);
      const indexed = api.view.indexedComplaints;
      const refs = new Refs();
      const complaints = selectPage(
        0,
        indexed.length,
        (i) => indexed[i]!,
        (c) =>
          (cycleStart === undefined || cycleStartOf(api.render, c) === cycleStart) &&
          (electionId === undefined || c.election.electionId === electionId) &&
          (accused === undefined || accused(c.accused)) &&
          (startUtime === undefined || chain.utimes[c.step]! >= startUtime) &&
          (endUtime === undefined || chain.utimes[c.step]! <= endUtime),
        page,
      ).map((c) => renderComplaint(api.render, c, refs));
      return enrich(api, req, { complaints }, refs, { addressBook: true, metadata: false });
    },
  };
}
