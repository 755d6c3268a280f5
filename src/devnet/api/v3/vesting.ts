/**
 * GET /vesting over the genesis vesting wallet (chain/services.ts): by contract address, or by
 * `wallet_address` as its owner (also as a whitelisted destination with `check_whitelist`). One of
 * the two filters is required.
 */
import type { Handler } from '../../http/types.js';
import { ApiError } from '../../http/api-error.js';
import { accountsParam, enrich, Refs, type DevnetApi } from '../context.js';

export function vestingHandlers(api: DevnetApi): Record<string, Handler> {
  const vesting = api.view.chain.services.vesting;
  const raw = (account: number): string => api.render.raw(account);
  return {
    vesting: (req) => {
      const q = req.query;
      const contracts = accountsParam(api, q, 'contract_address');
      const wallets = accountsParam(api, q, 'wallet_address');
      if (contracts === undefined && wallets === undefined) throw new ApiError(422, 'contract_address or wallet_address is required');
      const checkWhitelist = q.bool('check_whitelist') === true;
      const limit = q.limit(10, 1000);
      const offset = q.offset();
      const related = checkWhitelist ? [vesting.owner, ...vesting.whitelist] : [vesting.owner];
      const matches = (contracts === undefined || contracts.includes(vesting.account)) && (wallets === undefined || wallets.some((w) => related.includes(w)));
      const refs = new Refs();
      const vesting_contracts = (matches ? [vesting] : []).slice(offset, offset + limit).map((v) => {
        for (const account of [v.account, v.owner, v.sender, ...v.whitelist]) refs.add(account);
        return {
          address: raw(v.account),
          owner_address: raw(v.owner),
          sender_address: raw(v.sender),
          start_time: v.startTime,
          total_amount: v.totalAmount.toString(),
          total_duration: v.totalDuration,
          unlock_period: v.unlockPeriod,
          cliff_duration: v.cliffDuration,
          whitelist: v.whitelist.map(raw),
        };
      });
      return enrich(api, req, { vesting_contracts }, refs, { addressBook: true, metadata: false });
    },
  };
}
