/**
 * The transaction cell (block.tlb `transaction$0111`) of a devnet transaction, built with @ton/core
 * from the chain's model: what v2 sends as a transaction's `data`. Its fields say what v3 renders
 * for the same transaction (./transaction.ts): fees, phases, state hashes, messages.
 */
import {
  beginCell,
  Dictionary,
  loadMessage,
  storeMessage,
  storeTransaction,
  type AccountStatus as CoreAccountStatus,
  type Cell,
  type CommonMessageInfo,
  type DictionaryValue,
  type Message as CoreMessage,
  type TransactionComputePhase,
  type TransactionDescription,
} from '@ton/core';
import { buildBody } from '../chain/bodies.js';
import type { AccountStatus, Message, Transaction } from '../chain/model.js';
import type { RenderContext } from './context.js';
import { creditFirstOf, EXTERNAL_GAS_CREDIT, gasLimitOf, genesisStateHash, GAS_PRICE } from './transaction.js';
import { stateInitCarrier } from './message.js';
import { stateInitOf } from './state-init.js';

/** Out messages as the transaction's dictionary holds them (@ton/core does not export its own). */
const MESSAGE_VALUE: DictionaryValue<CoreMessage> = {
  serialize: (message, builder) => builder.storeRef(beginCell().store(storeMessage(message))),
  parse: (slice) => loadMessage(slice.loadRef().beginParse()),
};

/**
 * The transaction cell of `tx`. Its `prev_trans_hash` is the hash the APIs report for the previous
 * transaction, so a client walking the account's list finds each predecessor.
 */
export function transactionCell(ctx: RenderContext, tx: Transaction): Cell {
  const account = ctx.chain.population.accountAt(tx.account);
  const prev = tx.prevTx < 0 ? undefined : ctx.chain.tx(tx.prevTx);
  const outMessages = Dictionary.empty(Dictionary.Keys.Uint(15), MESSAGE_VALUE);
  tx.outMsgs.forEach((msg, i) => outMessages.set(i, messageOf(ctx, msg)));
  return beginCell()
    .store(
      storeTransaction({
        address: BigInt(`0x${account.id.toString('hex')}`),
        lt: BigInt(tx.lt),
        prevTransactionHash: prev === undefined ? 0n : hashBigInt(prev.hash),
        prevTransactionLt: BigInt(prev?.lt ?? 0),
        now: tx.now,
        outMessagesCount: tx.outMsgs.length,
        oldStatus: CORE_STATUS[tx.origStatus],
        endStatus: CORE_STATUS[tx.endStatus],
        inMessage: tx.inMsg === null ? null : messageOf(ctx, tx.inMsg),
        outMessages,
        totalFees: { coins: tx.totalFees },
        stateUpdate: {
          oldHash: Buffer.from(prev?.stateHashAfter ?? genesisStateHash(account.id), 'base64'),
          newHash: Buffer.from(tx.stateHashAfter, 'base64'),
        },
        description: description(tx),
        // Read by loadTransaction only; storeTransaction ignores both.
        raw: beginCell().endCell(),
        hash: () => Buffer.alloc(0),
      }),
    )
    .endCell();
}

function messageOf(ctx: RenderContext, msg: Message): CoreMessage {
  const carrier = stateInitCarrier(ctx, msg);
  const init = carrier === null ? null : stateInitOf(ctx, carrier);
  return { info: messageInfo(ctx, msg), init, body: buildBody(msg.body, (account) => ctx.address(account)) };
}

function messageInfo(ctx: RenderContext, msg: Message): CommonMessageInfo {
  if (msg.source === null) return { type: 'external-in', dest: ctx.address(msg.destination!), importFee: 0n };
  if (msg.destination === null) {
    return { type: 'external-out', src: ctx.address(msg.source), createdLt: BigInt(msg.createdLt ?? 0), createdAt: msg.createdAt ?? 0 };
  }
  return {
    type: 'internal',
    ihrDisabled: true,
    bounce: msg.bounce,
    bounced: msg.bounced,
    src: ctx.address(msg.source),
    dest: ctx.address(msg.destination),
    value: { coins: msg.value },
    ihrFee: 0n,
    forwardFee: msg.fwdFee,
    createdLt: BigInt(msg.createdLt ?? 0),
    createdAt: msg.createdAt ?? 0,
  };
}

function description(tx: Transaction): TransactionDescription {
  const storagePhase = { storageFeesCollected: 0n, statusChange: 'unchanged' as const };
  const computePhase = computeOf(tx);
  const actionPhase = computePhase.type === 'vm' && computePhase.exitCode === 0 ? actionOf(tx) : undefined;
  if (tx.type === 'tick_tock') {
    return { type: 'tick-tock', isTock: tx.isTock, storagePhase, computePhase, actionPhase, aborted: tx.aborted, destroyed: false };
  }
  const inbound = tx.inMsg !== null && tx.inMsg.source !== null ? tx.inMsg : null;
  const bounced = tx.outMsgs[0];
  return {
    type: 'generic',
    creditFirst: creditFirstOf(tx),
    storagePhase,
    creditPhase: inbound === null ? undefined : { credit: { coins: inbound.value } },
    computePhase,
    actionPhase,
    bouncePhase: tx.bounce
      ? { type: 'ok', messageSize: { cells: 1n, bits: 256n }, messageFees: bounced?.fwdFee ?? 0n, forwardFees: bounced?.fwdFee ?? 0n }
      : undefined,
    aborted: tx.aborted,
    destroyed: false,
  };
}

function computeOf(tx: Transaction): TransactionComputePhase {
  const compute = tx.compute;
  if (compute.kind === 'skipped') return { type: 'skipped', reason: SKIP_REASONS[compute.reason] };
  return {
    type: 'vm',
    success: compute.exitCode === 0,
    messageStateUsed: false,
    accountActivated: tx.origStatus !== 'active' && tx.endStatus === 'active',
    gasFees: BigInt(compute.gasUsed) * GAS_PRICE,
    gasUsed: BigInt(compute.gasUsed),
    gasLimit: gasLimitOf(tx, compute.gasUsed),
    gasCredit: tx.inMsg !== null && tx.inMsg.source === null ? BigInt(EXTERNAL_GAS_CREDIT) : undefined,
    mode: 0,
    exitCode: compute.exitCode,
    vmSteps: compute.vmSteps,
    vmInitStateHash: 0n,
    vmFinalStateHash: 0n,
  };
}

function actionOf(tx: Transaction): NonNullable<Extract<TransactionDescription, { type: 'generic' }>['actionPhase']> {
  const fwdFees = tx.outMsgs.reduce((sum, msg) => sum + msg.fwdFee, 0n);
  return {
    success: true,
    valid: true,
    noFunds: false,
    statusChange: 'unchanged',
    totalFwdFees: fwdFees,
    totalActionFees: (fwdFees * 2n) / 3n,
    resultCode: 0,
    totalActions: tx.outMsgs.length,
    specActions: 0,
    skippedActions: 0,
    messagesCreated: tx.outMsgs.length,
    actionListHash: hashBigInt(tx.stateHashAfter),
    totalMessageSize: { cells: BigInt(tx.outMsgs.length * 2), bits: BigInt(tx.outMsgs.length * 1_105) },
  };
}

const SKIP_REASONS = { no_state: 'no-state', bad_state: 'bad-state', no_gas: 'no-gas' } as const;

const CORE_STATUS: Record<AccountStatus, CoreAccountStatus> = {
  nonexist: 'non-existing',
  uninit: 'uninitialized',
  active: 'active',
  frozen: 'frozen',
};

function hashBigInt(base64: string): bigint {
  return BigInt(`0x${Buffer.from(base64, 'base64').toString('hex') || '0'}`);
}
