/**
 * Message bodies: a compact description per message, turned into a real cell on demand (hashed
 * natively, ../cell-hash.ts; a @ton/core cell where a BoC is sent). Layouts follow the TEP-74 jetton,
 * TEP-62 NFT, wallet v4, elector and multisig v2 contracts.
 */
import type { Cell } from '@ton/core';
import { beginHashedCell, toCoreCell, type CellWriter, type HashedCell, type StdAddress } from '../cell-hash.js';
import { storeRelaxedInternal } from '../cell-hash-message.js';
import type { OrderAction } from './services.js';

export const Opcode = {
  textComment: 0x00000000,
  jettonTransfer: 0x0f8a7ea5,
  jettonInternalTransfer: 0x178d4519,
  jettonTransferNotification: 0x7362d09c,
  excesses: 0xd53276db,
  jettonBurn: 0x595f07bc,
  jettonBurnNotification: 0x7bdd97de,
  nftTransfer: 0x5fcc3d14,
  nftOwnershipAssigned: 0x05138d91,
  electorNewStake: 0x4e73744b,
  electorNewStakeConfirmation: 0xf374484c,
  electorReturnStake: 0xee6f454c,
  electorRecoverStake: 0x47657424,
  electorRecoverStakeOk: 0xf96f7324,
  vestingSendMessage: 0xa7733acd,
  multisigApprove: 0xa762230f,
  multisigApproveAccepted: 0x82609bf6,
  multisigExecute: 0x75097f5d,
  bounced: 0xffffffff,
} as const;

/** Account indexes are resolved to addresses when the body is built. */
export type BodySpec =
  | { readonly kind: 'empty' }
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'wallet_external';
      readonly signature: Buffer;
      readonly subwalletId: number;
      readonly validUntil: number;
      readonly seqno: number;
      readonly out: OutMessage;
    }
  | {
      readonly kind: 'jetton_transfer';
      readonly queryId: bigint;
      readonly amount: bigint;
      readonly destination: number;
      readonly responseDestination: number;
      readonly forwardTonAmount: bigint;
      readonly comment: string | null;
    }
  | {
      readonly kind: 'jetton_internal_transfer';
      readonly queryId: bigint;
      readonly amount: bigint;
      readonly from: number;
      readonly responseDestination: number;
      readonly forwardTonAmount: bigint;
      readonly comment: string | null;
    }
  | {
      readonly kind: 'jetton_transfer_notification';
      readonly queryId: bigint;
      readonly amount: bigint;
      readonly sender: number;
      readonly comment: string | null;
    }
  | { readonly kind: 'excesses'; readonly queryId: bigint }
  | { readonly kind: 'jetton_burn'; readonly queryId: bigint; readonly amount: bigint; readonly responseDestination: number }
  | {
      readonly kind: 'jetton_burn_notification';
      readonly queryId: bigint;
      readonly amount: bigint;
      readonly sender: number;
      readonly responseDestination: number;
    }
  | {
      readonly kind: 'nft_transfer';
      readonly queryId: bigint;
      readonly newOwner: number;
      readonly responseDestination: number;
      readonly forwardAmount: bigint;
    }
  | { readonly kind: 'nft_ownership_assigned'; readonly queryId: bigint; readonly prevOwner: number }
  | {
      readonly kind: 'elector_new_stake';
      readonly queryId: bigint;
      readonly validatorPubkey: Buffer;
      readonly stakeAt: number;
      readonly maxFactor: number;
      readonly adnlAddr: Buffer;
      readonly signature: Buffer;
    }
  | { readonly kind: 'elector_new_stake_confirmation'; readonly queryId: bigint }
  | { readonly kind: 'elector_return_stake'; readonly queryId: bigint; readonly reason: number }
  | { readonly kind: 'elector_recover_stake'; readonly queryId: bigint }
  | { readonly kind: 'elector_recover_stake_ok'; readonly queryId: bigint }
  /** The vesting wallet's owner asks it to send a message (`send_message#a7733acd query_id:uint64 mode:uint8 message:^MessageRelaxed`). */
  | { readonly kind: 'vesting_send_message'; readonly queryId: bigint; readonly mode: number; readonly out: OutMessage }
  /** A signer approves a multisig order (`approve#a762230f query_id:uint64 signer_index:uint8`). */
  | { readonly kind: 'multisig_approve'; readonly queryId: bigint; readonly signerIndex: number }
  | { readonly kind: 'multisig_approve_accepted'; readonly queryId: bigint }
  /**
   * The order, approved by the threshold, has its multisig execute it (`execute#75097f5d query_id:uint64
   * order_seqno:uint256 expiration_date:uint48 approvals_num:uint8 signers_hash:bits256 order:^Order`).
   */
  | {
      readonly kind: 'multisig_execute';
      readonly queryId: bigint;
      readonly orderSeqno: number;
      readonly expiration: number;
      readonly approvalsNum: number;
      readonly signersHash: Buffer;
      readonly actions: readonly OrderAction[];
    }
  | { readonly kind: 'bounced'; readonly original: BodySpec };

/** An internal message a contract is asked to send. */
export interface OutMessage {
  readonly to: number;
  readonly value: bigint;
  readonly bounce: boolean;
  readonly body: BodySpec;
}

const opcodeOfKind: Readonly<Record<BodySpec['kind'], number | null>> = {
  empty: null,
  text: Opcode.textComment,
  wallet_external: null,
  jetton_transfer: Opcode.jettonTransfer,
  jetton_internal_transfer: Opcode.jettonInternalTransfer,
  jetton_transfer_notification: Opcode.jettonTransferNotification,
  excesses: Opcode.excesses,
  jetton_burn: Opcode.jettonBurn,
  jetton_burn_notification: Opcode.jettonBurnNotification,
  nft_transfer: Opcode.nftTransfer,
  nft_ownership_assigned: Opcode.nftOwnershipAssigned,
  elector_new_stake: Opcode.electorNewStake,
  elector_new_stake_confirmation: Opcode.electorNewStakeConfirmation,
  elector_return_stake: Opcode.electorReturnStake,
  elector_recover_stake: Opcode.electorRecoverStake,
  elector_recover_stake_ok: Opcode.electorRecoverStakeOk,
  vesting_send_message: Opcode.vestingSendMessage,
  multisig_approve: Opcode.multisigApprove,
  multisig_approve_accepted: Opcode.multisigApproveAccepted,
  multisig_execute: Opcode.multisigExecute,
  bounced: Opcode.bounced,
};

/** The 32-bit opcode a body starts with, or null (empty body, wallet external message). */
export function opcodeOf(spec: BodySpec): number | null {
  return opcodeOfKind[spec.kind];
}

/**
 * The body's first 32 bits, which the indexer reports as the message's `opcode` (for a signed
 * external message that is the start of the signature); null when the body is shorter than 32 bits.
 */
export function leadingWordOf(spec: BodySpec): number | null {
  return spec.kind === 'wallet_external' ? spec.signature.readUInt32BE(0) : opcodeOf(spec);
}

export type AddressOf = (account: number) => StdAddress;

export function buildBody(spec: BodySpec, addressOf: AddressOf): Cell {
  return toCoreCell(bodyCell(spec, addressOf));
}

export function bodyCell(spec: BodySpec, addressOf: AddressOf): HashedCell {
  return writeBody(beginHashedCell(), spec, addressOf).end();
}

function writeBody(b: CellWriter, spec: BodySpec, addressOf: AddressOf): CellWriter {
  const op = opcodeOf(spec);
  if (op !== null && spec.kind !== 'bounced') b.storeUint(op, 32);
  switch (spec.kind) {
    case 'empty':
      return b;
    case 'text':
      return b.storeStringTail(spec.text);
    case 'wallet_external':
      return b
        .storeBuffer(spec.signature)
        .storeUint(spec.subwalletId, 32)
        .storeUint(spec.validUntil, 32)
        .storeUint(spec.seqno, 32)
        .storeUint(0, 8)
        .storeUint(3, 8)
        .storeRef(relaxedMessage(spec.out, addressOf));
    case 'vesting_send_message':
      return b.storeUint(spec.queryId, 64).storeUint(spec.mode, 8).storeRef(relaxedMessage(spec.out, addressOf));
    case 'jetton_transfer':
      return storeForwardPayload(
        b
          .storeUint(spec.queryId, 64)
          .storeCoins(spec.amount)
          .storeAddress(addressOf(spec.destination))
          .storeAddress(addressOf(spec.responseDestination))
          .storeBit(false)
          .storeCoins(spec.forwardTonAmount),
        spec.comment,
      );
    case 'jetton_internal_transfer':
      return storeForwardPayload(
        b
          .storeUint(spec.queryId, 64)
          .storeCoins(spec.amount)
          .storeAddress(addressOf(spec.from))
          .storeAddress(addressOf(spec.responseDestination))
          .storeCoins(spec.forwardTonAmount),
        spec.comment,
      );
    case 'jetton_transfer_notification':
      return storeForwardPayload(
        b.storeUint(spec.queryId, 64).storeCoins(spec.amount).storeAddress(addressOf(spec.sender)),
        spec.comment,
      );
    case 'multisig_approve':
      return b.storeUint(spec.queryId, 64).storeUint(spec.signerIndex, 8);
    case 'multisig_execute':
      return b
        .storeUint(spec.queryId, 64)
        .storeUint(spec.orderSeqno, 256)
        .storeUint(spec.expiration, 48)
        .storeUint(spec.approvalsNum, 8)
        .storeBuffer(spec.signersHash)
        .storeRef(orderCell(spec.actions, addressOf));
    case 'excesses':
    case 'multisig_approve_accepted':
    case 'elector_new_stake_confirmation':
    case 'elector_recover_stake':
    case 'elector_recover_stake_ok':
      return b.storeUint(spec.queryId, 64);
    case 'jetton_burn':
      return b
        .storeUint(spec.queryId, 64)
        .storeCoins(spec.amount)
        .storeAddress(addressOf(spec.responseDestination))
        .storeBit(false);
    case 'jetton_burn_notification':
      return b
        .storeUint(spec.queryId, 64)
        .storeCoins(spec.amount)
        .storeAddress(addressOf(spec.sender))
        .storeAddress(addressOf(spec.responseDestination));
    case 'nft_transfer':
      return b
        .storeUint(spec.queryId, 64)
        .storeAddress(addressOf(spec.newOwner))
        .storeAddress(addressOf(spec.responseDestination))
        .storeBit(false)
        .storeCoins(spec.forwardAmount)
        .storeBit(false);
    case 'nft_ownership_assigned':
      return b.storeUint(spec.queryId, 64).storeAddress(addressOf(spec.prevOwner)).storeBit(false);
    case 'elector_new_stake':
      return b
        .storeUint(spec.queryId, 64)
        .storeBuffer(spec.validatorPubkey)
        .storeUint(spec.stakeAt, 32)
        .storeUint(spec.maxFactor, 32)
        .storeBuffer(spec.adnlAddr)
        .storeRef(beginHashedCell().storeBuffer(spec.signature).end());
    case 'elector_return_stake':
      return b.storeUint(spec.queryId, 64).storeUint(spec.reason, 32);
    case 'bounced': {
      // A bounced body is 0xffffffff followed by the first 256 bits of the original body.
      const original = bodyCell(spec.original, addressOf);
      return b.storeUint(Opcode.bounced, 32).storeBits(original, Math.min(original.bitLength, 256));
    }
  }
}

/** Multisig v2 order action `send_message#f1381e5b mode:uint8 message:^MessageRelaxed`, pay fees apart, ignore errors. */
const ORDER_SEND_MESSAGE = 0xf1381e5b;
export const ORDER_SEND_MODE = 3;

/** An order's actions as the multisig stores them: a dictionary-free chain of send_message actions, one per reference. */
export function orderCell(actions: readonly OrderAction[], addressOf: AddressOf): HashedCell {
  const builder = beginHashedCell();
  for (const action of actions) {
    const message = beginHashedCell()
      .storeUint(0b0110, 4) // int_msg_info$0, ihr_disabled, bounce, bounced = 0 1 1 0
      .storeUint(0, 2) // src: addr_none
      .storeAddress(addressOf(action.destination))
      .storeCoins(action.value)
      .storeUint(0, 1 + 4 + 4 + 64 + 32 + 1) // no extra currencies, fees, lt, at, no init
      .storeBit(true)
      .storeRef(beginHashedCell().storeUint(0, 32).storeStringTail(action.comment).end())
      .end();
    builder.storeRef(beginHashedCell().storeUint(ORDER_SEND_MESSAGE, 32).storeUint(ORDER_SEND_MODE, 8).storeRef(message).end());
  }
  return builder.end();
}

function relaxedMessage(out: OutMessage, addressOf: AddressOf): HashedCell {
  const body = bodyCell(out.body, addressOf);
  return storeRelaxedInternal(beginHashedCell(), { dest: addressOf(out.to), value: out.value, bounce: out.bounce, body }).end();
}

function storeForwardPayload(b: CellWriter, comment: string | null): CellWriter {
  if (comment === null) return b.storeBit(false);
  return b.storeBit(true).storeRef(beginHashedCell().storeUint(Opcode.textComment, 32).storeStringTail(comment).end());
}
