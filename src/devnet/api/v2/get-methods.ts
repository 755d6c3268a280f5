/**
 * POST /runGetMethodStd: read-only get methods on the HEAD state, with typed stack entries in and
 * out. The devnet has no TVM: each contract kind answers its standard getters from the chain model.
 * A method the contract lacks fails as TVM does (exit code 11) and the gateway turns a non-zero
 * exit code into 500 `Exit code <N> != 0`; an account without code fails with exit code -13.
 */
import { beginCell } from '@ton/core';
import type { DevnetRequest, Handler } from '../../http/types.js';
import type { Account, AccountKind } from '../../chain/model.js';
import { ApiError } from '../../http/api-error.js';
import type { DevnetApi } from '../context.js';
import { jettonContent, jettonWalletCode, publicKeyOf } from './contract-cells.js';
import { parseAddressText } from './params.js';
import { cellEntry, numberEntry, parseStack, sliceEntry, type StackEntry } from './tvm-stack.js';

/** Exit code of a call to a method id the contract's dispatcher does not know. */
export const EXIT_METHOD_NOT_FOUND = 11;
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

export function getMethodsHandlers(api: DevnetApi): Record<string, Handler> {
  return {
    runGetMethodStd: (req) => {
      const fields = requestFields(req);
      const address = fields['address'];
      if (address === undefined || address === null || address === '') throw new ApiError(422, 'empty address');
      const raw = parseAddressText(String(address));
      const methodId = methodIdOf(fields['method']);
      const stack = parseStack(fields['stack']);

      const population = api.view.chain.population;
      const index = population.byRaw.get(raw);
      const account = index === undefined ? undefined : population.accountAt(index);
      if (account === undefined || account.status !== 'active') throw exitCode(EXIT_NO_CODE);
      const methods = METHODS[account.kind] ?? {};
      const name = Object.keys(methods).find((n) => getMethodId(n) === methodId);
      const method = name === undefined ? undefined : methods[name];
      if (method === undefined) throw exitCode(EXIT_METHOD_NOT_FOUND);
      return { '@type': 'smc.runResult', gas_used: method.gas, stack: method.run(api, account, stack), exit_code: 0 };
    },
  };
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

function exitCode(code: number): ApiError {
  return new ApiError(500, `Exit code ${code} != 0`);
}
