/**
 * GET /jetton/transfers, /jetton/burns, /jetton/masters, /jetton/wallets.
 * Transfers and burns: ORDER BY tx_lt only (tx_now with a utime filter), rows sharing it in random
 * order; aborted transfers are never listed, aborted burns are. Masters and wallets: head state,
 * existing accounts only.
 */
import type { Handler } from '../../http/types.js';
import type { Account } from '../../chain/model.js';
import { accountsParam, enrich, pageParams, Refs, type DevnetApi } from '../context.js';
import { selectPage } from '../paging.js';
import { optionalAccountParam, ownerMatches, ownersParam, selectRecords, txWindowParams } from '../record-page.js';
import { renderJettonBurn, renderJettonTransfer } from '../../render/records.js';
import { jettonAdminOf, renderJettonMaster, renderJettonWallet } from '../../render/jetton-state.js';

const ENRICH = { addressBook: true, metadata: true } as const;

export function jettonHandlers(api: DevnetApi): Record<string, Handler> {
  const chain = api.view.chain;
  const population = chain.population;
  return {
    'jetton/transfers': (req) => {
      const q = req.query;
      const owners = ownersParam(api, q);
      const wallets = accountsParam(api, q, 'jetton_wallet');
      const master = optionalAccountParam(api, q, 'jetton_master');
      const direction = q.enumOf('direction', ['in', 'out', 'both'] as const);
      const rows = selectRecords(
        api,
        chain.jettonTransfers,
        txWindowParams(q),
        (r) =>
          !chain.tx(r.tx).aborted &&
          (owners === undefined || ownerMatches(owners, r.source, r.destination, direction)) &&
          (wallets === undefined || wallets.includes(r.sourceWallet)) &&
          (master === undefined || r.master === master),
        pageParams(q),
      );
      const refs = new Refs();
      const jetton_transfers = rows.map((r) => renderJettonTransfer(api.render, r, refs));
      return enrich(api, req, { jetton_transfers }, refs, ENRICH);
    },
    'jetton/burns': (req) => {
      const q = req.query;
      const owners = ownersParam(api, q);
      const wallets = accountsParam(api, q, 'jetton_wallet');
      const master = optionalAccountParam(api, q, 'jetton_master');
      const rows = selectRecords(
        api,
        chain.jettonBurns,
        txWindowParams(q),
        (r) =>
          (owners === undefined || owners.includes(r.owner)) &&
          (wallets === undefined || wallets.includes(r.wallet)) &&
          (master === undefined || r.master === master),
        pageParams(q),
      );
      const refs = new Refs();
      const jetton_burns = rows.map((r) => renderJettonBurn(api.render, r, refs));
      return enrich(api, req, { jetton_burns }, refs, ENRICH);
    },
    'jetton/masters': (req) => {
      const q = req.query;
      const addresses = accountsParam(api, q, 'address', 1024);
      const admins = accountsParam(api, q, 'admin_address', 1024);
      const page = { ...pageParams(q), sort: 'asc' as const };
      const masters = population.masters;
      const picked = selectPage(
        0,
        masters.length,
        (i) => masters[i]!,
        (m) =>
          population.accountAt(m).status !== 'nonexist' &&
          (addresses === undefined || addresses.includes(m)) &&
          (admins === undefined || admins.includes(jettonAdminOf(population, m))),
        page,
      );
      const refs = new Refs();
      const jetton_masters = picked.map((m) => renderJettonMaster(api.render, m, refs));
      return enrich(api, req, { jetton_masters }, refs, ENRICH);
    },
    'jetton/wallets': (req) => {
      const q = req.query;
      const addresses = accountsParam(api, q, 'address');
      const owners = accountsParam(api, q, 'owner_address');
      const jettons = accountsParam(api, q, 'jetton_address');
      const excludeZero = q.bool('exclude_zero_balance') ?? false;
      const page = pageParams(q);
      const byBalance = q.get('sort') ? page.sort : undefined;
      const wallets = population.accounts.filter(
        (a) =>
          a.kind === 'jetton_wallet' &&
          a.status !== 'nonexist' &&
          (addresses === undefined || addresses.includes(a.index)) &&
          (owners === undefined || owners.includes(a.owner!)) &&
          (jettons === undefined || jettons.includes(a.jettonMaster!)) &&
          (!excludeZero || (a.jettonBalance ?? 0n) > 0n),
      );
      const order = walletOrder(api, { byAddress: addresses !== undefined, byOwner: owners !== undefined, byBalance });
      wallets.sort(order.compare);
      const tie = order.tieKey === undefined ? undefined : { key: order.tieKey, rng: api.tieRng };
      const picked = selectPage(0, wallets.length, (i) => wallets[i]!, () => true, { ...page, sort: 'asc' }, tie);
      const refs = new Refs();
      const jetton_wallets = picked.map((a) => renderJettonWallet(api.render, a.index, refs));
      return enrich(api, req, { jetton_wallets }, refs, ENRICH);
    },
  };
}

interface WalletOrder {
  readonly compare: (a: Account, b: Account) => number;
  /** Set when the order leaves ties (balance), which then come in a random order. */
  readonly tieKey?: (a: Account) => string;
}

/**
 * The service's ORDER BY for jetton wallets: `address` with an address filter, else `owner` first with
 * an owner filter, then `balance {sort}` when sort is given, else the internal id (account index).
 */
function walletOrder(api: DevnetApi, by: { byAddress: boolean; byOwner: boolean; byBalance: 'asc' | 'desc' | undefined }): WalletOrder {
  const raw = (account: number): string => api.render.raw(account);
  if (by.byAddress) return { compare: (a, b) => compare(a.raw, b.raw) };
  const owner = (a: Account): string => (by.byOwner ? raw(a.owner!) : '');
  const balance = (a: Account): bigint => a.jettonBalance ?? 0n;
  if (by.byBalance === undefined) return { compare: (a, b) => compare(owner(a), owner(b)) || a.index - b.index };
  const sign = by.byBalance === 'asc' ? 1 : -1;
  return {
    compare: (a, b) => compare(owner(a), owner(b)) || sign * compare(balance(a), balance(b)),
    tieKey: (a) => `${owner(a)}|${balance(a)}`,
  };
}

function compare<T extends string | bigint>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
