/**
 * Message cells (block.tlb `message$_`, `CommonMsgInfo`) written with ./cell-hash.ts, choosing inline
 * or reference for the StateInit and the body as @ton/core's `storeMessage` and
 * `storeMessageRelaxed` do, so the cells (and hashes) are the ones @ton/core would build. Every devnet
 * message has IHR disabled, no IHR or import fee and no extra currencies.
 */
import { beginHashedCell, type CellWriter, type HashedCell, type StdAddress } from './cell-hash.js';

export type MessageInfo =
  | {
      readonly type: 'internal';
      readonly bounce: boolean;
      readonly bounced: boolean;
      /** null in a message a wallet asks to send (the network fills it in). */
      readonly src: StdAddress | null;
      readonly dest: StdAddress;
      readonly value: bigint;
      readonly forwardFee: bigint;
      readonly createdLt: number;
      readonly createdAt: number;
    }
  | { readonly type: 'external-in'; readonly dest: StdAddress }
  | { readonly type: 'external-out'; readonly src: StdAddress; readonly createdLt: number; readonly createdAt: number };

export interface MessageParts {
  readonly info: MessageInfo;
  /** The StateInit cell the message carries, or null. */
  readonly init: HashedCell | null;
  readonly body: HashedCell;
}

export function messageCell(message: MessageParts): HashedCell {
  const b = beginHashedCell();
  storeInfo(b, message.info);
  const { init, body } = message;
  if (init === null) b.storeBit(false);
  else if (b.storeBit(true).availableBits - 2 < init.bitLength + body.bitLength) b.storeBit(true).storeRef(init);
  else b.storeBit(false).storeInline(init);
  return storeBody(b, body).end();
}

/** An internal message as a wallet asks to send it (`MessageRelaxed`: no source, fees and times zero). */
export function storeRelaxedInternal(b: CellWriter, message: { readonly dest: StdAddress; readonly value: bigint; readonly bounce: boolean; readonly body: HashedCell }): CellWriter {
  storeInfo(b, { type: 'internal', bounce: message.bounce, bounced: false, src: null, dest: message.dest, value: message.value, forwardFee: 0n, createdLt: 0, createdAt: 0 });
  return storeBody(b.storeBit(false), message.body);
}

/** The body in place when it fits, else in a reference. */
function storeBody(b: CellWriter, body: HashedCell): CellWriter {
  const fits = b.availableBits - 1 >= body.bitLength && b.refCount + body.refs.length <= 4;
  return fits ? b.storeBit(false).storeInline(body) : b.storeBit(true).storeRef(body);
}

function storeInfo(b: CellWriter, info: MessageInfo): void {
  switch (info.type) {
    case 'internal':
      b.storeBit(0).storeBit(true).storeBit(info.bounce).storeBit(info.bounced).storeAddress(info.src).storeAddress(info.dest);
      b.storeCoins(info.value).storeBit(false); // value: CurrencyCollection without extra currencies
      b.storeCoins(0n).storeCoins(info.forwardFee).storeUint(info.createdLt, 64).storeUint(info.createdAt, 32);
      return;
    case 'external-in':
      b.storeUint(0b10, 2).storeAddress(null).storeAddress(info.dest).storeCoins(0n);
      return;
    case 'external-out':
      b.storeUint(0b11, 2).storeAddress(info.src).storeAddress(null).storeUint(info.createdLt, 64).storeUint(info.createdAt, 32);
  }
}
