/**
 * The `transactions` stream: every transaction (`/api/v3/transactions`, paged by lt), flattened into
 * one row with its description phases and account states, plus one `messages` row per message it
 * received or sent.
 */
import { z } from 'zod';
import { ltPage } from '../api/v3.js';
import { finality, looseObject, nullableString } from '../api/wire.js';
import { amount, bool, date, hash, int32, int64, logicalTime, rawAddress, text, timestamptz } from '../core/column-kinds.js';
import { defineStream, tableRows } from '../core/stream.js';
import { defineTable, type RowOf } from '../core/table.js';
import { utcDay } from '../core/utc-day.js';
import * as filter from '../options/fields.js';
import {
  address,
  amountString,
  hashString,
  int32Value,
  int64Value,
  lt,
  nullish,
  opcode,
  requiredAddress,
  unixSeconds,
} from '../transform/fields.js';
import { base64ToHex } from '../transform/hash.js';
import { textComment } from '../transform/payload.js';

const flag = nullish(bool.wire);
const nullableAmount = nullish(amountString);
const nullableHash = nullish(hashString);

const message = looseObject({
  hash: hashString,
  source: address,
  destination: address,
  value: nullableAmount,
  fwd_fee: nullableAmount,
  ihr_fee: nullableAmount,
  import_fee: nullableAmount,
  created_lt: nullish(lt),
  created_at: nullish(unixSeconds),
  opcode,
  decoded_opcode: nullableString,
  ihr_disabled: flag,
  bounce: flag,
  bounced: flag,
  message_content: nullish(looseObject({ hash: nullableHash, body: nullableString, decoded: z.unknown().optional() })),
  init_state: nullish(looseObject({ hash: nullableHash })),
  hash_norm: nullableHash,
});

type Message = z.output<typeof message>;

const description = looseObject({
  type: z.string(),
  aborted: flag,
  destroyed: flag,
  credit_first: flag,
  is_tock: flag,
  installed: flag,
  storage_ph: nullish(
    looseObject({ storage_fees_collected: nullableAmount, storage_fees_due: nullableAmount, status_change: nullableString }),
  ),
  credit_ph: nullish(looseObject({ due_fees_collected: nullableAmount, credit: nullableAmount })),
  compute_ph: nullish(
    looseObject({
      skipped: flag,
      reason: nullableString,
      /** 2024 format: `type` (`skipped`/`vm`) and `skip_reason`. */
      type: nullableString,
      skip_reason: nullableString,
      success: flag,
      account_activated: flag,
      gas_fees: nullableAmount,
      gas_used: nullish(int64Value),
      gas_limit: nullish(int64Value),
      gas_credit: nullish(int64Value),
      mode: nullish(int32Value),
      exit_code: nullish(int32Value),
      exit_arg: nullish(int32Value),
      vm_steps: nullish(int64Value),
    }),
  ),
  action: nullish(
    looseObject({
      success: flag,
      valid: flag,
      no_funds: flag,
      status_change: nullableString,
      total_fwd_fees: nullableAmount,
      total_action_fees: nullableAmount,
      result_code: nullish(int32Value),
      result_arg: nullish(int32Value),
      tot_actions: nullish(int32Value),
      skipped_actions: nullish(int32Value),
      msgs_created: nullish(int32Value),
    }),
  ),
  bounce: nullish(looseObject({ type: nullableString, req_fwd_fees: nullableAmount, msg_fees: nullableAmount, fwd_fees: nullableAmount })),
});

const accountState = nullish(
  looseObject({
    hash: nullableHash,
    balance: nullableAmount,
    account_status: nullableString,
    data_hash: nullableHash,
    code_hash: nullableHash,
  }),
);

/** One `/transactions` item (also the values of a trace's `transactions` map). */
export const transactionItem = looseObject({
  account: requiredAddress,
  hash: hashString,
  lt,
  now: unixSeconds,
  mc_block_seqno: nullish(int32Value),
  trace_id: nullableHash,
  trace_external_hash: nullableHash,
  prev_trans_hash: hashString,
  prev_trans_lt: lt,
  orig_status: z.string(),
  end_status: z.string(),
  total_fees: amountString,
  description,
  block_ref: nullish(looseObject({ workchain: int32Value, shard: z.string(), seqno: int32Value })),
  in_msg: nullish(message),
  out_msgs: z
    .array(message)
    .nullish()
    .transform((messages) => messages ?? []),
  account_state_before: accountState,
  account_state_after: accountState,
  emulated: flag,
  finality: nullish(finality),
});

export type TransactionItem = z.output<typeof transactionItem>;

export const transactionsTable = defineTable({
  name: 'transactions',
  doc: 'One row per transaction, with its description phases and the account state before and after it.',
  columns: {
    tx_hash: hash.doc('Transaction hash (base64), the API form and the key.'),
    tx_hash_hex: text.doc('The same hash in lower-case hex, as explorers print it.'),
    account: rawAddress.doc('Account the transaction ran on.'),
    tx_lt: logicalTime.doc('Logical time of the transaction; unique per account, not across accounts.'),
    tx_time: timestamptz.doc('Block time of the transaction (epoch(tx_time) gives the unix seconds of the API utime filters).'),
    block_date: date.doc('UTC day of tx_time.'),
    mc_block_seqno: int32.nullable().doc('Masterchain block that committed the transaction (null while not committed).'),
    block_workchain: int32.nullable().doc('Workchain of the block holding the transaction.'),
    block_shard: text.nullable().doc('Shard of that block as unsigned hex, e.g. 8000000000000000.'),
    block_seqno: int32.nullable().doc('Seqno of that block in its shard.'),
    trace_id: hash.nullable().doc('Trace (tree of transactions caused by one external message) it belongs to.'),
    trace_external_hash: hash.nullable().doc('Hash of the external message that started the trace, when there is one.'),
    prev_tx_hash: hash.doc("Hash of the account's previous transaction (all zero bytes for the first)."),
    prev_tx_lt: logicalTime.doc("Logical time of the account's previous transaction (0 for the first)."),
    orig_status: text.doc('Account status before: uninit, frozen, active or nonexist.'),
    end_status: text.doc('Account status after: uninit, frozen, active or nonexist.'),
    total_fees: amount.doc('Total fees paid, nanoton.'),
    descr_type: text.doc('Transaction kind: ord, storage, tick_tock, split_prepare, split_install, merge_prepare, merge_install.'),
    aborted: bool.nullable().doc('The transaction was aborted (its state changes were rolled back).'),
    destroyed: bool.nullable().doc('The account was destroyed by the transaction.'),
    credit_first: bool.nullable().doc('Credit phase ran before the storage phase (non-bounceable inbound message).'),
    is_tock: bool.nullable().doc('Tick-tock transactions: true for tock, false for tick.'),
    installed: bool.nullable().doc('Split/merge install transactions: whether it was installed.'),
    storage_fees_collected: amount.nullable().doc('Storage phase: fees collected, nanoton.'),
    storage_fees_due: amount.nullable().doc('Storage phase: fees left due, nanoton.'),
    storage_status_change: text.nullable().doc('Storage phase: unchanged, frozen or deleted.'),
    due_fees_collected: amount.nullable().doc('Credit phase: due fees collected, nanoton.'),
    credit: amount.nullable().doc('Credit phase: value credited to the account, nanoton.'),
    compute_skipped: bool.nullable().doc('Compute phase was skipped.'),
    compute_skip_reason: text.nullable().doc('Why it was skipped: no_state, bad_state, no_gas, suspended.'),
    compute_success: bool.nullable().doc('Compute phase succeeded.'),
    compute_account_activated: bool.nullable().doc('Compute phase activated the account (deployed its code).'),
    compute_exit_code: int32.nullable().doc('TVM exit code (0 and 1 mean success).'),
    compute_exit_arg: int32.nullable().doc('TVM exit argument, when the contract threw one.'),
    compute_gas_used: int64.nullable().doc('Gas used.'),
    compute_gas_limit: int64.nullable().doc('Gas limit.'),
    compute_gas_credit: int64.nullable().doc('Gas credit (external messages).'),
    compute_gas_fees: amount.nullable().doc('Gas fees, nanoton.'),
    compute_vm_steps: int64.nullable().doc('TVM steps executed.'),
    compute_mode: int32.nullable().doc('TVM mode.'),
    action_success: bool.nullable().doc('Action phase succeeded.'),
    action_valid: bool.nullable().doc('Action list was valid.'),
    action_no_funds: bool.nullable().doc('Action phase ran out of funds.'),
    action_result_code: int32.nullable().doc('Action phase result code (0 = ok).'),
    action_result_arg: int32.nullable().doc('Action phase result argument.'),
    action_tot_actions: int32.nullable().doc('Actions in the action list.'),
    action_skipped_actions: int32.nullable().doc('Actions skipped.'),
    action_msgs_created: int32.nullable().doc('Outbound messages created.'),
    action_total_fwd_fees: amount.nullable().doc('Forwarding fees of the outbound messages, nanoton.'),
    action_total_action_fees: amount.nullable().doc('Action fees, nanoton.'),
    action_status_change: text.nullable().doc('Action phase status change: unchanged, frozen or deleted.'),
    bounce_type: text.nullable().doc('Bounce phase: negfunds, nofunds or ok.'),
    bounce_req_fwd_fees: amount.nullable().doc('Bounce phase: forwarding fees required, nanoton.'),
    bounce_msg_fees: amount.nullable().doc('Bounce phase: message fees, nanoton.'),
    bounce_fwd_fees: amount.nullable().doc('Bounce phase: forwarding fees, nanoton.'),
    balance_before: amount.nullable().doc('Account balance before, nanoton (null when the account did not exist).'),
    balance_after: amount.nullable().doc('Account balance after, nanoton.'),
    status_before: text.nullable().doc('Account status in the state before (null when the account did not exist).'),
    status_after: text.nullable().doc('Account status in the state after.'),
    state_hash_before: hash.nullable().doc('Hash of the account state before.'),
    state_hash_after: hash.nullable().doc('Hash of the account state after.'),
    code_hash_after: hash.nullable().doc('Hash of the account code after (active accounts).'),
    data_hash_after: hash.nullable().doc('Hash of the account data after (active accounts).'),
    in_msg_hash: hash.nullable().doc('Hash of the inbound message (null for tick-tock and other transactions without one).'),
    out_msg_count: int32.doc('Outbound messages the transaction sent.'),
    finality: text.nullable().doc('pending, confirmed or finalized; unknown values kept as sent (e.g. unknown_3); null when the API sent none.'),
    emulated: bool.nullable().doc('The API served an emulated (not yet committed) transaction.'),
  },
  primaryKey: ['tx_hash'],
  partitionBy: (row) => row.block_date,
  dayOf: 'tx_time',
  clusterBy: 'tx_lt',
});

export const messagesTable = defineTable({
  name: 'messages',
  doc:
    'One row per message of a transaction: its inbound message (direction in) and each outbound one (direction out). ' +
    'An internal message appears twice, as out of the sending transaction and as in of the receiving one.',
  columns: {
    tx_hash: hash.doc('Transaction the message belongs to (joins transactions.tx_hash).'),
    direction: text.doc('in (the message the transaction received) or out (a message it sent).'),
    msg_hash: hash.doc('Message hash (base64).'),
    tx_lt: logicalTime.doc('Logical time of the transaction.'),
    tx_time: timestamptz.doc('Block time of the transaction.'),
    block_date: date.doc('UTC day of tx_time.'),
    trace_id: hash.nullable().doc('Trace of the transaction.'),
    source: rawAddress.nullable().doc('Sender; null for an external inbound message.'),
    destination: rawAddress.nullable().doc('Receiver; null for an external outbound message (log).'),
    value: amount.nullable().doc('Value carried, nanoton; null for external messages.'),
    fwd_fee: amount.nullable().doc('Forwarding fee, nanoton.'),
    ihr_fee: amount.nullable().doc('Instant hypercube routing fee, nanoton.'),
    import_fee: amount.nullable().doc('Import fee of an external inbound message, nanoton.'),
    created_lt: logicalTime.nullable().doc('Logical time the message was created at; null for external inbound messages.'),
    created_time: timestamptz.nullable().doc('Time the message was created at; null for external inbound messages.'),
    opcode: int64
      .nullable()
      .doc(
        'First 32 bits of the body as an unsigned integer (0 … 4294967295), e.g. 260734629 for 0x0f8a7ea5 ' +
          "(printf('0x%08x', opcode) prints the hex form); null when the body is shorter.",
      ),
    decoded_opcode: text.nullable().doc('Name the indexer gives the opcode, e.g. jetton_transfer, text_comment.'),
    bounce: bool.nullable().doc('Bounceable message.'),
    bounced: bool.nullable().doc('The message is a bounce of an earlier one.'),
    ihr_disabled: bool.nullable().doc('Instant hypercube routing disabled.'),
    body_hash: hash.nullable().doc('Hash of the body cell.'),
    body: text
      .nullable()
      .doc('Body as a base64 BoC, as the API sends it: decode any opcode later without refetching.'),
    comment: text
      .nullable()
      .doc('Text comment: the body decoded when it is opcode 0 followed by text; null otherwise (also for encrypted comments).'),
    init_state_hash: hash.nullable().doc('Hash of the StateInit the message carries (deploys); its BoC is not stored.'),
    msg_hash_norm: hash.nullable().doc('Normalised hash of an external inbound message (stable across re-signing wallets).'),
  },
  primaryKey: ['tx_hash', 'direction', 'msg_hash'],
  partitionBy: (row) => row.block_date,
  dayOf: 'tx_time',
  clusterBy: 'tx_lt',
});

type TransactionRow = RowOf<typeof transactionsTable>;
type MessageRow = RowOf<typeof messagesTable>;

export const transactionsStream = defineStream({
  name: 'transactions',
  doc: 'Transactions, with their messages.',
  filters: {
    accounts: filter.optionalAddresses('Only transactions of these accounts.'),
  },
  tables: [transactionsTable, messagesTable],
  axis: 'lt',
  endpoint: '/api/v3/transactions',
  itemsKey: 'transactions',
  query: (filters, page) => ({ ...ltPage(page), account: filters.accounts }),
  metadata: true,
  item: transactionItem,
  rescansOverlap: false,
  orderWithinPosition: (a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0),
  position: (tx) => tx.lt,
  key: (tx) => tx.hash,
  toRows: (tx) => {
    const messages: MessageRow[] = [];
    if (tx.in_msg !== null) messages.push(messageRow(tx, tx.in_msg, 'in'));
    for (const out of tx.out_msgs) messages.push(messageRow(tx, out, 'out'));
    return new Map([tableRows(transactionsTable, [transactionRow(tx)]), tableRows(messagesTable, messages)]);
  },
});

function transactionRow(tx: TransactionItem): TransactionRow {
  const d = tx.description;
  const storage = d.storage_ph;
  const compute = d.compute_ph;
  const action = d.action;
  const bounce = d.bounce;
  const before = tx.account_state_before;
  const after = tx.account_state_after;
  return {
    tx_hash: tx.hash,
    tx_hash_hex: base64ToHex(tx.hash),
    account: tx.account,
    tx_lt: tx.lt,
    tx_time: tx.now,
    block_date: utcDay(tx.now),
    mc_block_seqno: tx.mc_block_seqno,
    block_workchain: tx.block_ref?.workchain ?? null,
    block_shard: tx.block_ref?.shard ?? null,
    block_seqno: tx.block_ref?.seqno ?? null,
    trace_id: tx.trace_id,
    trace_external_hash: tx.trace_external_hash,
    prev_tx_hash: tx.prev_trans_hash,
    prev_tx_lt: tx.prev_trans_lt,
    orig_status: tx.orig_status,
    end_status: tx.end_status,
    total_fees: tx.total_fees,
    descr_type: d.type,
    aborted: d.aborted,
    destroyed: d.destroyed,
    credit_first: d.credit_first,
    is_tock: d.is_tock,
    installed: d.installed,
    storage_fees_collected: storage?.storage_fees_collected ?? null,
    storage_fees_due: storage?.storage_fees_due ?? null,
    storage_status_change: storage?.status_change ?? null,
    due_fees_collected: d.credit_ph?.due_fees_collected ?? null,
    credit: d.credit_ph?.credit ?? null,
    compute_skipped: compute === null ? null : (compute.skipped ?? (compute.type === null ? null : compute.type === 'skipped')),
    compute_skip_reason: compute?.reason ?? compute?.skip_reason ?? null,
    compute_success: compute?.success ?? null,
    compute_account_activated: compute?.account_activated ?? null,
    compute_exit_code: compute?.exit_code ?? null,
    compute_exit_arg: compute?.exit_arg ?? null,
    compute_gas_used: compute?.gas_used ?? null,
    compute_gas_limit: compute?.gas_limit ?? null,
    compute_gas_credit: compute?.gas_credit ?? null,
    compute_gas_fees: compute?.gas_fees ?? null,
    compute_vm_steps: compute?.vm_steps ?? null,
    compute_mode: compute?.mode ?? null,
    action_success: action?.success ?? null,
    action_valid: action?.valid ?? null,
    action_no_funds: action?.no_funds ?? null,
    action_result_code: action?.result_code ?? null,
    action_result_arg: action?.result_arg ?? null,
    action_tot_actions: action?.tot_actions ?? null,
    action_skipped_actions: action?.skipped_actions ?? null,
    action_msgs_created: action?.msgs_created ?? null,
    action_total_fwd_fees: action?.total_fwd_fees ?? null,
    action_total_action_fees: action?.total_action_fees ?? null,
    action_status_change: action?.status_change ?? null,
    bounce_type: bounce?.type ?? null,
    bounce_req_fwd_fees: bounce?.req_fwd_fees ?? null,
    bounce_msg_fees: bounce?.msg_fees ?? null,
    bounce_fwd_fees: bounce?.fwd_fees ?? null,
    balance_before: before?.balance ?? null,
    balance_after: after?.balance ?? null,
    status_before: before?.account_status ?? null,
    status_after: after?.account_status ?? null,
    state_hash_before: before?.hash ?? null,
    state_hash_after: after?.hash ?? null,
    code_hash_after: after?.code_hash ?? null,
    data_hash_after: after?.data_hash ?? null,
    in_msg_hash: tx.in_msg?.hash ?? null,
    out_msg_count: tx.out_msgs.length,
    finality: tx.finality,
    emulated: tx.emulated,
  };
}

function messageRow(tx: TransactionItem, msg: Message, direction: 'in' | 'out'): MessageRow {
  const content = msg.message_content;
  const body = content?.body ?? null;
  return {
    tx_hash: tx.hash,
    direction,
    msg_hash: msg.hash,
    tx_lt: tx.lt,
    tx_time: tx.now,
    block_date: utcDay(tx.now),
    trace_id: tx.trace_id,
    source: msg.source,
    destination: msg.destination,
    value: msg.value,
    fwd_fee: msg.fwd_fee,
    ihr_fee: msg.ihr_fee,
    import_fee: msg.import_fee,
    created_lt: msg.created_lt,
    created_time: msg.created_at,
    opcode: msg.opcode === null ? null : BigInt(msg.opcode),
    decoded_opcode: msg.decoded_opcode,
    bounce: msg.bounce,
    bounced: msg.bounced,
    ihr_disabled: msg.ihr_disabled,
    body_hash: content?.hash ?? null,
    body,
    comment: textComment({ decoded: content?.decoded, boc: body, opcode: msg.opcode }),
    init_state_hash: msg.init_state?.hash ?? null,
    msg_hash_norm: msg.hash_norm,
  };
}
