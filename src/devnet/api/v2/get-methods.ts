/**
 * POST /runGetMethodStd and /runGetMethod (the legacy stack of ./legacy-stack.ts): read-only get
 * methods on the HEAD state, with typed stack entries in and out. The devnet has no TVM: each contract kind answers its standard getters from the chain model.
 * A method the contract lacks fails as TVM does (exit code 11) and the gateway turns a non-zero
 * exit code into 500 `Exit code <N> != 0`; an account without code fails with exit code -13.
 */
import { createHash } from 'node:crypto';
import { Address, beginCell, Cell } from '@ton/core';
import type { DevnetRequest, Handler } from '../../http/types.js';
import type { Account, AccountKind, Block } from '../../chain/model.js';
import { ApiError } from '../../http/api-error.js';
import type { DevnetApi } from '../context.js';
import { jettonContent, jettonWalletCode, publicKeyOf } from '../../render/contract-cells.js';
import { parseAddressText } from './params.js';
import { cellEntry, numberEntry, parseStack, sliceEntry, type StackEntry } from './tvm-stack.js';
import { legacyToTyped, typedToLegacy } from './legacy-stack.js';
import { accountStateAt, lastTransactionId, type AccountStateAt } from './accounts.js';
import { blockIdExt, headMcBlock } from './block-id.js';

/** Exit code of a call to a method id the contract's dispatcher does not know. */
export const EXIT_METHOD_NOT_FOUND = 11;
/** TVM exit codes of a get method given the wrong argument: a type check failed, a slice ran short. */
const EXIT_TYPE_CHECK = 7;
const EXIT_CELL_UNDERFLOW = 9;
/** Exit code reported for an account that has no code (uninitialized, frozen or never seen). */
export const EXIT_NO_CODE = -13;

interface GetMethod {
  readonly gas: number;
  readonly run: (api: DevnetApi, account: Account, stack: readonly StackEntry[]) => StackEntry[];
}

const addressSlice = (api: DevnetApi, account: number | undefined) =>
  sliceEntry(beginCell().storeAddress(account === undefined ? null : api.render.address(account)).endCell());

const seqno: GetMethod = { gas: 489, run: (_api, account) => [numberEntry(account.seqno)] };
const getPublicKey: GetMethod = { gas: 552, run: (_api, account) => [numberEntry(publicKeyOf(account))] };

/** Get methods per contract kind, by method name. */
const METHODS: Readonly<Partial<Record<AccountKind, Readonly<Record<string, GetMethod>>>>> = {
  wallet: { seqno, get_public_key: getPublicKey },
  validator_wallet: { seqno, get_public_key: getPublicKey },
  jetton_wallet: {
    // TEP-74: balance, owner, jetton master, jetton wallet code.
    get_wallet_data: {
      gas: 4_279,
      run: (api, account) => [
        numberEntry(account.jettonBalance ?? 0n),
        addressSlice(api, account.owner),
        addressSlice(api, account.jettonMaster),
        cellEntry(jettonWalletCode(api.render)),
      ],
    },
  },
  jetton_master: {
    // TEP-74: total supply, mintable (-1 = true), admin (none: revoked), content, jetton wallet code.
    get_jetton_data: {
      gas: 3_186,
      run: (api, account) => [
        numberEntry(account.token?.totalSupply ?? 0n),
        numberEntry(-1),
        addressSlice(api, undefined),
        cellEntry(jettonContent(account)),
        cellEntry(jettonWalletCode(api.render)),
      ],
    },
    // TEP-74: the jetton wallet of the owner address in the stack's slice.
    get_wallet_address: {
      gas: 5_872,
      run: (api, account, stack) => [sliceEntry(beginCell().storeAddress(jettonWalletAddress(api, account, ownerArgument(stack))).endCell())],
    },
  },
  nft_item: {
    // TEP-62: init? (-1), index, collection, owner, individual content.
    get_nft_data: {
      gas: 2_970,
      run: (api, account) => [
        numberEntry(-1),
        numberEntry(account.nftIndex ?? 0),
        addressSlice(api, api.view.chain.population.collection),
        addressSlice(api, account.owner),
        cellEntry(beginCell().storeStringTail(`${account.nftIndex ?? 0}.json`).endCell()),
      ],
    },
  },
};

function ownerArgument(stack: readonly StackEntry[]): Address {
  const entry = stack.at(-1);
  const slice = entry?.['@type'] === 'tvm.stackEntrySlice' ? (entry.slice as { bytes: string }) : undefined;
  if (slice === undefined) throw exitCode(EXIT_TYPE_CHECK);
  try {
    return Cell.fromBase64(slice.bytes).beginParse().loadAddress();
  } catch {
    throw exitCode(EXIT_CELL_UNDERFLOW);
  }
}

/**
 * The owner's wallet of this master: the one the chain has, else the address a wallet not yet
 * deployed would get (derived from master and owner, as the contract's StateInit hash is).
 */
function jettonWalletAddress(api: DevnetApi, master: Account, owner: Address): Address {
  const population = api.view.chain.population;
  const ownerIndex = population.byRaw.get(`${owner.workChain}:${owner.hash.toString('hex').toUpperCase()}`);
  const wallet = ownerIndex === undefined ? undefined : population.accountAt(ownerIndex).jettonWallets?.get(master.index);
  if (wallet !== undefined) return api.render.address(wallet);
  return new Address(0, createHash('sha256').update('devnet-jetton-wallet:').update(master.id).update(owner.hash).digest());
}

export function getMethodsHandlers(api: DevnetApi): Record<string, Handler> {
  return {
    runGetMethodStd: (req) => {
      const fields = requestFields(req);
      const run = runMethod(api, fields, () => parseStack(fields['stack']));
      return { '@type': 'smc.runResult', gas_used: run.gasUsed, stack: run.stack, exit_code: 0 };
    },
    runGetMethod: (req) => {
      const fields = requestFields(req);
      const run = runMethod(api, fields, () => legacyToTyped(fields['stack']));
      return {
        '@type': 'smc.runResult',
        gas_used: run.gasUsed,
        stack: typedToLegacy(run.stack),
        exit_code: 0,
        block_id: blockIdExt(run.block),
        last_transaction_id: lastTransactionId(run.state),
      };
    },
  };
}

interface MethodRun {
  readonly gasUsed: number;
  readonly stack: StackEntry[];
  readonly block: Block;
  readonly state: AccountStateAt | undefined;
}

/** Checks the request in the gateway's order (address, method, stack), then runs the method on the HEAD state. */
function runMethod(api: DevnetApi, fields: Record<string, unknown>, readStack: () => StackEntry[]): MethodRun {
  const address = fields['address'];
  if (address === undefined || address === null || address === '') throw new ApiError(422, 'empty address');
  const raw = parseAddressText(String(address));
  const methodId = methodIdOf(fields['method']);
  const stack = readStack();

  const population = api.view.chain.population;
  const index = population.byRaw.get(raw);
  const account = index === undefined ? undefined : population.accountAt(index);
  if (account === undefined || account.status !== 'active') throw exitCode(EXIT_NO_CODE);
  const methods = METHODS[account.kind] ?? {};
  const name = Object.keys(methods).find((n) => getMethodId(n) === methodId);
  const method = name === undefined ? undefined : methods[name];
  if (method === undefined) throw exitCode(EXIT_METHOD_NOT_FOUND);
  const block = headMcBlock(api);
  return { gasUsed: method.gas, stack: method.run(api, account, stack), block, state: accountStateAt(api, account, block.mcSeqno) };
}

/** The JSON body (REST POST, or JSON-RPC params); a GET falls back to the query, `stack` as JSON text. */
function requestFields(req: DevnetRequest): Record<string, unknown> {
  const body = req.body;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  const q = req.query;
  const stackText = q.get('stack');
  let stack: unknown = stackText;
  if (stackText !== undefined) {
    try {
      stack = JSON.parse(stackText);
    } catch {
      // left as text: not an array
    }
  }
  return { address: q.get('address'), method: q.get('method'), stack };
}

/** `method` is a name or a numeric method id. */
function methodIdOf(method: unknown): number {
  if (typeof method === 'number' && Number.isInteger(method)) return method;
  if (typeof method === 'string' && method !== '') return getMethodId(method);
  throw new ApiError(422, 'method required');
}

/** TVM get-method id: CRC16/XMODEM of the name, with bit 16 set (`seqno` → 85143). */
export function getMethodId(name: string): number {
  let crc = 0;
  for (const byte of Buffer.from(name, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc | 0x10000;
}

/** How the gateway reports a non-zero TVM exit code. */
export function exitCode(code: number): ApiError {
  return new ApiError(500, `Exit code ${code} != 0`);
}
