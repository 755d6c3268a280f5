/**
 * GET /validators/complaints: no devnet validator misbehaves, so no complaint is ever filed; the list
 * is empty for any filter. Parameters are still checked as the service checks them.
 */
import type { Handler } from '../../http/types.js';
import { enrich, parseAddress, Refs, type DevnetApi } from '../context.js';

export function complaintHandlers(api: DevnetApi): Record<string, Handler> {
  return {
    'validators/complaints': (req) => {
      const q = req.query;
      q.int('cycle_start');
      q.int('election_id');
      const holder = q.get('stake_holder_address');
      if (holder !== undefined && holder !== '') parseAddress('stake_holder_address', holder);
      q.int('start_utime', { min: 0 });
      q.int('end_utime', { min: 0 });
      q.limit(10, 1000);
      return enrich(api, req, { complaints: [] }, new Refs(), { addressBook: true, metadata: false });
    },
  };
}
