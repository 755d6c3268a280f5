/**
 * GET /messages: ordered by effective lt (created_lt, or for external inbound messages the lt of the
 * transaction that consumed them), tie-break message hash.
 */
import type { Handler } from '../../http/types.js';
import type { Message } from '../../chain/model.js';
import type { Chain } from '../../chain/chain.js';
import { ApiError } from '../../http/api-error.js';
import { accountParam, enrich, ltParam, pageParams, parseHash, Refs, type DevnetApi } from '../context.js';
import { lowerBound, selectPage } from '../paging.js';
import { renderMessage } from '../../render/message.js';
import { leadingWordOf } from '../../chain/bodies.js';

interface Indexed {
  readonly msg: Message;
  readonly lt: number;
  readonly utime: number;
}

/** Messages in canonical order, built step by step as the chain is indexed. */
class MessageIndex {
  readonly entries: Indexed[] = [];
  readonly countAfterStep: number[] = [];

  constructor(private readonly chain: Chain) {}

  upTo(step: number): number {
    const chain = this.chain;
    for (let s = this.countAfterStep.length; s <= step; s++) {
      const from = s === 0 ? 0 : chain.txCountAfterStep[s - 1]!;
      const batch: Indexed[] = [];
      for (let i = from; i < chain.txCountAfterStep[s]!; i++) {
        const tx = chain.tx(chain.txOrder[i]!);
        if (tx.inMsg !== null && tx.inMsg.source === null) batch.push({ msg: tx.inMsg, lt: tx.lt, utime: tx.now });
        for (const msg of tx.outMsgs) batch.push({ msg, lt: msg.createdLt!, utime: msg.createdAt! });
      }
      batch.sort((a, b) => a.lt - b.lt || (a.msg.hash < b.msg.hash ? -1 : 1));
      this.entries.push(...batch);
      this.countAfterStep.push(this.entries.length);
    }
    return this.countAfterStep[step]!;
  }
}

export function messageHandlers(api: DevnetApi): Record<string, Handler> {
  const chain = api.view.chain;
  const index = new MessageIndex(chain);
  return {
    messages: (req) => {
      const q = req.query;
      const hashes = [...q.getAll('msg_hash'), ...q.getAll('hash')].map((h) => parseHash('msg_hash', h));
      const bodyHash = q.has('body_hash') ? parseHash('body_hash', q.get('body_hash')!) : undefined;
      const source = addressOrNull(api, 'source', q.get('source'));
      const destination = addressOrNull(api, 'destination', q.get('destination'));
      const opcode = q.has('opcode') ? parseOpcode(q.get('opcode')!) : undefined;
      const direction = q.enumOf('direction', ['in', 'out'] as const);
      const excludeExternals = q.bool('exclude_externals') === true;
      const onlyExternals = q.bool('only_externals') === true;
      const startUtime = q.int('start_utime');
      const endUtime = q.int('end_utime');
      const startLt = ltParam(q, 'start_lt');
      const endLt = ltParam(q, 'end_lt');
      const page = pageParams(q);
      const visible = index.upTo(api.view.indexedStep);
      const entries = index.entries;
      const ltAt = (i: number): number => entries[i]!.lt;
      const lo = startLt === undefined ? 0 : lowerBound(visible, ltAt, startLt);
      const hi = endLt === undefined ? visible : lowerBound(visible, ltAt, endLt, true);
      const accept = ({ msg, utime }: Indexed): boolean =>
        (hashes.length === 0 || hashes.includes(msg.hash)) &&
        (bodyHash === undefined || api.render.body(msg).hash === bodyHash) &&
        (source === undefined || msg.source === source) &&
        (destination === undefined || msg.destination === destination) &&
        (opcode === undefined || leadingWordOf(msg.body) === opcode) &&
        (direction === undefined || (direction === 'in' ? msg.inTx >= 0 && api.view.isIndexed(msg.inTx) : msg.outTx >= 0)) &&
        (!excludeExternals || msg.source !== null) &&
        (!onlyExternals || msg.source === null) &&
        ((startLt === undefined && endLt === undefined) || msg.source !== null) &&
        (startUtime === undefined || utime >= startUtime) &&
        (endUtime === undefined || utime <= endUtime);
      const refs = new Refs();
      const txIndexed = (tx: number): boolean => api.view.isIndexed(tx);
      const messages = selectPage(lo, hi, (i) => entries[i]!, accept, page).map((e) => renderMessage(api.render, e.msg, refs, txIndexed));
      return enrich(api, req, { messages }, refs, { addressBook: true, metadata: true });
    },
  };
}

/** `null` selects external messages (no source / no destination). */
function addressOrNull(api: DevnetApi, name: string, text: string | undefined): number | null | undefined {
  if (text === undefined || text === '') return undefined;
  if (text === 'null') return null;
  return accountParam(api, name, text);
}

/** Hex (`0x…`) or signed 32-bit decimal. */
export function parseOpcode(text: string): number {
  const value = /^0x[0-9a-f]{1,8}$/i.test(text) ? Number.parseInt(text.slice(2), 16) : /^-?\d+$/.test(text) ? Number(text) >>> 0 : NaN;
  if (Number.isNaN(value)) throw new ApiError(422, `failed to parse opcode: ${JSON.stringify(text)} is neither hex (0x…) nor a 32-bit integer`);
  return value;
}
