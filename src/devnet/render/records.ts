import type { JettonBurn, JettonTransfer, NftTransfer, ValidatorEvent } from '../chain/model.js';
import type { RenderContext } from './context.js';
import type { Refs } from './refs.js';

export function renderJettonTransfer(ctx: RenderContext, r: JettonTransfer, refs: Refs): Record<string, unknown> {
  const tx = ctx.chain.tx(r.tx);
  for (const account of [r.source, r.destination, r.sourceWallet, r.master, r.responseDestination]) refs.add(account);
  const payload = r.comment === null ? null : ctx.cell({ kind: 'text', text: r.comment });
  return {
    query_id: r.queryId.toString(),
    source: ctx.raw(r.source),
    destination: ctx.raw(r.destination),
    amount: r.amount.toString(),
    source_wallet: ctx.raw(r.sourceWallet),
    jetton_master: ctx.raw(r.master),
    transaction_hash: tx.hash,
    transaction_lt: String(tx.lt),
    transaction_now: tx.now,
    transaction_aborted: tx.aborted,
    response_destination: ctx.raw(r.responseDestination),
    custom_payload: null,
    decoded_custom_payload: null,
    forward_ton_amount: r.forwardTonAmount.toString(),
    forward_payload: payload?.boc ?? null,
    decoded_forward_payload: r.comment === null ? null : { type: 'text_comment', comment: r.comment },
    trace_id: ctx.chain.traceId(tx.trace),
  };
}

export function renderJettonBurn(ctx: RenderContext, r: JettonBurn, refs: Refs): Record<string, unknown> {
  const tx = ctx.chain.tx(r.tx);
  for (const account of [r.owner, r.wallet, r.master, r.responseDestination]) refs.add(account);
  return {
    query_id: r.queryId.toString(),
    owner: ctx.raw(r.owner),
    jetton_wallet: ctx.raw(r.wallet),
    jetton_master: ctx.raw(r.master),
    transaction_hash: tx.hash,
    transaction_lt: String(tx.lt),
    transaction_now: tx.now,
    transaction_aborted: tx.aborted,
    amount: r.amount.toString(),
    response_destination: ctx.raw(r.responseDestination),
    custom_payload: null,
    decoded_custom_payload: null,
    trace_id: ctx.chain.traceId(tx.trace),
  };
}

export function renderNftTransfer(ctx: RenderContext, r: NftTransfer, refs: Refs): Record<string, unknown> {
  const tx = ctx.chain.tx(r.tx);
  for (const account of [r.item, r.collection, r.oldOwner, r.newOwner, r.responseDestination]) refs.add(account);
  return {
    query_id: r.queryId.toString(),
    nft_address: ctx.raw(r.item),
    nft_collection: ctx.raw(r.collection),
    transaction_hash: tx.hash,
    transaction_lt: String(tx.lt),
    transaction_now: tx.now,
    transaction_aborted: r.aborted,
    old_owner: ctx.raw(r.oldOwner),
    new_owner: ctx.raw(r.newOwner),
    response_destination: ctx.raw(r.responseDestination),
    custom_payload: null,
    decoded_custom_payload: null,
    forward_amount: r.forwardAmount.toString(),
    forward_payload: null,
    decoded_forward_payload: null,
    trace_id: ctx.chain.traceId(tx.trace),
  };
}

export function renderValidatorEvent(ctx: RenderContext, r: ValidatorEvent, refs: Refs): Record<string, unknown> {
  const tx = ctx.chain.tx(r.tx);
  refs.add(r.stakeHolder);
  const rendered: Record<string, unknown> = {
    tx_hash: tx.hash,
    tx_lt: String(tx.lt),
    utime: tx.now,
    type: r.type,
    stake_holder_address: ctx.raw(r.stakeHolder),
  };
  if (r.validatorPubkey !== null) rendered.validator_pubkey = r.validatorPubkey;
  if (r.adnlAddr !== null) rendered.adnl_addr = r.adnlAddr;
  if (r.electionId !== null) rendered.election_id = r.electionId;
  rendered.query_id = r.queryId.toString();
  rendered.amount = r.amount.toString();
  if (r.reason !== null) rendered.reason = r.reason;
  return rendered;
}
