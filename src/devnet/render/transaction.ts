import { createHash } from 'node:crypto';
import type { Transaction, TransactionFields } from '../chain/model.js';
import { ZERO_HASH, type RenderContext } from './context.js';
import { renderMessage } from './message.js';
import type { Refs } from './refs.js';

/** Gas price of the devnet's fees, nanotons per gas unit. */
export const GAS_PRICE = 400n;
const MAX_GAS_LIMIT = 1_000_000n;
/** Gas an external message may use before the contract accepts it (config param 20 `gas_credit` on mainnet). */
export const EXTERNAL_GAS_CREDIT = 10_000;

/** Credit before storage: a non-bounceable inbound message, or an external one (it brings no value, nothing to bounce). */
export function creditFirstOf(tx: TransactionFields): boolean {
  if (tx.inMsg === null) return false;
  return tx.inMsg.source === null || !tx.inMsg.bounce;
}

/** `gas_limit` of a computed transaction: what its inbound value buys, capped; 0 without an internal inbound message. */
export function gasLimitOf(tx: TransactionFields, gasUsed: number): bigint {
  const inbound = tx.inMsg !== null && tx.inMsg.source !== null ? tx.inMsg : null;
  if (inbound === null) return 0n;
  const bought = inbound.value / GAS_PRICE > MAX_GAS_LIMIT ? MAX_GAS_LIMIT : inbound.value / GAS_PRICE;
  return BigInt(Math.max(gasUsed, Number(bought)));
}

export function renderTransaction(ctx: RenderContext, tx: Transaction, refs: Refs): Record<string, unknown> {
  const chain = ctx.chain;
  const account = chain.population.accountAt(tx.account);
  const block = chain.blocks[tx.block]!;
  const prev = tx.prevTx < 0 ? undefined : chain.tx(tx.prevTx);
  const trace = chain.trace(tx.trace);
  refs.add(tx.account);
  const rendered: Record<string, unknown> = {
    account: account.raw,
    hash: tx.hash,
    lt: String(tx.lt),
    now: tx.now,
    mc_block_seqno: tx.mcSeqno,
    trace_id: chain.traceId(tx.trace),
    prev_trans_hash: prev?.hash ?? ZERO_HASH,
    prev_trans_lt: String(prev?.lt ?? 0),
    orig_status: tx.origStatus,
    end_status: tx.endStatus,
    total_fees: tx.totalFees.toString(),
    total_fees_extra_currencies: {},
    description: renderDescription(tx),
    block_ref: { workchain: block.workchain, shard: block.shard, seqno: block.seqno },
    in_msg: tx.inMsg === null ? null : renderMessage(ctx, tx.inMsg, refs),
    out_msgs: tx.outMsgs.map((msg) => renderMessage(ctx, msg, refs)),
    account_state_before: accountState(prev?.stateHashAfter ?? genesisStateHash(account.id), tx.origStatus, tx.balanceBefore, account.codeHash),
    account_state_after: accountState(tx.stateHashAfter, tx.endStatus, tx.balanceAfter, account.codeHash),
    emulated: false,
    finality: 'finalized',
  };
  if (trace.externalHash !== null) rendered.trace_external_hash = trace.externalHash;
  return rendered;
}

function renderDescription(tx: Transaction): Record<string, unknown> {
  const compute = tx.compute;
  const inbound = tx.inMsg !== null && tx.inMsg.source !== null ? tx.inMsg : null;
  const external = tx.inMsg !== null && tx.inMsg.source === null;
  const description: Record<string, unknown> = {
    type: tx.type,
    aborted: tx.aborted,
    destroyed: false,
    credit_first: creditFirstOf(tx),
  };
  if (tx.type === 'tick_tock') description.is_tock = tx.isTock;
  description.storage_ph = { storage_fees_collected: '0', status_change: 'unchanged' };
  if (inbound !== null) description.credit_ph = { credit: inbound.value.toString() };
  if (compute.kind === 'skipped') {
    description.compute_ph = { skipped: true, reason: compute.reason };
  } else {
    const gasFees = BigInt(compute.gasUsed) * GAS_PRICE;
    description.compute_ph = {
      skipped: false,
      success: compute.exitCode === 0,
      msg_state_used: false,
      account_activated: tx.origStatus !== 'active' && tx.endStatus === 'active',
      gas_fees: gasFees.toString(),
      gas_used: String(compute.gasUsed),
      gas_limit: String(gasLimitOf(tx, compute.gasUsed)),
      ...(external ? { gas_credit: String(EXTERNAL_GAS_CREDIT) } : {}),
      mode: 0,
      exit_code: compute.exitCode,
      vm_steps: compute.vmSteps,
      vm_init_state_hash: ZERO_HASH,
      vm_final_state_hash: ZERO_HASH,
    };
    if (compute.exitCode === 0) {
      const fwdFees = tx.outMsgs.reduce((sum, msg) => sum + msg.fwdFee, 0n);
      description.action = {
        success: true,
        valid: true,
        no_funds: false,
        status_change: 'unchanged',
        total_fwd_fees: fwdFees.toString(),
        total_action_fees: ((fwdFees * 2n) / 3n).toString(),
        result_code: 0,
        tot_actions: tx.outMsgs.length,
        spec_actions: 0,
        skipped_actions: 0,
        msgs_created: tx.outMsgs.length,
        action_list_hash: tx.stateHashAfter,
        tot_msg_size: { cells: String(tx.outMsgs.length * 2), bits: String(tx.outMsgs.length * 1_105) },
      };
    }
  }
  if (tx.bounce) {
    const bounced = tx.outMsgs[0];
    description.bounce = {
      type: 'ok',
      msg_size: { cells: '1', bits: '256' },
      req_fwd_fees: (bounced?.fwdFee ?? 0n).toString(),
      msg_fees: (bounced?.fwdFee ?? 0n).toString(),
      fwd_fees: (bounced?.fwdFee ?? 0n).toString(),
    };
  }
  return description;
}

function accountState(hash: string, status: Transaction['origStatus'], balance: bigint, codeHash: string | null): Record<string, unknown> {
  const exists = status !== 'nonexist';
  const active = status === 'active';
  return {
    hash,
    balance: exists ? balance.toString() : null,
    extra_currencies: exists ? {} : null,
    account_status: exists ? status : null,
    frozen_hash: null,
    data_hash: active ? derivedHash(hash) : null,
    code_hash: active ? codeHash : null,
  };
}

export function genesisStateHash(id: Buffer): string {
  return createHash('sha256').update(id).digest('base64');
}

function derivedHash(hash: string): string {
  return createHash('sha256').update(hash).digest('base64');
}
