/**
 * The `actions` stream: the indexer's classification of completed traces (`/api/v3/actions`, paged
 * by `trace_end_lt`). Each action keeps its full `details` as JSON and lifts who/what/how much into
 * columns; `action_accounts` lists every account an action involves. Upstream classifies traces
 * late and re-classifies old ones (action_id changes with the type), so a trace is the unit of
 * replacement and the stream re-scans a trailing overlap on every run.
 */
import { z } from 'zod';
import { ltPage } from '../api/v3.js';
import { finality, looseObject } from '../api/wire.js';
import { amount, bool, date, hash, int32, json, logicalTime, rawAddress, text, textList, timestamptz } from '../core/column-kinds.js';
import { exactJson } from '../core/exact-json.js';
import { defineStream, tableRows } from '../core/stream.js';
import { defineTable, type RowOf } from '../core/table.js';
import { utcDay } from '../core/utc-day.js';
import * as filter from '../options/fields.js';
import { address, amountString, hashString, int32Value, lt, nullish, requiredAddress, unixSeconds } from '../transform/fields.js';

/**
 * The type set the server classifies with, sent on every request (never the server default, which
 * changed between releases). `latest` is the newest set the deployed build knows; a newer build may
 * re-classify traces, which the trace_id replacement absorbs.
 */
export const SUPPORTED_ACTION_TYPES: readonly string[] = ['latest'];

/** Which `details` fields a type's lifted columns come from. Types not listed lift nothing. */
interface Lift {
  readonly source?: string;
  readonly destination?: string;
  readonly asset?: string;
  readonly amount?: string;
  readonly comment?: string;
}

const LIFTS: Readonly<Record<string, Lift>> = {
  ton_transfer: { source: 'source', destination: 'destination', amount: 'value', comment: 'comment' },
  jetton_transfer: { source: 'sender', destination: 'receiver', asset: 'asset', amount: 'amount', comment: 'comment' },
  jetton_burn: { source: 'owner', asset: 'asset', amount: 'amount' },
  jetton_mint: { destination: 'receiver', asset: 'asset', amount: 'amount' },
  nft_transfer: { source: 'old_owner', destination: 'new_owner', asset: 'nft_item', comment: 'comment' },
  nft_mint: { destination: 'owner', asset: 'nft_item' },
  election_deposit: { source: 'stake_holder', amount: 'amount' },
  election_recover: { source: 'stake_holder', amount: 'amount' },
  stake_deposit: { source: 'stake_holder', destination: 'pool', amount: 'amount' },
  stake_withdrawal: { source: 'pool', destination: 'stake_holder', amount: 'amount' },
  contract_deploy: { source: 'source', destination: 'destination', amount: 'value' },
  call_contract: { source: 'source', destination: 'destination', amount: 'value' },
  tick_tock: { destination: 'account' },
};

/** What an action's lifted columns hold. */
export interface Lifted {
  readonly source: string | null;
  readonly destination: string | null;
  readonly asset: string | null;
  readonly amount: bigint | null;
  readonly comment: string | null;
}

const NOTHING_LIFTED: Lifted = { source: null, destination: null, asset: null, amount: null, comment: null };

const liftedAmount = nullish(z.union([amountString, z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).transform(BigInt)]));
const liftedComment = nullish(text.wire);

const actionFields = looseObject({
  action_id: hashString,
  trace_id: hashString,
  type: z.string(),
  success: nullish(bool.wire),
  start_lt: lt,
  end_lt: lt,
  start_utime: unixSeconds,
  end_utime: unixSeconds,
  trace_end_lt: lt,
  trace_end_utime: unixSeconds,
  trace_mc_seqno_end: int32Value,
  trace_external_hash: nullish(hashString),
  trace_external_hash_norm: nullish(hashString),
  transactions: z.array(hashString),
  details: z.unknown().optional(),
  accounts: z
    .array(requiredAddress)
    .nullish()
    .transform((accounts) => accounts ?? []),
  finality: nullish(finality),
});

/**
 * One `/actions` item, with its lifted columns. Any type loads (unknown ones lift nothing); a lifted
 * field of a known type that is present but malformed fails the item.
 */
export const actionItem = actionFields.transform((action, ctx) => {
  const rule = LIFTS[action.type];
  const details = action.details;
  if (rule === undefined || typeof details !== 'object' || details === null || Array.isArray(details)) {
    return { ...action, lifted: NOTHING_LIFTED };
  }
  const record = details as Readonly<Record<string, unknown>>;
  let failed = false;
  const take = <T>(field: string | undefined, schema: z.ZodType<T>): T | null => {
    if (field === undefined) return null;
    const parsed = schema.safeParse(record[field]);
    if (parsed.success) return parsed.data;
    failed = true;
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ code: 'custom', path: ['details', field, ...issue.path.map(String)], message: issue.message, input: record[field] });
    }
    return null;
  };
  const encrypted = record.encrypted === true || record.is_encrypted_comment === true;
  const lifted: Lifted = {
    source: take(rule.source, address),
    destination: take(rule.destination, address),
    asset: take(rule.asset, address),
    amount: take(rule.amount, liftedAmount),
    comment: encrypted ? null : take(rule.comment, liftedComment),
  };
  return failed ? z.NEVER : { ...action, lifted };
});

export type ActionItem = z.output<typeof actionItem>;

export const actionsTable = defineTable({
  name: 'actions',
  doc:
    'One row per action the indexer classified in a completed trace (a transfer, a swap, a deposit…). ' +
    'A trace is replaced as a whole whenever it is read again, so re-classified traces leave no stale actions.',
  columns: {
    action_id: hash.doc('Action id: sha256 of the root message hash and the type (changes when the type does).'),
    trace_id: hash.doc('Trace the action was found in; the unit of replacement.'),
    type: text.doc('Action type, e.g. ton_transfer, jetton_transfer, jetton_swap; new types load as they come.'),
    success: bool.nullable().doc('Whether the action succeeded.'),
    start_lt: logicalTime.doc('Logical time of its first transaction.'),
    end_lt: logicalTime.doc('Logical time of its last transaction.'),
    start_time: timestamptz.doc('Time of its first transaction.'),
    end_time: timestamptz.doc('Time of its last transaction.'),
    trace_end_lt: logicalTime.doc('Logical time at which the whole trace completed: the position the stream pages by.'),
    trace_end_time: timestamptz.doc('Time at which the whole trace completed.'),
    block_date: date.doc('UTC day of trace_end_time.'),
    trace_mc_seqno_end: int32.doc('Masterchain block in which the trace completed.'),
    trace_external_hash: hash.nullable().doc('Hash of the external message that started the trace.'),
    trace_external_hash_norm: hash.nullable().doc('Normalised hash of that external message.'),
    tx_hashes: textList.doc('Hashes (base64) of the transactions making up the action.'),
    source: rawAddress
      .nullable()
      .doc('Initiating side, lifted from details: sender, owner, old owner or stake holder; null when the type has none.'),
    destination: rawAddress
      .nullable()
      .doc('Receiving side, lifted from details: destination, receiver, new owner, pool or the ticked account.'),
    asset: rawAddress
      .nullable()
      .doc('What moved: the jetton master of jetton actions, the NFT item of NFT actions; null for TON.'),
    amount: amount
      .nullable()
      .doc('How much moved in base units (nanoton when asset is null, jetton units for a jetton); null for NFTs and other types.'),
    comment: text.nullable().doc('Text comment of a transfer (null when encrypted or absent).'),
    details: json.nullable().doc('The full type-specific details object as the API sent it.'),
    finality: text.nullable().doc('pending, confirmed or finalized; unknown values kept as sent.'),
  },
  primaryKey: ['action_id'],
  replaceBy: 'trace_id',
  partitionBy: (row) => row.block_date,
  dayOf: 'trace_end_time',
  clusterBy: 'trace_end_lt',
});

export const actionAccountsTable = defineTable({
  name: 'action_accounts',
  doc: 'One row per account an action involves (wallets, jetton wallets, masters, pools…): the way to find the actions of an account.',
  columns: {
    action_id: hash.doc('The action (joins actions.action_id).'),
    account: rawAddress.doc('An account the action involves.'),
    trace_id: hash.doc('Trace of the action; rows are replaced per trace like actions.'),
    trace_end_lt: logicalTime.doc('Logical time at which the trace completed.'),
    trace_end_time: timestamptz.doc('Time at which the trace completed.'),
    block_date: date.doc('UTC day of trace_end_time.'),
  },
  primaryKey: ['action_id', 'account'],
  replaceBy: 'trace_id',
  partitionBy: (row) => row.block_date,
  dayOf: 'trace_end_time',
  clusterBy: 'trace_end_lt',
});

type ActionRow = RowOf<typeof actionsTable>;
type ActionAccountRow = RowOf<typeof actionAccountsTable>;

const ACTION_TYPE = /^[a-z0-9_.]+$/;

export const actionsStream = defineStream({
  name: 'actions',
  doc: 'Classified actions (transfers, swaps, …) of completed traces; re-read over actions_overlap.',
  filters: {
    action_types: filter
      .list(
        filter.matching(ACTION_TYPE, { expected: 'an action type name of lower-case letters, digits, _ and . (e.g. jetton_transfer)' }),
        'a list of action type names',
      )
      .optional()
      .meta({ description: 'Only actions of these types, e.g. jetton_transfer, ton_transfer.', typeLabel: 'list of names' }),
  },
  tables: [actionsTable, actionAccountsTable],
  axis: 'lt',
  endpoint: '/api/v3/actions',
  itemsKey: 'actions',
  query: (filters, page) => ({
    ...ltPage(page),
    supported_action_types: SUPPORTED_ACTION_TYPES,
    action_type: filters.action_types,
    include_accounts: true,
  }),
  metadata: false,
  item: actionItem,
  rescansOverlap: true,
  position: (action) => action.trace_end_lt,
  key: (action) => action.action_id,
  toRows: (action) => {
    const accounts: ActionAccountRow[] = [...new Set(action.accounts)].map((account) => ({
      action_id: action.action_id,
      account,
      trace_id: action.trace_id,
      trace_end_lt: action.trace_end_lt,
      trace_end_time: action.trace_end_utime,
      block_date: utcDay(action.trace_end_utime),
    }));
    return new Map([tableRows(actionsTable, [actionRow(action)]), tableRows(actionAccountsTable, accounts)]);
  },
});

function actionRow(action: ActionItem): ActionRow {
  return {
    action_id: action.action_id,
    trace_id: action.trace_id,
    type: action.type,
    success: action.success,
    start_lt: action.start_lt,
    end_lt: action.end_lt,
    start_time: action.start_utime,
    end_time: action.end_utime,
    trace_end_lt: action.trace_end_lt,
    trace_end_time: action.trace_end_utime,
    block_date: utcDay(action.trace_end_utime),
    trace_mc_seqno_end: action.trace_mc_seqno_end,
    trace_external_hash: action.trace_external_hash,
    trace_external_hash_norm: action.trace_external_hash_norm,
    tx_hashes: action.transactions,
    ...action.lifted,
    details: action.details === undefined || action.details === null ? null : exactJson(action.details),
    finality: action.finality,
  };
}
