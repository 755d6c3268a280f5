/**
 * The `traces` stream: one row per trace (the transactions one external message set off), as the
 * indexer assembles them (`/api/v3/traces`, paged by the trace's `end_lt`), keyed by trace_id. The
 * service lists a trace as soon as its first transaction is indexed, `pending` and at the lt of its
 * newest transaction so far, so its position moves until it completes: only complete traces are
 * stored (`settled`), each once, at its final end_lt. Classification comes later, so like actions
 * the stream re-reads a trailing overlap on every run and a re-read trace replaces its row.
 */
import { z } from 'zod';
import { ltPage } from '../api/v3.js';
import { looseObject } from '../api/wire.js';
import { date, hash, int32, logicalTime, text, timestamptz } from '../core/column-kinds.js';
import { defineStream, tableRows } from '../core/stream.js';
import { defineTable, type RowOf } from '../core/table.js';
import { utcDay } from '../core/utc-day.js';
import * as filter from '../options/fields.js';
import { hashString, int32Value, lt, nullish, unixSeconds } from '../transform/fields.js';

/** The state of a trace whose transactions are all indexed; the others (`pending`, `broken`) may still change. */
const COMPLETE = 'complete';

const traceInfo = looseObject({
  trace_state: z.string(),
  classification_state: z.string(),
  transactions: int32Value,
  messages: int32Value,
});

/**
 * One `/traces` item, without its transactions (the `transactions` stream holds them). `end` is the
 * end of a complete trace, which it must have; null for the others (a pending one's end still moves).
 */
export const traceItem = looseObject({
  trace_id: hashString,
  external_hash: nullish(hashString),
  mc_seqno_start: int32Value,
  mc_seqno_end: nullish(int32Value),
  start_lt: lt,
  start_utime: unixSeconds,
  end_lt: nullish(lt),
  end_utime: nullish(unixSeconds),
  trace_info: traceInfo,
}).transform((trace, ctx) => {
  const { end_lt: endLt, end_utime: endUtime, mc_seqno_end: mcSeqnoEnd } = trace;
  if (trace.trace_info.trace_state !== COMPLETE) return { ...trace, end: null };
  if (endLt !== null && endUtime !== null && mcSeqnoEnd !== null) return { ...trace, end: { lt: endLt, utime: endUtime, mcSeqno: mcSeqnoEnd } };
  ctx.addIssue({ code: 'custom', path: ['end_lt'], message: 'a complete trace needs end_lt, end_utime and mc_seqno_end', input: trace });
  return z.NEVER;
});

export type TraceItem = z.output<typeof traceItem>;

export const tracesTable = defineTable({
  name: 'traces',
  doc:
    'One row per complete trace: the tree of transactions one external message (or a tick-tock) set off, ' +
    'keyed by trace_id; its transactions carry the same trace_id. A trace is stored once complete and its row replaced when read again (classification comes later).',
  columns: {
    trace_id: hash.doc('Trace id: the hash of its first transaction (the key).'),
    external_hash: hash.nullable().doc('Hash of the external message that started the trace (null for a tick-tock).'),
    start_lt: logicalTime.doc('Logical time of its first transaction.'),
    end_lt: logicalTime.doc('Logical time of its last transaction, when the trace completed: the position the stream pages by.'),
    start_time: timestamptz.doc('Time of its first transaction.'),
    end_time: timestamptz.doc('Time of its last transaction.'),
    block_date: date.doc('UTC day of end_time.'),
    mc_seqno_start: int32.doc('Masterchain block holding its first transaction.'),
    mc_seqno_end: int32.doc('Masterchain block in which it completed (joins actions.trace_mc_seqno_end).'),
    tx_count: int32.doc('Transactions in the trace.'),
    msg_count: int32.doc('Messages in the trace as the indexer counts them (the external message that started it included).'),
    trace_state: text.doc('complete (the stream stores no other state; pending and broken traces are left out).'),
    classification_state: text.doc(
      'Whether the indexer has classified its actions: unclassified, ok, failed or broken; unknown values kept as sent. Re-read over actions_overlap.',
    ),
  },
  primaryKey: ['trace_id'],
  partitionBy: (row) => row.block_date,
  dayOf: 'end_time',
  clusterBy: 'end_lt',
});

type TraceRow = RowOf<typeof tracesTable>;

export const tracesStream = defineStream({
  name: 'traces',
  doc: 'Complete traces, one row each keyed by trace_id; re-read over actions_overlap.',
  filters: {
    account: filter.optionalAddress('Only traces with a transaction of this account.'),
  },
  tables: [tracesTable],
  axis: 'lt',
  endpoint: '/api/v3/traces',
  itemsKey: 'traces',
  query: (filters, page) => ({ ...ltPage(page), account: filters.account }),
  metadata: false,
  item: traceItem,
  rescansOverlap: true,
  settled: (trace) => trace.end !== null,
  position: (trace) => trace.end?.lt ?? trace.end_lt ?? trace.start_lt,
  key: (trace) => trace.trace_id,
  toRows: (trace) => new Map([tableRows(tracesTable, [traceRow(trace)])]),
});

function traceRow(trace: TraceItem): TraceRow {
  const end = trace.end;
  if (end === null) throw new Error(`trace ${trace.trace_id} is ${trace.trace_info.trace_state}: only complete traces become rows`);
  return {
    trace_id: trace.trace_id,
    external_hash: trace.external_hash,
    start_lt: trace.start_lt,
    end_lt: end.lt,
    start_time: trace.start_utime,
    end_time: end.utime,
    block_date: utcDay(end.utime),
    mc_seqno_start: trace.mc_seqno_start,
    mc_seqno_end: end.mcSeqno,
    tx_count: trace.trace_info.transactions,
    msg_count: trace.trace_info.messages,
    trace_state: trace.trace_info.trace_state,
    classification_state: trace.trace_info.classification_state,
  };
}
