/**
 * POST /sendBoc, /sendBocReturnHash: accept a signed external message for a wallet, checked as the
 * wallet contract checks it before accepting (wallet id, seqno, expiry; the devnet's wallets have no
 * private keys, so the signature is not checked); a plain transfer goes into the chain's next block. POST /estimateFee: the fees such a message costs,
 * with mainnet's basechain prices.
 */
import { Cell, loadMessage, loadMessageRelaxed, type Address, type Message as CoreMessage, type MessageRelaxed } from '@ton/core';
import type { BodySpec } from '../../chain/bodies.js';
import type { Handler } from '../../http/types.js';
import type { QueryParams } from '../../http/query-params.js';
import type { Account } from '../../chain/model.js';
import { ApiError } from '../../http/api-error.js';
import { GAS_PRICE } from '../../render/transaction.js';
import { normalizedExternalHash } from '../../render/normalized-hash.js';
import type { DevnetApi } from '../context.js';
import { headMcBlock } from './block-id.js';
import { SUBWALLET_ID } from '../../chain/constants.js';
import { EXIT_NO_CODE, exitCode } from './get-methods.js';
import { addressParam } from './params.js';

/** Gas a wallet's external costs, per wallet kind (v4r2, v3r2: one message sent). */
const WALLET_GAS: Partial<Record<Account['kind'], bigint>> = { wallet: 3_308n, validator_wallet: 2_994n };
/** Exit codes of the wallet contracts: v4r2 checks expiry first (36), v3r2 says 35. */
const EXIT_SEQNO = 33;
const EXIT_WALLET_ID = 34;
const EXIT_EXPIRED: Partial<Record<Account['kind'], number>> = { wallet: 36, validator_wallet: 35 };
const EXIT_CELL_UNDERFLOW = 9;

/** Mainnet basechain message forwarding prices (config param 25). */
const LUMP_PRICE = 400_000n;
const BIT_PRICE = 26_214_400n;
const CELL_PRICE = 2_621_440_000n;

export function sendHandlers(api: DevnetApi): Record<string, Handler> {
  return {
    sendBoc: (req) => {
      submit(api, acceptExternal(api, req.query));
      return { '@type': 'ok' };
    },
    sendBocReturnHash: (req) => {
      const accepted = acceptExternal(api, req.query);
      submit(api, accepted);
      const { message, cell } = accepted;
      return { '@type': 'raw.extMessageInfo', hash: cell.hash().toString('base64'), hash_norm: normalizedHash(message) };
    },
    estimateFee: (req) => {
      const q = req.query;
      const raw = addressParam(q);
      const body = cellParam(q, 'body', true);
      const initCode = cellParam(q, 'init_code', false);
      const initData = cellParam(q, 'init_data', false);
      const population = api.view.chain.population;
      const index = population.byRaw.get(raw);
      const account = index === undefined ? undefined : population.accountAt(index);
      const deployed = account?.status === 'active';
      // Without code (none deployed, none given) the compute phase is skipped: no gas.
      const gas = deployed ? (WALLET_GAS[account.kind] ?? 0n) : initCode !== undefined ? WALLET_GAS.wallet! : 0n;
      const init = [initCode, initData].filter((cell): cell is Cell => cell !== undefined);
      return {
        '@type': 'query.fees',
        source_fees: {
          '@type': 'fees',
          in_fwd_fee: Number(forwardFee([body, ...init])),
          storage_fee: 0,
          gas_fee: Number(gas * GAS_PRICE),
          fwd_fee: Number(body.refs.reduce((sum, ref) => sum + forwardFee(ref.refs), 0n)),
        },
        destination_fees: [],
      };
    },
  };
}

interface AcceptedExternal {
  readonly message: CoreMessage;
  readonly cell: Cell;
  readonly wallet: Account;
}

/**
 * Queues the transfer for the chain's next block when the chain can hold it: one plain message (no
 * body or a text comment) to an account it knows. Other accepted messages are not included.
 */
function submit(api: DevnetApi, { message, cell, wallet }: AcceptedExternal): void {
  const slice = message.body.beginParse();
  slice.skip(512);
  const subwalletId = slice.loadUint(32);
  const validUntil = slice.loadUint(32);
  const seqno = slice.loadUint(32);
  if (wallet.kind === 'wallet' && (slice.remainingBits < 8 || slice.loadUint(8) !== 0)) return;
  if (slice.remainingRefs !== 1 || slice.remainingBits < 8) return;
  slice.skip(8);
  let out: MessageRelaxed;
  try {
    out = loadMessageRelaxed(slice.loadRef().beginParse());
  } catch {
    return;
  }
  if (out.info.type !== 'internal' || out.init) return;
  const to = api.view.chain.population.byRaw.get(rawOf(out.info.dest));
  const body = plainBody(out.body);
  if (to === undefined || body === undefined) return;
  api.submit({
    hash: cell.hash().toString('base64'),
    wallet: wallet.index,
    signature: message.body.beginParse().loadBuffer(64),
    subwalletId,
    validUntil,
    seqno,
    to,
    value: out.info.value.coins,
    bounce: out.info.bounce,
    body,
  });
}

function plainBody(body: Cell): BodySpec | undefined {
  if (body.bits.length === 0 && body.refs.length === 0) return { kind: 'empty' };
  const slice = body.beginParse();
  if (slice.remainingBits < 32 || slice.loadUint(32) !== 0) return undefined;
  try {
    return { kind: 'text', text: slice.loadStringTail() };
  } catch {
    return undefined;
  }
}

function rawOf(address: Address): string {
  return `${address.workChain}:${address.hash.toString('hex').toUpperCase()}`;
}

function acceptExternal(api: DevnetApi, q: QueryParams): AcceptedExternal {
  const cell = cellParam(q, 'boc', true);
  let message: CoreMessage;
  try {
    message = loadMessage(cell.beginParse());
  } catch {
    throw new ApiError(422, 'failed to parse boc');
  }
  if (message.info.type !== 'external-in') throw notAccepted();
  const dest = message.info.dest;
  const population = api.view.chain.population;
  const index = population.byRaw.get(rawOf(dest));
  const account = index === undefined ? undefined : population.accountAt(index);
  if (account === undefined || account.status !== 'active') throw exitCode(EXIT_NO_CODE);
  if (WALLET_GAS[account.kind] === undefined) throw notAccepted();
  checkWalletBody(api, account, message.body);
  return { message, cell, wallet: account };
}

/** signature (512 bits), wallet id, valid_until, seqno: the header every wallet external starts with. */
function checkWalletBody(api: DevnetApi, wallet: Account, body: Cell): void {
  const slice = body.beginParse();
  if (slice.remainingBits < 512 + 96) throw exitCode(EXIT_CELL_UNDERFLOW);
  slice.skip(512);
  const walletId = slice.loadUint(32);
  const validUntil = slice.loadUint(32);
  const seqno = slice.loadUint(32);
  if (validUntil <= headMcBlock(api).genUtime) throw exitCode(EXIT_EXPIRED[wallet.kind]!);
  if (seqno !== wallet.seqno) throw exitCode(EXIT_SEQNO);
  if (walletId !== SUBWALLET_ID) throw exitCode(EXIT_WALLET_ID);
}

/** TEP-467: the hash of the message as if sent from addr_none with no import fee, no init and the body in a ref. */
function normalizedHash(message: CoreMessage): string {
  if (message.info.type !== 'external-in') throw new Error('not an external message');
  return normalizedExternalHash(message.info.dest, message.body);
}

/** lump + the bits and cells of the tree below the root, at the forwarding prices. */
function forwardFee(cells: readonly Cell[]): bigint {
  let bits = 0n;
  let count = 0n;
  const seen = new Set<string>();
  const visit = (cell: Cell): void => {
    const key = cell.hash().toString('hex');
    if (seen.has(key)) return;
    seen.add(key);
    bits += BigInt(cell.bits.length);
    count += 1n;
    cell.refs.forEach(visit);
  };
  cells.forEach(visit);
  return LUMP_PRICE + (BIT_PRICE * bits + CELL_PRICE * count + 0xffffn) / 0x10000n;
}

function cellParam(q: QueryParams, name: string, required: true): Cell;
function cellParam(q: QueryParams, name: string, required: boolean): Cell | undefined;
function cellParam(q: QueryParams, name: string, required: boolean): Cell | undefined {
  const text = q.get(name);
  if (text === undefined || text === '') {
    if (required) throw new ApiError(422, `empty ${name}`);
    return undefined;
  }
  try {
    return Cell.fromBase64(text);
  } catch {
    throw new ApiError(422, `failed to parse ${name}`);
  }
}

function notAccepted(): ApiError {
  return new ApiError(500, 'LITE_SERVER_UNKNOWN: cannot apply external message to current state : External message was not accepted');
}
