/**
 * GET /adjacentTransactions and /transactionsByMessage: transactions found through the messages that
 * link them. A transaction's parent sent its inbound message (`direction=in`), its children received
 * its outbound ones (`out`); a message's transactions are the one that sent it (`out`) and the one
 * that received it (`in`). Answers list indexed transactions in (lt, account) order.
 */
import type { Handler } from '../../http/types.js';
import type { Chain } from '../../chain/chain.js';
import { ApiError } from '../../http/api-error.js';
import { parseHash, type DevnetApi } from '../context.js';
import { leadingWordOf } from '../../chain/bodies.js';
import { respondWithTransactions } from './transactions.js';
import { parseOpcode } from './messages.js';

interface MessageLinks {
  /** The transaction that created the message and the one that consumed it, when indexed. */
  out?: number;
  in?: number;
}

/** Hash lookups over the indexed prefix of chain.txOrder, extended as the indexer advances. */
class LinkIndex {
  readonly txByHash = new Map<string, number>();
  readonly messages = new Map<string, MessageLinks>();
  private built = 0;

  constructor(private readonly chain: Chain) {}

  upTo(visible: number): this {
    for (; this.built < visible; this.built++) {
      const index = this.chain.txOrder[this.built]!;
      const tx = this.chain.tx(index);
      this.txByHash.set(tx.hash, index);
      if (tx.inMsg !== null) this.link(tx.inMsg.hash).in = index;
      for (const msg of tx.outMsgs) this.link(msg.hash).out = index;
    }
    return this;
  }

  private link(hash: string): MessageLinks {
    let links = this.messages.get(hash);
    if (links === undefined) this.messages.set(hash, (links = {}));
    return links;
  }
}

export function transactionLinkHandlers(api: DevnetApi): Record<string, Handler> {
  const chain = api.view.chain;
  const links = new LinkIndex(chain);
  const inOrder = (txs: Iterable<number | undefined>): number[] =>
    [...new Set(txs)].filter((tx): tx is number => tx !== undefined).sort((a, b) => chain.tx(a).lt - chain.tx(b).lt || (chain.population.accountAt(chain.tx(a).account).raw < chain.population.accountAt(chain.tx(b).account).raw ? -1 : 1));
  return {
    adjacentTransactions: (req) => {
      const q = req.query;
      const text = q.get('hash');
      if (text === undefined || text === '') throw new ApiError(422, 'missing required parameter: hash');
      const hash = parseHash('hash', text);
      const direction = q.enumOf('direction', ['in', 'out'] as const);
      const index = links.upTo(api.view.visibleTxs);
      const txIndex = index.txByHash.get(hash);
      const tx = txIndex === undefined ? undefined : chain.tx(txIndex);
      const parent = direction !== 'out' && tx?.inMsg ? index.messages.get(tx.inMsg.hash)?.out : undefined;
      const children = direction !== 'in' && tx !== undefined ? tx.outMsgs.map((msg) => index.messages.get(msg.hash)?.in) : [];
      return respondWithTransactions(api, req, inOrder([parent, ...children]).map((i) => chain.tx(i)));
    },
    transactionsByMessage: (req) => {
      const q = req.query;
      const msgHash = q.has('msg_hash') && q.get('msg_hash') !== '' ? parseHash('msg_hash', q.get('msg_hash')!) : undefined;
      const bodyHash = q.has('body_hash') && q.get('body_hash') !== '' ? parseHash('body_hash', q.get('body_hash')!) : undefined;
      const opcode = q.has('opcode') && q.get('opcode') !== '' ? parseOpcode(q.get('opcode')!) : undefined;
      if (msgHash === undefined && bodyHash === undefined && opcode === undefined) throw new ApiError(422, 'msg_hash, body_hash or opcode is required');
      const direction = q.enumOf('direction', ['in', 'out'] as const);
      const limit = q.limit(10, 1000);
      const offset = q.offset();
      const index = links.upTo(api.view.visibleTxs);
      const candidates: [string, MessageLinks][] =
        msgHash === undefined ? [...index.messages] : index.messages.has(msgHash) ? [[msgHash, index.messages.get(msgHash)!]] : [];
      const found: number[] = [];
      for (const [, link] of candidates) {
        const any = link.out ?? link.in!;
        const tx = chain.tx(any);
        const msg = link.out !== undefined ? chain.tx(link.out).outMsgs.find((m) => index.messages.get(m.hash) === link)! : tx.inMsg!;
        if (opcode !== undefined && leadingWordOf(msg.body) !== opcode) continue;
        if (bodyHash !== undefined && api.render.body(msg).hash !== bodyHash) continue;
        if (direction !== 'out' && link.in !== undefined) found.push(link.in);
        if (direction !== 'in' && link.out !== undefined) found.push(link.out);
      }
      return respondWithTransactions(api, req, inOrder(found).slice(offset, offset + limit).map((i) => chain.tx(i)));
    },
  };
}
