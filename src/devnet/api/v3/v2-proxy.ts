/**
 * The v3 API's proxies of v2 methods (the spec's "API v2" tag): GET /addressInformation,
 * /walletInformation; POST /estimateFee (v2 estimateFee), /message (v2 sendBocReturnHash: a wallet
 * transfer goes into the chain as there) and /runGetMethod (v2 runGetMethodStd with the v3 stack),
 * with the v2 methods' rules and errors. State is the head's; bodies are JSON objects; the POST paths
 * answer a GET with 405.
 */
import type { DevnetRequest, Handler } from '../../http/types.js';
import { ApiError } from '../../http/api-error.js';
import { parseAddress, type DevnetApi } from '../context.js';
import { accountStateAt, v2StateOf } from '../v2/accounts.js';
import { headMcBlock } from '../v2/block-id.js';
import { boc, codeCell, dataCell } from '../../render/contract-cells.js';
import { getMethodsHandlers } from '../v2/get-methods.js';
import { walletTypeOf } from '../../render/account-state.js';
import { SUBWALLET_ID } from '../../chain/constants.js';
import { QueryParams } from '../../http/query-params.js';
import { sendHandlers } from '../v2/send.js';
import { fromV3Stack, toV3Stack } from './v3-stack.js';

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
  const sendBoc = sendHandlers(api);
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
        ...(wallet ? { wallet_type: walletType, seqno: account!.seqno, wallet_id: SUBWALLET_ID } : {}),
        suspended: false,
      };
    },
    estimateFee: (req) => {
      const { source_fees, destination_fees } = sendBoc.estimateFee!(asV2(req)) as { source_fees: Record<string, unknown>; destination_fees: unknown[] };
      const { '@type': _type, ...fees } = source_fees;
      return { source_fees: fees, destination_fees };
    },
    message: (req) => {
      const { hash, hash_norm } = sendBoc.sendBocReturnHash!(asV2(req)) as { hash: string; hash_norm: string };
      return { message_hash: hash, message_hash_norm: hash_norm };
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

/** The request as its v2 method reads it: the JSON body's fields as the query. */
function asV2(req: DevnetRequest): DevnetRequest {
  return { ...req, version: 'v2', query: QueryParams.fromFields(postFields(req)) };
}

function postFields(req: DevnetRequest): Record<string, unknown> {
  if (req.method !== 'POST') throw new ApiError(405, 'method not allowed');
  const body = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError(422, 'request body must be a JSON object');
  return body as Record<string, unknown>;
}
