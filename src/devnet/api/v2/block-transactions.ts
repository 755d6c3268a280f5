/**
 * GET /getBlockTransactions (short ids) and /getBlockTransactionsExt (whole transactions): one
 * block's transactions, ordered by (account id, lt) as the liteserver lists them; `after_lt` + `after_hash` (the account id of the last item) is an
 * exclusive cursor in that order, and `incomplete` says more remain.
 */
import type { Handler } from '../../http/types.js';
import type { QueryParams } from '../../http/query-params.js';
import type { Block, Transaction } from '../../chain/model.js';
import { ApiError } from '../../http/api-error.js';
import type { DevnetApi } from '../context.js';
import { blockIdExt, identifiedBlock } from './block-id.js';
import { v2Transaction } from './transaction-json.js';
import { accountIdParam, countParam, int64Param } from './params.js';

/** `mode` of every short tx id: the liteserver request mode the gateway uses, account|lt|hash (1|2|4) plus 128. */
const SHORT_TX_MODE = 135;
const DEFAULT_COUNT = 40;
const MAX_COUNT = 10_000;

interface Cursor {
  readonly lt: bigint;
  /** Upper-case hex account id. */
  readonly account: string;
}

export function blockTransactionsHandlers(api: DevnetApi): Record<string, Handler> {
  return {
    getBlockTransactions: (req) => {
      const { block, count, page, incomplete } = blockTransactionsPage(api, req.query);
      return {
        '@type': 'blocks.transactions',
        id: blockIdExt(block),
        req_count: count,
        incomplete,
        transactions: page.map((tx) => ({
          '@type': 'blocks.shortTxId',
          mode: SHORT_TX_MODE,
          account: rawLower(api, tx),
          lt: String(tx.lt),
          hash: tx.hash,
        })),
      };
    },
    getBlockTransactionsExt: (req) => {
      const { block, count, page, incomplete } = blockTransactionsPage(api, req.query);
      return {
        '@type': 'blocks.transactionsExt',
        id: blockIdExt(block),
        req_count: count,
        incomplete,
        transactions: page.map((tx) => v2Transaction(api, tx, 'raw.transactionExt')),
      };
    },
  };
}

interface BlockTransactionsPage {
  readonly block: Block;
  readonly count: number;
  readonly page: Transaction[];
  readonly incomplete: boolean;
}

function blockTransactionsPage(api: DevnetApi, q: QueryParams): BlockTransactionsPage {
  const block = identifiedBlock(api, q);
  const afterLt = int64Param(q, 'after_lt');
  const afterHash = accountIdParam(q, 'after_hash');
  if ((afterLt === undefined) !== (afterHash === undefined)) throw new ApiError(422, 'after_lt and after_hash should be used together');
  if (afterLt !== undefined && afterLt < 0n) throw new ApiError(422, 'after_lt should be non-negative');
  const count = countParam(q, 'count', DEFAULT_COUNT, MAX_COUNT);
  const cursor = afterLt === undefined || afterHash === undefined ? undefined : { lt: afterLt, account: afterHash };
  const rest = blockTxsByAccount(api, block).filter((tx) => cursor === undefined || isAfter(api, tx, cursor));
  const page = rest.slice(0, count);
  return { block, count, page, incomplete: rest.length > page.length };
}

/** The block's transactions in (account id, lt) order; the chain keeps them in (lt, account) order. */
export function blockTxsByAccount(api: DevnetApi, block: Block): Transaction[] {
  const chain = api.view.chain;
  const idOf = (tx: Transaction): string => chain.population.accountAt(tx.account).raw;
  return block.txs
    .map((index) => chain.tx(index))
    .sort((a, b) => (idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : a.lt - b.lt));
}

function isAfter(api: DevnetApi, tx: Transaction, cursor: Cursor): boolean {
  const id = api.view.chain.population.accountAt(tx.account).id.toString('hex').toUpperCase();
  return id > cursor.account || (id === cursor.account && BigInt(tx.lt) > cursor.lt);
}

/** `wc:hex` with lower-case hex, as the gateway prints accounts (the population keys upper case). */
function rawLower(api: DevnetApi, tx: Transaction): string {
  const account = api.view.chain.population.accountAt(tx.account);
  return `${account.workchain}:${account.id.toString('hex')}`;
}
