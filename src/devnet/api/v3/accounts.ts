/**
 * GET /addressBook, /metadata, /walletStates, /accountStates, /topAccountsByBalance.
 * Current state is the head state; accounts that do not exist (never seen, or `nonexist`) are
 * left out of results. addressBook and metadata are bare maps keyed by the address as sent.
 */
import { Address } from '@ton/core';
import type { Handler } from '../../http/types.js';
import type { QueryParams } from '../../http/query-params.js';
import type { Account } from '../../chain/model.js';
import { ApiError } from '../../http/api-error.js';
import { accountsParam, enrich, pageParams, parseAddress, Refs, type DevnetApi } from '../context.js';
import { selectPage } from '../paging.js';
import { renderAddressBook, renderMetadata } from '../../render/address-book.js';
import { renderAccountStateFull, renderWalletState } from '../../render/account-state.js';

const ENRICH = { addressBook: true, metadata: true } as const;

export function accountHandlers(api: DevnetApi): Record<string, Handler> {
  const population = api.view.chain.population;
  const knownIndex = (raw: string): number | undefined => population.byRaw.get(raw);
  return {
    addressBook: (req) => {
      const book: Record<string, unknown> = {};
      for (const text of requiredValues(req.query, 'address', 1024)) {
        const raw = parseAddress('address', text);
        const index = knownIndex(raw);
        book[text] = index === undefined ? unknownBookEntry(api, text) : renderAddressBook(api.render, [index])[raw];
      }
      return book;
    },
    metadata: (req) => {
      const metadata: Record<string, unknown> = {};
      for (const text of requiredValues(req.query, 'address', 1024)) {
        const raw = parseAddress('address', text);
        const index = knownIndex(raw);
        const entry = index === undefined ? undefined : renderMetadata(api.render, [index])[raw];
        if (entry !== undefined) metadata[text] = entry;
      }
      return metadata;
    },
    walletStates: (req) => {
      const refs = new Refs();
      const wallets = existingAccounts(api, req.query).map((a) => renderWalletState(api.render, a.index, refs));
      return enrich(api, req, { wallets }, refs, ENRICH);
    },
    accountStates: (req) => {
      req.query.bool('include_boc');
      const refs = new Refs();
      const accounts = existingAccounts(api, req.query).map((a) => renderAccountStateFull(api.render, a.index, refs));
      return enrich(api, req, { accounts }, refs, ENRICH);
    },
    topAccountsByBalance: (req) => {
      const page = { ...pageParams(req.query, 10, 1024), sort: 'asc' as const };
      const accounts = population.accounts.filter((a) => a.status !== 'nonexist').sort((a, b) => (a.balance === b.balance ? 0 : a.balance > b.balance ? -1 : 1));
      const picked = selectPage(0, accounts.length, (i) => accounts[i]!, () => true, page, {
        key: (a: Account) => a.balance.toString(),
        rng: api.tieRng,
      });
      return picked.map((a) => ({ account: a.raw, balance: a.balance.toString() }));
    },
  };
}

/** A required repeated parameter: 422 when absent or longer than `max`. */
function requiredValues(query: QueryParams, name: string, max: number): string[] {
  const values = query.getAll(name).filter((v) => v !== '');
  if (values.length === 0) throw new ApiError(422, `missing required parameter: ${name}`);
  if (values.length > max) throw new ApiError(422, `${name}: too many values: ${values.length} > ${max}`);
  return values;
}

/** The existing accounts among `address[]` (required, ≤ 1000), each once, in request order. */
function existingAccounts(api: DevnetApi, query: QueryParams): Account[] {
  requiredValues(query, 'address', 1000);
  const indexes = new Set(accountsParam(api, query, 'address') ?? []);
  const population = api.view.chain.population;
  return [...indexes].filter((i) => i >= 0).map((i) => population.accountAt(i)).filter((a) => a.status !== 'nonexist');
}

/** An address the chain never saw: printed non-bounceable, as for any account without code. */
function unknownBookEntry(api: DevnetApi, text: string): Record<string, unknown> {
  const userFriendly = Address.parse(text).toString({ urlSafe: true, bounceable: false, testOnly: api.render.network === 'testnet' });
  return { user_friendly: userFriendly, domain: null, interfaces: [] };
}
