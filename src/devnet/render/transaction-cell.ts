/**
 * The transaction cell (block.tlb `transaction$0111`) of a devnet transaction: what v2 sends as a
 * transaction's `data`, and whose hash is the transaction's hash on every API (the generator hashes
 * each transaction as it enters the chain). Its fields say what v3 renders for the same transaction
 * (./transaction.ts): fees, phases, state hashes, messages. Written with ../cell-hash.ts as
 * @ton/core's `storeTransaction` lays it out (test/devnet/cell-hash.test.ts reads it back with it).
 */
import type { Cell } from '@ton/core';
import { beginHashedCell, toCoreCell, type CellWriter, type HashedCell } from '../cell-hash.js';
import { storeRefDict } from '../cell-hash-dict.js';
import { messageCell, type MessageInfo } from '../cell-hash-message.js';
import { bodyCell } from '../chain/bodies.js';
import type { Chain } from '../chain/chain.js';
import type { AccountStatus, Message, Transaction, TransactionFields, TransactionHasher } from '../chain/model.js';
import { RenderContext, ZERO_HASH } from './context.js';
import { creditFirstOf, EXTERNAL_GAS_CREDIT, gasLimitOf, genesisStateHash, GAS_PRICE } from './transaction.js';
import { carriedStateInit } from './message.js';
import { stateInitOf } from './state-init.js';

/** The transaction cell of a transaction of the chain, as @ton/core's cell (for its BoC). */
export function transactionCell(ctx: RenderContext, tx: Transaction): Cell {
  return toCoreCell(new TransactionCells(ctx).cell(tx));
}

/** The generator's hasher: each transaction's hash is its cell's. */
export function transactionHasher(chain: Chain): TransactionHasher {
  // The network only changes how addresses print; cells hold raw addresses.
  const cells = new TransactionCells(new RenderContext(chain, 'mainnet'));
  return (tx) => cells.hash(tx);
}

/**
 * Builds transaction cells. Its `prev_trans_hash` is the previous transaction's hash, so each
 * transaction's hash covers the account's history before it. A message's cell is built once while it
 * travels: when the transaction that sends it is hashed, kept until the one receiving it is.
 */
export class TransactionCells {
  private readonly stateInits = new Map<number, HashedCell>();
  private readonly travelling = new Map<Message, HashedCell>();

  constructor(private readonly ctx: RenderContext) {}

  /** The hash (base64) of a transaction about to enter the chain; its predecessor is in it. */
  hash(tx: TransactionFields): string {
    return this.cell(tx, true).hash.toString('base64');
  }

  cell(tx: TransactionFields, keepOutMessages = false): HashedCell {
    const account = this.ctx.chain.population.accountAt(tx.account);
    const prev = tx.prevTx < 0 ? undefined : this.ctx.chain.tx(tx.prevTx);
    const outMessages = new Map(tx.outMsgs.map((msg, i) => [i, this.messageOf(msg, null, keepOutMessages)]));
    const messages = beginHashedCell().storeMaybeRef(tx.inMsg === null ? null : this.messageOf(tx.inMsg, tx.origStatus, false));
    const b = beginHashedCell()
      .storeUint(0b0111, 4)
      .storeBuffer(account.id)
      .storeUint(tx.lt, 64)
      .storeBase64(prev?.hash ?? ZERO_HASH)
      .storeUint(prev?.lt ?? 0, 64)
      .storeUint(tx.now, 32)
      .storeUint(tx.outMsgs.length, 15)
      .storeUint(STATUS_BITS[tx.origStatus], 2)
      .storeUint(STATUS_BITS[tx.endStatus], 2)
      .storeRef(storeRefDict(messages, 15, outMessages).end())
      .storeCoins(tx.totalFees)
      .storeBit(false); // total_fees: no extra currencies
    const stateUpdate = beginHashedCell()
      .storeUint(0x72, 8)
      .storeBase64(prev?.stateHashAfter ?? genesisStateHash(account.id))
      .storeBase64(tx.stateHashAfter);
    return b.storeRef(stateUpdate.end()).storeRef(description(tx)).end();
  }

  /** `receiverStatus`: the status of the account receiving it before it did (null: not received yet). */
  private messageOf(msg: Message, receiverStatus: AccountStatus | null, keep: boolean): HashedCell {
    const built = this.travelling.get(msg);
    if (built !== undefined) {
      this.travelling.delete(msg);
      return built;
    }
    const carrier = carriedStateInit(msg, receiverStatus);
    const cell = messageCell({
      info: this.messageInfo(msg),
      init: carrier === null ? null : this.stateInit(carrier),
      body: bodyCell(msg.body, (account) => this.ctx.address(account)),
    });
    if (keep && msg.source !== null && msg.destination !== null) this.travelling.set(msg, cell);
    return cell;
  }

  private messageInfo(msg: Message): MessageInfo {
    const address = (account: number) => this.ctx.address(account);
    if (msg.source === null) return { type: 'external-in', dest: address(msg.destination!) };
    const created = { createdLt: msg.createdLt ?? 0, createdAt: msg.createdAt ?? 0 };
    if (msg.destination === null) return { type: 'external-out', src: address(msg.source), ...created };
    const { bounce, bounced, value, fwdFee } = msg;
    return { type: 'internal', bounce, bounced, src: address(msg.source), dest: address(msg.destination), value, forwardFee: fwdFee, ...created };
  }

  /** TL-B StateInit: no split depth, not special, code, data, no libraries. */
  private stateInit(account: number): HashedCell {
    let cell = this.stateInits.get(account);
    if (cell === undefined) {
      const { code, data } = stateInitOf(this.ctx, account);
      cell = beginHashedCell().storeBit(false).storeBit(false).storeMaybeRef(code ?? null).storeMaybeRef(data ?? null).storeBit(false).end();
      this.stateInits.set(account, cell);
    }
    return cell;
  }
}

function description(tx: TransactionFields): HashedCell {
  const b = beginHashedCell();
  const computed = tx.compute.kind === 'vm' && tx.compute.exitCode === 0;
  if (tx.type === 'tick_tock') {
    b.storeUint(tx.isTock ? 0b0011 : 0b0010, 4);
    storeStoragePhase(b);
    storeComputePhase(b, tx);
    b.storeMaybeRef(computed ? actionPhase(tx) : null);
    return b.storeBit(tx.aborted).storeBit(false).end(); // destroyed: false
  }
  const inbound = tx.inMsg !== null && tx.inMsg.source !== null ? tx.inMsg : null;
  b.storeUint(0b0000, 4).storeBit(creditFirstOf(tx));
  storeStoragePhase(b.storeBit(true));
  if (inbound === null) b.storeBit(false);
  else b.storeBit(true).storeBit(false).storeCoins(inbound.value).storeBit(false); // no due fees; credit without extra currencies
  storeComputePhase(b, tx);
  b.storeMaybeRef(computed ? actionPhase(tx) : null).storeBit(tx.aborted);
  if (tx.bounce) {
    const fee = tx.outMsgs[0]?.fwdFee ?? 0n;
    b.storeBit(true).storeBit(true).storeVarUint(1n, 3).storeVarUint(256n, 3).storeCoins(fee).storeCoins(fee); // bounce ok: one cell of 256 bits
  } else {
    b.storeBit(false);
  }
  return b.storeBit(false).end(); // destroyed: false
}

/** No storage fees collected, none due, status unchanged. */
function storeStoragePhase(b: CellWriter): void {
  b.storeCoins(0n).storeBit(false).storeBit(false);
}

function storeComputePhase(b: CellWriter, tx: TransactionFields): void {
  const compute = tx.compute;
  if (compute.kind === 'skipped') {
    b.storeBit(false).storeUint(SKIP_REASON_BITS[compute.reason], 2);
    return;
  }
  const gasUsed = BigInt(compute.gasUsed);
  const external = tx.inMsg !== null && tx.inMsg.source === null;
  const vm = beginHashedCell().storeVarUint(gasUsed, 3).storeVarUint(gasLimitOf(tx, compute.gasUsed), 3);
  if (external) vm.storeBit(true).storeVarUint(BigInt(EXTERNAL_GAS_CREDIT), 2);
  else vm.storeBit(false);
  vm.storeUint(0, 8) // mode
    .storeInt(compute.exitCode, 32)
    .storeBit(false) // no exit_arg
    .storeUint(compute.vmSteps, 32)
    .storeBuffer(ZERO_BYTES) // vm_init_state_hash
    .storeBuffer(ZERO_BYTES); // vm_final_state_hash
  const activated = tx.origStatus !== 'active' && tx.endStatus === 'active';
  b.storeBit(true).storeBit(compute.exitCode === 0).storeBit(false).storeBit(activated).storeCoins(gasUsed * GAS_PRICE).storeRef(vm.end());
}

/** Success, every out message created, the action list hash drawn from the state hash. */
function actionPhase(tx: TransactionFields): HashedCell {
  const count = tx.outMsgs.length;
  const fwdFees = tx.outMsgs.reduce((sum, msg) => sum + msg.fwdFee, 0n);
  return beginHashedCell()
    .storeBit(true) // success
    .storeBit(true) // valid
    .storeBit(false) // no_funds
    .storeBit(false) // status unchanged
    .storeBit(true)
    .storeCoins(fwdFees)
    .storeBit(true)
    .storeCoins((fwdFees * 2n) / 3n)
    .storeInt(0, 32) // result_code
    .storeBit(false) // no result_arg
    .storeUint(count, 16) // total actions
    .storeUint(0, 16) // spec actions
    .storeUint(0, 16) // skipped actions
    .storeUint(count, 16) // messages created
    .storeBase64(tx.stateHashAfter)
    .storeVarUint(BigInt(count * 2), 3) // total message size: cells
    .storeVarUint(BigInt(count * 1_105), 3) // bits
    .end();
}

const ZERO_BYTES = Buffer.alloc(32);

const STATUS_BITS: Record<AccountStatus, number> = { uninit: 0b00, frozen: 0b01, active: 0b10, nonexist: 0b11 };

const SKIP_REASON_BITS = { no_state: 0b00, bad_state: 0b01, no_gas: 0b10 } as const;
