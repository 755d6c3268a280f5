import { leadingWordOf, type BodySpec } from '../chain/bodies.js';
import type { AccountStatus, Message } from '../chain/model.js';
import type { RenderContext } from './context.js';
import type { Refs } from './refs.js';

export const decodedOpcodeNames: Partial<Record<BodySpec['kind'], string>> = {
  text: 'text_comment',
  jetton_transfer: 'jetton_transfer',
  jetton_internal_transfer: 'jetton_internal_transfer',
  jetton_transfer_notification: 'jetton_notify',
  excesses: 'excess',
  jetton_burn: 'jetton_burn',
  jetton_burn_notification: 'jetton_burn_notification',
  nft_transfer: 'nft_transfer',
  nft_ownership_assigned: 'nft_ownership_assigned',
  elector_new_stake: 'elector_new_stake',
  elector_new_stake_confirmation: 'elector_new_stake_confirmation',
  elector_return_stake: 'elector_return_stake',
  elector_recover_stake: 'elector_recover_stake_request',
  elector_recover_stake_ok: 'elector_recover_stake_response',
};

export function opcodeText(op: number | null): string | null {
  return op === null ? null : '0x' + op.toString(16).padStart(8, '0');
}

/** `txIndexed`, when given, adds in_msg_tx_hash/out_msg_tx_hash for transactions the indexer has (as /messages does). */
export function renderMessage(ctx: RenderContext, msg: Message, refs: Refs, txIndexed?: (tx: number) => boolean): Record<string, unknown> {
  refs.add(msg.source);
  refs.add(msg.destination);
  const external = msg.source === null;
  const body = ctx.body(msg);
  const rendered: Record<string, unknown> = {
    hash: msg.hash,
    source: msg.source === null ? null : ctx.raw(msg.source),
    destination: msg.destination === null ? null : ctx.raw(msg.destination),
    value: external ? null : msg.value.toString(),
    value_extra_currencies: external ? null : {},
    fwd_fee: external ? null : msg.fwdFee.toString(),
    ihr_fee: external ? null : '0',
    extra_flags: external ? null : '0',
    created_lt: msg.createdLt === null ? null : String(msg.createdLt),
    created_at: msg.createdAt === null ? null : String(msg.createdAt),
    opcode: opcodeText(leadingWordOf(msg.body)),
    decoded_opcode: decodedOpcodeNames[msg.body.kind] ?? null,
    ihr_disabled: external ? null : true,
    bounce: external ? null : msg.bounce,
    bounced: external ? null : msg.bounced,
    import_fee: external ? '0' : null,
    message_content: {
      hash: body.hash,
      body: body.boc,
      decoded: decodedBody(msg.body),
    },
    init_state: initState(ctx, msg),
  };
  if (external) rendered.hash_norm = ctx.normalizedHash(msg);
  if (txIndexed !== undefined) {
    rendered.in_msg_tx_hash = msg.inTx >= 0 && txIndexed(msg.inTx) ? ctx.chain.tx(msg.inTx).hash : null;
    rendered.out_msg_tx_hash = msg.outTx >= 0 && txIndexed(msg.outTx) ? ctx.chain.tx(msg.outTx).hash : null;
  }
  return rendered;
}

function initState(ctx: RenderContext, msg: Message): Record<string, unknown> | null {
  const account = stateInitCarrier(ctx, msg);
  if (account === null) return null;
  const init = ctx.stateInit(account);
  return { hash: init.hash, body: init.boc, decoded: null };
}

/**
 * The account whose StateInit a message carries, or null: a jetton wallet sends every internal
 * transfer with the receiving wallet's (deploying it if new); a wallet's external message carries the
 * wallet's own while it is not yet deployed.
 */
export function stateInitCarrier(ctx: RenderContext, msg: Message): number | null {
  return carriedStateInit(msg, msg.inTx >= 0 ? ctx.chain.tx(msg.inTx).origStatus : null);
}

/** As `stateInitCarrier`, given the receiver's status before the message (null: not received yet). */
export function carriedStateInit(msg: Message, receiverStatus: AccountStatus | null): number | null {
  if (msg.destination === null) return null;
  const deploysWallet = msg.source === null && receiverStatus !== null && receiverStatus !== 'active';
  return msg.body.kind === 'jetton_internal_transfer' || deploysWallet ? msg.destination : null;
}

/** What the indexer's decoder says of a body: text comments and empty cells, as in the mainnet examples. */
function decodedBody(body: BodySpec): Record<string, unknown> | null {
  if (body.kind === 'text') return { type: 'text_comment', comment: body.text };
  if (body.kind === 'empty') return { '@type': 'empty_cell' };
  return null;
}
