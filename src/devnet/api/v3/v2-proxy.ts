/**
 * The v3 API's proxies of v2 methods (the spec's "API v2" tag): GET /addressInformation,
 * /walletInformation; POST /estimateFee, /message, /runGetMethod. State is the head's, as the v2
 * methods read it; bodies are JSON objects; the POST paths answer a GET with 405.
 */
import { Address, Cell, loadMessage } from '@ton/core';
import type { DevnetRequest, Handler } from '../../http/types.js';
import { ApiError } from '../../http/api-error.js';
import { parseAddress, type DevnetApi } from '../context.js';
import { accountStateAt, v2StateOf } from '../v2/accounts.js';
import { headMcBlock } from '../v2/block-id.js';
import { boc, codeCell, dataCell } from '../v2/contract-cells.js';
import { getMethodsHandlers } from '../v2/get-methods.js';
import { DEVNET_WALLET_ID, walletTypeOf } from '../../render/account-state.js';
import { normalizedExternalHash } from '../../render/normalized-hash.js';
import { fromV3Stack, toV3Stack } from './v3-stack.js';

/** Basechain message forwarding prices (config param 25) and gas price (param 21), nanoton. */
const LUMP_PRICE = 400_000n;
const BIT_PRICE = 26_214_400n;
const CELL_PRICE = 2_621_440_000n;
const GAS_PRICE = 400n;
/** Gas a wallet spends accepting an external message and sending one transfer (the generator's range). */
const WALLET_EXTERNAL_GAS = 3_308n;

export function v2ProxyHandlers(api: DevnetApi): Record<string, Handler> {
  const population = api.view.chain.population;
  const stateOf = (req: DevnetRequest) => {
    const text = req.query.get('address');
    if (text === undefined || text === '') throw new ApiError(422, 'missing required parameter: address');
    req.query.bool('use_v2');
    const index = population.byRaw.get(parseAddress('address', text));
    const account = index === undefined ? undefined : population.accountAt(index);
    const state = account === undefined ? undefined : accountStateAt(api, account, headMcBlock(api).mcSeqno);
    return { account, state, status: v2StateOf(state?.status ?? 'nonexist') };
  };
  const runGetMethodStd = getMethodsHandlers(api).runGetMethodStd!;
  return {
    addressInformation: (req) => {
      const { account, state, status } = stateOf(req);
      const deployed = account !== undefined && status === 'active';
      return {
        balance: (state?.balance ?? 0n).toString(),
        code: deployed ? boc(codeCell(account)) : null,
        data: deployed ? boc(dataCell(api.render, account)) : null,
        last_transaction_lt: String(state?.lastTx?.lt ?? 0),
        last_transaction_hash: state?.lastTx?.hash ?? null,
        frozen_hash: null,
        status,
        suspended: false,
      };
    },
    walletInformation: (req) => {
      const { account, state, status } = stateOf(req);
      const walletType = account === undefined ? undefined : walletTypeOf(account);
      const wallet = walletType !== undefined && status === 'active';
      return {
        balance: (state?.balance ?? 0n).toString(),
        status,
        last_transaction_lt: String(state?.lastTx?.lt ?? 0),
        last_transaction_hash: state?.lastTx?.hash ?? null,
        ...(wallet ? { wallet_type: walletType, seqno: account!.seqno, wallet_id: DEVNET_WALLET_ID } : {}),
        suspended: false,
      };
    },
    estimateFee: (req) => {
      const fields = postFields(req);
      const address = requiredText(fields, 'address');
      parseAddress('address', address);
      const body = cellField(fields, 'body') ?? Cell.EMPTY;
      const init = [cellField(fields, 'init_code'), cellField(fields, 'init_data')].filter((c) => c !== undefined);
      const { bits, cells } = [body, ...init].reduce((size, cell) => addSize(size, cell), { bits: 0n, cells: 0n });
      const inFwdFee = LUMP_PRICE + (BIT_PRICE * bits + CELL_PRICE * cells + 0xffffn) / 0x10000n;
      return {
        source_fees: { in_fwd_fee: Number(inFwdFee), storage_fee: 0, gas_fee: Number(WALLET_EXTERNAL_GAS * GAS_PRICE), fwd_fee: 0 },
        destination_fees: [],
      };
    },
    message: (req) => {
      const fields = postFields(req);
      const cell = cellField(fields, 'boc');
      if (cell === undefined) throw new ApiError(422, 'missing required field: boc');
      let destination: Address;
      let body: Cell;
      try {
        const message = loadMessage(cell.beginParse());
        if (message.info.type !== 'external-in') throw new Error(`a ${message.info.type} message`);
        destination = message.info.dest;
        body = message.body;
      } catch (err) {
        throw new ApiError(422, `failed to parse boc: not an external inbound message (${(err as Error).message})`);
      }
      return { message_hash: cell.hash().toString('base64'), message_hash_norm: normalizedExternalHash(destination, body) };
    },
    runGetMethod: (req) => {
      const fields = postFields(req);
      const result = runGetMethodStd({ ...req, body: { address: fields.address, method: fields.method, stack: fromV3Stack(fields.stack ?? []) } }) as {
        gas_used: number;
        exit_code: number;
        stack: Record<string, unknown>[];
      };
      return { gas_used: result.gas_used, exit_code: result.exit_code, stack: toV3Stack(result.stack) };
    },
  };
}

function postFields(req: DevnetRequest): Record<string, unknown> {
  if (req.method !== 'POST') throw new ApiError(405, 'method not allowed');
  const body = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError(422, 'request body must be a JSON object');
  return body as Record<string, unknown>;
}

function requiredText(fields: Record<string, unknown>, name: string): string {
  const value = fields[name];
  if (typeof value !== 'string' || value === '') throw new ApiError(422, `missing required field: ${name}`);
  return value;
}

/** A base64 BoC field, undefined when absent or empty. */
function cellField(fields: Record<string, unknown>, name: string): Cell | undefined {
  const value = fields[name];
  if (value === undefined || value === null || value === '') return undefined;
  try {
    return Cell.fromBase64(String(value));
  } catch {
    throw new ApiError(422, `failed to parse ${name}: not a base64 BoC`);
  }
}

function addSize(size: { bits: bigint; cells: bigint }, cell: Cell): { bits: bigint; cells: bigint } {
  return cell.refs.reduce((total, ref) => addSize(total, ref), { bits: size.bits + BigInt(cell.bits.length), cells: size.cells + 1n });
}
