import { int32, json, text, timestamptz } from './column-kinds.js';
import { defineTable, type AnyTable } from './table.js';
import { utcDay } from './utc-day.js';

/**
 * Version of the warehouse layout (table definitions and bookkeeping). Bump it when a change
 * makes an existing warehouse unreadable or unwritable by this build; sinks refuse other versions.
 */
export const SCHEMA_VERSION = 4;

/** `_etl_meta` key holding the schema version. */
export const SCHEMA_VERSION_KEY = 'schema_version';

/**
 * `_etl_meta` key of a table's range of a kind, `{"min","max"}` (src/load/written-ranges.ts):
 * `unswept:<table>` (since the last sweep of moved keys), `unchecked:<table>` (since the stored checks
 * last passed); `writtenRangeKey(kind, '')` is their prefix.
 */
export const writtenRangeKey = (kind: 'unswept' | 'unchecked', table: string): string => `${kind}:${table}`;

export const etlMeta = defineTable({
  name: '_etl_meta',
  doc: 'Facts about the warehouse itself, such as the schema version that wrote it.',
  columns: {
    key: text.doc('Fact name, e.g. schema_version.'),
    value: text.doc('Fact value as text.'),
  },
  primaryKey: ['key'],
  keyIndex: true,
});

export const etlCheckpoints = defineTable({
  name: '_etl_checkpoints',
  doc: 'Where each stream stopped: committed in the same unit as the rows it covers.',
  columns: {
    stream: text.doc('Stream name.'),
    position: text.doc('Stream-defined position (usually JSON) of the last committed row.'),
    updated_at: timestamptz.doc('When the checkpoint was committed.'),
  },
  primaryKey: ['stream'],
  keyIndex: true,
});

export const etlRuns = defineTable({
  name: '_etl_runs',
  doc: 'One row per command run: when, how it ended, and what it did.',
  columns: {
    run_id: text.doc('Unique id of the run.'),
    command: text.doc('Command line verb, e.g. sync or backfill.'),
    started_at: timestamptz.doc('When the run started.'),
    ended_at: timestamptz.nullable().doc('When the run ended; null while running.'),
    status: text.doc('running, ok, failed, interrupted, or abandoned (the process died mid-run: killed, or a second SIGINT/SIGTERM).'),
    rows: json.doc('New rows committed per stream (rows of a key the warehouse did not hold), {"stream": count}; the time of each snapshot taken under "snapshot_time", {"stream": "ISO time"}. Runs of schema version 2 and earlier counted replaced rows here too.'),
    rows_replaced: json.nullable().doc('Rows committed per stream that took the place of a stored row of the same key (the actions overlap re-read, a replayed page, a snapshot re-read), {"stream": count}; null for runs of schema version 2 and earlier, which did not count them apart.'),
    requests: json.doc('HTTP requests made per stream, {"stream": count}.'),
    retries: int32.doc('HTTP retries over the whole run.'),
    error: text.nullable().doc('Error message (with causes) when the run failed.'),
    tip_seqno: int32.nullable().doc('The settled tip the run read up to (masterchain seqno); null until the run has asked for it.'),
    tip_time: timestamptz.nullable().doc("The settled tip's block time: ended_at - tip_time is how far behind the chain the warehouse was when the run ended."),
  },
  primaryKey: ['run_id'],
  keyIndex: true,
  partitionBy: (row) => utcDay(row.started_at),
});

export const etlRejects = defineTable({
  name: '_etl_rejects',
  doc: 'Dead letters: API items that could not be turned into rows, kept with the reason.',
  columns: {
    stream: text.doc('Stream that rejected the item.'),
    reject_id: text.doc('sha256 (hex) of endpoint and raw: an item read again (replay, page edge, overlap) is one reject, with the params of its last read.'),
    endpoint: text.doc('API path that returned the item, e.g. /api/v3/transactions.'),
    params: json.doc('The request: the page (from, to, limit, offset) and the stream filters.'),
    raw: text.doc('The item as received (JSON text).'),
    reason: text.doc('Why it was rejected (validation message).'),
    seen_at: timestamptz.doc('When it was last rejected.'),
  },
  primaryKey: ['stream', 'reject_id'],
  keyIndex: true,
});

/** Every bookkeeping table, in creation order. */
export const bookkeepingTables: readonly AnyTable[] = [etlMeta, etlCheckpoints, etlRuns, etlRejects];
