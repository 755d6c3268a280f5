/**
 * Code and data cells of the devnet's contracts, built with @ton/core. Data cells follow the
 * standard layouts (wallet v3/v4, TEP-74 jetton master and wallet, TEP-62 NFT item); code cells are
 * placeholders: one small cell per contract kind holding the kind's code hash (the devnet runs no TVM,
 * so real code is never needed, and a cell cannot be made to hash to a given value anyway).
 */
import { createHash } from 'node:crypto';
import { Dictionary, beginCell, type Cell } from '@ton/core';
import type { Account } from '../chain/model.js';
import type { RenderContext } from './context.js';
import { SUBWALLET_ID } from '../chain/constants.js';

const codeCells = new Map<string, Cell>();

export function codeCell(account: Account): Cell {
  const key = `${account.kind}:${account.codeHash ?? ''}`;
  let cell = codeCells.get(key);
  if (cell === undefined) {
    const hash = account.codeHash === null ? sha256(account.kind) : Buffer.from(account.codeHash, 'base64');
    cell = beginCell().storeUint(0xff00, 16).storeBuffer(hash).storeStringTail(account.kind).endCell();
    codeCells.set(key, cell);
  }
  return cell;
}

/** The wallet's Ed25519 public key: derived from its account id, stable per seed. */
export function publicKeyOf(account: Account): bigint {
  return BigInt(`0x${sha256('devnet-pubkey:', account.id).toString('hex')}`);
}

export function dataCell(ctx: RenderContext, account: Account): Cell {
  const address = (index: number | undefined) => (index === undefined ? null : ctx.address(index));
  switch (account.kind) {
    case 'wallet':
      return beginCell()
        .storeUint(account.seqno, 32)
        .storeUint(SUBWALLET_ID, 32)
        .storeUint(publicKeyOf(account), 256)
        .storeBit(false) // no plugins
        .endCell();
    case 'validator_wallet':
      return beginCell().storeUint(account.seqno, 32).storeUint(SUBWALLET_ID, 32).storeUint(publicKeyOf(account), 256).endCell();
    case 'jetton_wallet':
      return beginCell()
        .storeCoins(account.jettonBalance ?? 0n)
        .storeAddress(address(account.owner))
        .storeAddress(address(account.jettonMaster))
        .storeRef(jettonWalletCode(ctx))
        .endCell();
    case 'jetton_master':
      return beginCell()
        .storeCoins(account.token?.totalSupply ?? 0n)
        .storeAddress(null)
        .storeRef(jettonContent(account))
        .storeRef(jettonWalletCode(ctx))
        .endCell();
    case 'nft_item':
      return beginCell()
        .storeUint(account.nftIndex ?? 0, 64)
        .storeAddress(ctx.address(ctx.chain.population.collection))
        .storeAddress(address(account.owner))
        .storeRef(beginCell().storeStringTail(`${account.nftIndex ?? 0}.json`).endCell())
        .endCell();
    default:
      return beginCell().storeBuffer(sha256(`devnet-data:${account.kind}:`, account.id)).endCell();
  }
}

/** The code every jetton wallet runs (all wallets share one code hash). */
export function jettonWalletCode(ctx: RenderContext): Cell {
  const wallet = ctx.chain.population.accounts.find((a) => a.kind === 'jetton_wallet');
  if (wallet === undefined) throw new Error('the population has no jetton wallet');
  return codeCell(wallet);
}

/** TEP-64 on-chain content: 0x00 prefix, dict sha256(key) → snake cell (0x00 + text). */
export function jettonContent(account: Account): Cell {
  const token = account.token;
  const dict = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  if (token !== undefined) {
    for (const [key, value] of [['name', token.name], ['symbol', token.symbol], ['decimals', String(token.decimals)]] as const) {
      dict.set(sha256(key), beginCell().storeUint(0, 8).storeStringTail(value).endCell());
    }
  }
  return beginCell().storeUint(0, 8).storeDict(dict).endCell();
}

export function boc(cell: Cell): string {
  return cell.toBoc({ idx: false, crc32: true }).toString('base64');
}

function sha256(...parts: (string | Buffer)[]): Buffer {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
}
