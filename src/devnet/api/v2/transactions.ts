/**
 * GET /getTransactions, /getTransactionsStd: an account's transactions newest first, from the one
 * named by `lt` + `hash` (inclusive) or the newest, down to `to_lt` (exclusive), at most `limit`.
 * GET /tryLocateTx, /tryLocateResultTx, /tryLocateSourceTx: the transaction that received or sent
 * the message from `source` to `destination` created at `created_lt`.
 */
import type { Handler } from '../../http/types.js';
import type { QueryParams } from '../../http/query-params.js';
import type { Message, Transaction } from '../../chain/model.js';
import { ApiError } from '../../http/api-error.js';
import type { DevnetApi } from '../context.js';
import { countParam, hashParam, int64Param, parseAddressText } from './params.js';
import { transactionId, v2Transaction } from './transaction-json.js';

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 1000;

export function transactionsHandlers(api: DevnetApi): Record<string, Handler> {
  const chain = api.view.chain;
  const locate = (req: Parameters<Handler>[0], side: 'result' | 'source'): Record<string, unknown> => {
    const msg = locateMessage(api, req.query);
    const tx = side === 'result' ? msg.inTx : msg.outTx;
    if (tx < 0) throw new ApiError(404, 'transaction not found');
    return v2Transaction(api, chain.tx(tx), 'ext.transaction');
  };
  return {
    getTransactions: (req) => accountTransactions(api, req.query).map((tx) => v2Transaction(api, tx, 'ext.transaction')),
    getTransactionsStd: (req) => {
      const page = accountTransactions(api, req.query);
      const last = page.at(-1);
      const previous = last === undefined || last.prevTx < 0 ? undefined : chain.tx(last.prevTx);
      return {
        '@type': 'raw.transactions',
        transactions: page.map((tx) => v2Transaction(api, tx, 'raw.transaction')),
        previous_transaction_id: previous === undefined ? { '@type': 'internal.transactionId', lt: '0', hash: ZERO_HASH } : transactionId(previous),
      };
    },
    tryLocateTx: (req) => locate(req, 'result'),
    tryLocateResultTx: (req) => locate(req, 'result'),
    tryLocateSourceTx: (req) => locate(req, 'source'),
  };
}

const ZERO_HASH = Buffer.alloc(32).toString('base64');

function accountTransactions(api: DevnetApi, q: QueryParams): Transaction[] {
  const chain = api.view.chain;
  const rawText = q.get('address');
  if (rawText === undefined || rawText === '') throw new ApiError(422, 'empty address');
  const raw = parseAddressText(rawText);
  const limit = countParam(q, 'limit', DEFAULT_LIMIT, MAX_LIMIT);
  const lt = int64Param(q, 'lt');
  const hash = hashParam(q, 'hash');
  const toLt = int64Param(q, 'to_lt') ?? 0n;
  if (lt !== undefined && lt < 0n) throw new ApiError(422, 'lt should be non-negative');
  if ((lt === undefined) !== (hash === undefined)) throw new ApiError(422, 'lt and hash should be used together');

  const index = chain.population.byRaw.get(raw);
  const txs = index === undefined ? [] : (chain.accountTxs[index] ?? []);
  let start = txs.length - 1;
  if (lt !== undefined) {
    start = txs.findLastIndex((i) => BigInt(chain.tx(i).lt) === lt);
    // What a liteserver answers when asked for a transaction the account does not have.
    if (start < 0 || chain.tx(txs[start]!).hash !== hash) throw new ApiError(500, 'LITE_SERVER_UNKNOWN: lt not in db');
  }
  const page: Transaction[] = [];
  for (let i = start; i >= 0 && page.length < limit; i--) {
    const tx = chain.tx(txs[i]!);
    if (BigInt(tx.lt) <= toLt) break;
    page.push(tx);
  }
  return page;
}

/** The message `source` → `destination` created at `created_lt`, found among the source's out messages. */
function locateMessage(api: DevnetApi, q: QueryParams): Message {
  const chain = api.view.chain;
  const sourceText = q.get('source');
  if (sourceText === undefined || sourceText === '') throw new ApiError(422, 'empty source address');
  const destinationText = q.get('destination');
  if (destinationText === undefined || destinationText === '') throw new ApiError(422, 'empty destination address');
  const createdLt = int64Param(q, 'created_lt', true);
  if (createdLt < 0n) throw new ApiError(422, 'created_lt should be non-negative');
  const source = chain.population.byRaw.get(parseAddressText(sourceText, 'source'));
  const destination = chain.population.byRaw.get(parseAddressText(destinationText, 'destination'));
  const txs = source === undefined ? [] : (chain.accountTxs[source] ?? []);
  // A message is created by the source's transaction just below its lt.
  const creator = txs.findLast((i) => BigInt(chain.tx(i).lt) < createdLt);
  const msg = creator === undefined ? undefined : chain.tx(creator).outMsgs.find((m) => BigInt(m.createdLt ?? -1) === createdLt);
  if (msg === undefined || destination === undefined || msg.destination !== destination) throw new ApiError(404, 'transaction not found');
  return msg;
}
