/**
 * GET /getExtendedAddressInformation, /getWalletInformation, /getAddressBalance, /getAddressState:
 * the same account state as /getAddressInformation (./accounts.ts), read through tonlib's parsers:
 * wallets show their type, seqno and wallet id; other contracts their raw code and data.
 */
import { Address } from '@ton/core';
import type { Handler } from '../../http/types.js';
import type { Account } from '../../chain/model.js';
import type { DevnetApi } from '../context.js';
import { friendlyAddress } from './address-forms.js';
import { addressAt, lastTransactionId } from './accounts.js';
import { blockIdExt } from './block-id.js';
import { boc, codeCell, dataCell } from '../../render/contract-cells.js';
import { SUBWALLET_ID } from '../../chain/constants.js';

/** Wallet kinds as tonlib names them: the data layouts of contract-cells.ts (v4 has the plugin dict). */
const WALLET_TYPES: Partial<Record<Account['kind'], { readonly name: string; readonly state: string }>> = {
  wallet: { name: 'wallet v4 r2', state: 'wallet.v4.accountState' },
  validator_wallet: { name: 'wallet v3 r2', state: 'wallet.v3.accountState' },
};

export function accountViewsHandlers(api: DevnetApi): Record<string, Handler> {
  return {
    getExtendedAddressInformation: (req) => {
      const { raw, account, block, state, v2State } = addressAt(api, req.query);
      return {
        '@type': 'fullAccountState',
        address: { '@type': 'accountAddress', account_address: friendlyAddress(api, Address.parseRaw(raw)) },
        balance: (state?.balance ?? 0n).toString(),
        extra_currencies: [],
        last_transaction_id: lastTransactionId(state),
        block_id: blockIdExt(block),
        sync_utime: block.genUtime,
        account_state: accountState(api, account, v2State === 'active'),
        revision: 0,
      };
    },
    getWalletInformation: (req) => {
      const { account, state, v2State } = addressAt(api, req.query);
      const wallet = account === undefined || v2State !== 'active' ? undefined : WALLET_TYPES[account.kind];
      const info: Record<string, unknown> = {
        '@type': 'ext.accounts.walletInformation',
        wallet: wallet !== undefined,
        balance: (state?.balance ?? 0n).toString(),
        account_state: v2State,
        last_transaction_id: lastTransactionId(state),
      };
      if (wallet !== undefined && account !== undefined) Object.assign(info, { wallet_type: wallet.name, seqno: account.seqno, wallet_id: SUBWALLET_ID });
      return info;
    },
    getAddressBalance: (req) => (addressAt(api, req.query).state?.balance ?? 0n).toString(),
    getAddressState: (req) => addressAt(api, req.query).v2State,
  };
}

function accountState(api: DevnetApi, account: Account | undefined, active: boolean): Record<string, unknown> {
  if (account === undefined || !active) return { '@type': 'uninited.accountState', frozen_hash: '' };
  const wallet = WALLET_TYPES[account.kind];
  if (wallet !== undefined) return { '@type': wallet.state, wallet_id: SUBWALLET_ID, seqno: account.seqno };
  return { '@type': 'raw.accountState', code: boc(codeCell(account)), data: boc(dataCell(api.render, account)), frozen_hash: '' };
}
