/**
 * GET /multisig/wallets, /multisig/orders over the genesis multisig (chain/services.ts), each order's
 * approvals as of the indexed block (chain/multisig-ledger.ts). Wallets are
 * found by their address or by a signer's or proposer's (`wallet_address`); orders by their address or
 * their multisig's. One of the two filters is required; pages follow the address order, `sort` on it.
 */
import type { Handler } from '../../http/types.js';
import type { QueryParams } from '../../http/query-params.js';
import type { MultisigOrder } from '../../chain/services.js';
import { ORDER_SEND_MODE, orderCell } from '../../chain/bodies.js';
import { toCoreCell } from '../../cell-hash.js';
import { ApiError } from '../../http/api-error.js';
import { accountsParam, enrich, Refs, type DevnetApi } from '../context.js';
import { accountSnapshot } from '../../render/account-state.js';
import { boc } from '../../render/contract-cells.js';

export function multisigHandlers(api: DevnetApi): Record<string, Handler> {
  const multisig = api.view.chain.services.multisig;
  const raw = (account: number): string => api.render.raw(account);
  /** The order's approvals as of the indexed block: its newest indexed change, else its genesis state. */
  const stateOf = (order: MultisigOrder): { readonly approvals: readonly boolean[]; readonly sentForExecution: boolean } => {
    const changes = api.view.chain.orderChanges;
    const indexed = changes.slice(0, api.view.visibleRecords(changes)).filter((change) => change.order === order.seqno);
    return indexed[indexed.length - 1] ?? order;
  };
  const renderOrder = (order: MultisigOrder, parseActions: boolean, refs: Refs): Record<string, unknown> => {
    const s = accountSnapshot(api.render, order.account);
    const { approvals, sentForExecution } = stateOf(order);
    refs.add(order.account);
    refs.add(multisig.account);
    const rendered: Record<string, unknown> = {
      address: s.account.raw,
      multisig_address: raw(multisig.account),
      order_seqno: String(order.seqno),
      threshold: multisig.threshold,
      sent_for_execution: sentForExecution,
      approvals_mask: String(approvals.reduce((mask, approved, i) => (approved ? mask | (1 << i) : mask), 0)),
      approvals_num: approvals.filter(Boolean).length,
      expiration_date: order.expiration,
      order_boc: boc(toCoreCell(orderCell(order.actions, (account) => api.render.address(account)))),
      signers: multisig.signers.map(raw),
      last_transaction_lt: s.lastTransactionLt,
      code_hash: s.codeHash,
      data_hash: s.dataHash,
    };
    if (parseActions) {
      rendered.actions = order.actions.map((action) => {
        refs.add(action.destination);
        return {
          destination: raw(action.destination),
          value: action.value.toString(),
          send_mode: ORDER_SEND_MODE,
          parsed: true,
          parsed_body_type: 'text_comment',
          parsed_body: { comment: action.comment },
          body_raw: null,
          error: null,
        };
      });
    }
    return rendered;
  };
  return {
    'multisig/wallets': (req) => {
      const q = req.query;
      const addresses = accountsParam(api, q, 'address', 1024);
      const wallets = accountsParam(api, q, 'wallet_address', 1024);
      requireOne(addresses, wallets, 'address', 'wallet_address');
      const includeOrders = q.bool('include_orders') ?? true;
      const members = [...multisig.signers, ...multisig.proposers];
      const matches = (addresses === undefined || addresses.includes(multisig.account)) && (wallets === undefined || wallets.some((w) => members.includes(w)));
      const refs = new Refs();
      const multisigs = page(q, matches ? [multisig] : []).map(() => {
        const s = accountSnapshot(api.render, multisig.account);
        refs.add(multisig.account);
        for (const member of members) refs.add(member);
        return {
          address: s.account.raw,
          next_order_seqno: String(multisig.orders.length),
          threshold: multisig.threshold,
          signers: multisig.signers.map(raw),
          proposers: multisig.proposers.map(raw),
          last_transaction_lt: s.lastTransactionLt,
          code_hash: s.codeHash,
          data_hash: s.dataHash,
          ...(includeOrders ? { orders: multisig.orders.map((order) => renderOrder(order, false, refs)) } : {}),
        };
      });
      return enrich(api, req, { multisigs }, refs, { addressBook: true, metadata: false });
    },
    'multisig/orders': (req) => {
      const q = req.query;
      const addresses = accountsParam(api, q, 'address', 1024);
      const wallets = accountsParam(api, q, 'multisig_address', 1024);
      requireOne(addresses, wallets, 'address', 'multisig_address');
      const parseActions = q.bool('parse_actions') === true;
      const orders = multisig.orders.filter((order) => (addresses === undefined || addresses.includes(order.account)) && (wallets === undefined || wallets.includes(multisig.account)));
      const byAddress = orders.sort((a, b) => (raw(a.account) < raw(b.account) ? -1 : 1));
      const refs = new Refs();
      return enrich(api, req, { orders: page(q, byAddress).map((order) => renderOrder(order, parseActions, refs)) }, refs, { addressBook: true, metadata: false });
    },
  };
}

function requireOne(a: readonly number[] | undefined, b: readonly number[] | undefined, aName: string, bName: string): void {
  if (a === undefined && b === undefined) throw new ApiError(422, `${aName} or ${bName} is required`);
}

/** limit (default 10, at most 1024), offset and sort over rows in ascending order. */
function page<T>(q: QueryParams, rows: readonly T[]): T[] {
  const limit = q.limit(10, 1024);
  const offset = q.offset();
  const ordered = q.sort() === 'asc' ? rows : [...rows].reverse();
  return ordered.slice(offset, offset + limit);
}
