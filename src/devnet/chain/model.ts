/**
 * The devnet's chain, held compactly: rendering to wire JSON happens per request (see ../render).
 * Account, transaction, message and trace references are indexes into the Chain's arrays.
 */
import type { BodySpec } from './bodies.js';

export type AccountKind =
  | 'wallet'
  | 'validator_wallet'
  | 'jetton_master'
  | 'jetton_wallet'
  | 'nft_collection'
  | 'nft_item'
  | 'elector'
  | 'config'
  | 'dns_collection'
  | 'dns_item'
  | 'nft_sale'
  | 'multisig'
  | 'multisig_order'
  | 'nominator_pool'
  | 'vesting_wallet';

export type AccountStatus = 'nonexist' | 'uninit' | 'active' | 'frozen';

export interface Account {
  readonly index: number;
  readonly workchain: -1 | 0;
  /** 32-byte account id. */
  readonly id: Buffer;
  /** Raw form as the API prints it: `0:ABC…` upper case. */
  readonly raw: string;
  /** Unsigned hex shard of the blocks that hold this account's transactions. */
  readonly shard: string;
  readonly kind: AccountKind;
  readonly interfaces: readonly string[];
  readonly codeHash: string | null;
  status: AccountStatus;
  balance: bigint;
  lastTx: number;
  /** Next free lt for this account (per-account lt is strictly increasing). */
  nextLt: number;
  seqno: number;
  /** jetton_wallet: master and owner account indexes and balance; nft_item: collection, owner, index. */
  jettonMaster?: number;
  owner?: number;
  jettonBalance?: bigint;
  nftIndex?: number;
  /** jetton_master: metadata. */
  token?: { readonly name: string; readonly symbol: string; readonly decimals: number; totalSupply: bigint };
  /** wallet: its jetton wallet per master index. */
  jettonWallets?: Map<number, number>;
}

export interface Message {
  readonly hash: string;
  /** null: external inbound message. */
  readonly source: number | null;
  /** null: external outbound message (log). */
  readonly destination: number | null;
  readonly value: bigint;
  readonly fwdFee: bigint;
  /** null for external inbound messages. */
  readonly createdLt: number | null;
  readonly createdAt: number | null;
  readonly bounce: boolean;
  readonly bounced: boolean;
  readonly body: BodySpec;
  /** Transaction that created it (out_msg_tx_hash) and the one that consumed it (in_msg_tx_hash). */
  outTx: number;
  inTx: number;
  /** The body as a BoC (base64) and its cell hash, once rendered. */
  serialized?: { readonly boc: string; readonly hash: string };
  /** External inbound messages: `hash_norm`, once rendered. */
  normalizedHash?: string;
}

export type ComputeOutcome =
  | { readonly kind: 'skipped'; readonly reason: 'no_state' | 'bad_state' | 'no_gas' }
  | { readonly kind: 'vm'; readonly exitCode: number; readonly gasUsed: number; readonly vmSteps: number };

export interface Transaction {
  readonly index: number;
  readonly account: number;
  readonly lt: number;
  readonly now: number;
  readonly hash: string;
  /** Index of the shard or masterchain block holding it. */
  readonly block: number;
  readonly mcSeqno: number;
  readonly trace: number;
  readonly inMsg: Message | null;
  readonly outMsgs: readonly Message[];
  readonly prevTx: number;
  readonly origStatus: AccountStatus;
  readonly endStatus: AccountStatus;
  readonly balanceBefore: bigint;
  readonly balanceAfter: bigint;
  readonly totalFees: bigint;
  readonly stateHashAfter: string;
  readonly type: 'ord' | 'tick_tock';
  readonly isTock: boolean;
  readonly aborted: boolean;
  readonly compute: ComputeOutcome;
  /** Set when the transaction bounced its inbound message back. */
  readonly bounce: boolean;
}

/** A transaction before its hash, which is its transaction cell's (render/transaction-cell.ts). */
export type TransactionFields = Omit<Transaction, 'hash'>;

/** The hash (base64) of a transaction about to enter the chain; its predecessor is in it. */
export type TransactionHasher = (tx: TransactionFields) => string;

export interface Block {
  readonly index: number;
  readonly workchain: -1 | 0;
  readonly shard: string;
  readonly seqno: number;
  readonly mcSeqno: number;
  readonly startLt: number;
  endLt: number;
  readonly genUtime: number;
  readonly rootHash: string;
  readonly fileHash: string;
  readonly randSeed: string;
  readonly createdBy: string;
  /** Transaction indexes in (lt, account) order. */
  readonly txs: number[];
}

export type TraceKind =
  | 'ton_transfer'
  | 'jetton_transfer'
  | 'jetton_burn'
  | 'nft_transfer'
  | 'election_deposit'
  | 'election_recover'
  | 'tick_tock';

export interface Trace {
  readonly index: number;
  readonly kind: TraceKind;
  readonly externalHash: string | null;
  readonly txs: number[];
  /** Messages created but not yet delivered; the trace is complete when this is 0. */
  pending: number;
  /** Masterchain seqno of the block where the trace completed; undefined while in flight. */
  completedMc?: number;
  /** Its classified actions, once complete. */
  actions?: readonly Action[];
}

/** A classified action, stored when its trace completes. */
export interface Action {
  readonly actionId: string;
  readonly trace: number;
  readonly type: string;
  readonly success: boolean;
  readonly txs: readonly number[];
  readonly details: Readonly<Record<string, unknown>>;
  readonly accounts: readonly number[];
}

export interface JettonTransfer {
  readonly tx: number;
  readonly queryId: bigint;
  readonly source: number;
  readonly destination: number;
  readonly amount: bigint;
  readonly sourceWallet: number;
  readonly master: number;
  readonly responseDestination: number;
  readonly forwardTonAmount: bigint;
  readonly comment: string | null;
}

export interface JettonBurn {
  readonly tx: number;
  readonly queryId: bigint;
  readonly owner: number;
  readonly wallet: number;
  readonly master: number;
  readonly amount: bigint;
  readonly responseDestination: number;
}

export interface NftTransfer {
  readonly tx: number;
  readonly queryId: bigint;
  readonly item: number;
  readonly collection: number;
  readonly oldOwner: number;
  readonly newOwner: number;
  readonly responseDestination: number;
  readonly forwardAmount: bigint;
  readonly aborted: boolean;
}

export type ValidatorEventType = 'stake_accepted' | 'stake_rejected' | 'stake_recovered';

export interface ValidatorEvent {
  readonly tx: number;
  readonly type: ValidatorEventType;
  readonly stakeHolder: number;
  readonly validatorPubkey: string | null;
  readonly adnlAddr: string | null;
  readonly electionId: number | null;
  readonly queryId: bigint;
  readonly amount: bigint;
  readonly reason: number | null;
}

export interface ElectionParticipant {
  readonly stakeHolder: number;
  readonly validatorPubkey: string;
  readonly adnlAddr: string;
  readonly stake: bigint;
  readonly maxFactor: number;
}

export interface Election {
  readonly electionId: number;
  readonly electClose: number;
  readonly openedMc: number;
  readonly closesMc: number;
  readonly minStake: bigint;
  readonly participants: ElectionParticipant[];
  /** Masterchain seqno from which the elected set validates (cycle start). */
  readonly cycleStartMc: number;
  readonly cycleEndMc: number;
}

export type NominatorEventType = 'reward' | 'deposit' | 'withdrawal' | 'pending_deposit_activation' | 'withdrawal_request';

/** A change of one nominator's position in the nominator pool, by the pool's transaction `tx`. */
export interface NominatorEvent {
  readonly tx: number;
  readonly pool: number;
  readonly nominator: number;
  readonly type: NominatorEventType;
  readonly amount: bigint;
  readonly balanceBefore: bigint;
  readonly balanceAfter: bigint;
  readonly pendingBefore: bigint;
  readonly pendingAfter: bigint;
  readonly withdrawRequestBefore: boolean;
  readonly withdrawRequestAfter: boolean;
}

export type PoolValidatorEventType = 'reward' | 'penalty' | 'deposit' | 'withdrawal';

/** A multisig order's state after one of its transactions: a signer's approval (which may send it for execution). */
export interface MultisigOrderChange {
  readonly tx: number;
  readonly order: number;
  readonly approvals: readonly boolean[];
  readonly sentForExecution: boolean;
}

/** A change of the validator's amount in the nominator pool; rewards name the cycle the stake validated. */
export interface PoolValidatorEvent {
  readonly tx: number;
  readonly pool: number;
  readonly validator: number;
  readonly type: PoolValidatorEventType;
  readonly amount: bigint;
  readonly balanceBefore: bigint;
  readonly balanceAfter: bigint;
  /** Masterchain seqno of the first block of the cycle the stake validated (rendered as its utime). */
  readonly cycleStartMc: number;
  readonly queryId: bigint;
  readonly rewardShare: number;
}

/** A complaint against a validator of the set at work, registered with the elector, and its votes. */
export interface Complaint {
  /** The step whose block registered it (created_at is its utime). */
  readonly step: number;
  /** The election that chose the accused's set. */
  readonly election: Election;
  readonly accused: ElectionParticipant;
  /** Blocks the accused was found to produce in the complained-of period (`no_blk_gen` description). */
  readonly foundBlocks: number;
  readonly fromUtime: number;
  readonly severity: number;
  /** Who filed it and is paid if it passes. */
  readonly rewardAddress: number;
  readonly paid: bigint;
  readonly suggestedFine: bigint;
  readonly suggestedFinePart: number;
  /** Stake holders of the set that voted for it. */
  readonly voters: readonly number[];
}
