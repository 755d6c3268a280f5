/**
 * StateInit cells (TL-B `StateInit`: no split depth, not special, code, data, no library) of the
 * contracts the chain deploys: a jetton wallet (every internal transfer to it carries one) and a
 * user wallet (its first external message carries one). The devnet's addresses are not hashes of
 * their StateInit (account ids are drawn from the seed): the cell is what a deploy carries, not what
 * derives the address.
 */
import { beginCell, storeStateInit, type Cell, type StateInit } from '@ton/core';
import type { Account } from '../chain/model.js';
import type { RenderContext } from './context.js';
import { codeCell, jettonWalletCode, publicKeyOf } from './contract-cells.js';
import { SUBWALLET_ID } from '../chain/constants.js';

export function stateInitOf(ctx: RenderContext, index: number): StateInit {
  const account = ctx.chain.population.accountAt(index);
  return { code: codeCell(account), data: initialData(ctx, account) };
}

export function stateInitCell(init: StateInit): Cell {
  return beginCell().store(storeStateInit(init)).endCell();
}

function initialData(ctx: RenderContext, account: Account): Cell {
  switch (account.kind) {
    case 'jetton_wallet':
      // TEP-74: balance 0, owner, master, wallet code.
      return beginCell().storeCoins(0).storeAddress(ctx.address(account.owner!)).storeAddress(ctx.address(account.jettonMaster!)).storeRef(jettonWalletCode(ctx)).endCell();
    case 'wallet':
      // Wallet v4: seqno 0, subwallet id, public key, no plugins.
      return beginCell().storeUint(0, 32).storeUint(SUBWALLET_ID, 32).storeUint(publicKeyOf(account), 256).storeBit(false).endCell();
    default:
      throw new Error(`the chain never deploys a ${account.kind}`);
  }
}
