/**
 * What `chain-etl verify` checks in a stored warehouse, against facts the chain states itself, inside
 * what each stream's checkpoint says it covers: no key stored twice; every masterchain seqno between
 * two stored ones stored; each stored block's `tx_count` equal to its stored transactions; each
 * stored transaction's `prev_tx_hash`/`prev_tx_lt` naming the account's stored previous one; each
 * stored trace's transaction count equal to its stored transactions. Reads only; each inconsistency
 * comes with the range of the stream's positions to fetch again. A chain given `only` ranges checks
 * the rows of those ranges alone (what a run just committed) against everything stored.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Range } from '../core/checkpoint/coverage.js';
import { quotedIdentifier } from '../core/sql-quote.js';
import type { PositionAxis } from '../core/stream.js';
import type { AnyTable } from '../core/table.js';

export type CheckName = 'keys' | 'masterchain-seqnos' | 'block-transactions' | 'transaction-links' | 'trace-transactions' | 'checkpoints';

/** One fact of the chain the warehouse contradicts, and the positions whose fetch mends it. */
export interface Inconsistency {
  readonly check: CheckName;
  readonly table: string;
  /** What is wrong, one line. */
  readonly detail: string;
  /** The positions of `axis` to read again (inclusive), when a range mends it. */
  readonly refetch: { readonly axis: PositionAxis; readonly from: bigint; readonly to: bigint } | undefined;
  /** What the chain has that the warehouse lacks, where items kept in `_etl_rejects` may be it (`rejected-items.ts`). */
  readonly lacks?: Lack;
}

/** Items the warehouse lacks: transactions by hash, or so many of a block's or a trace's, or masterchain blocks by seqno. */
export type Lack =
  | { readonly kind: 'transaction'; readonly hash: string; readonly account: string; readonly lt: bigint }
  | { readonly kind: 'block-transactions' | 'trace-transactions'; readonly of: string; readonly count: number }
  | { readonly kind: 'masterchain-blocks'; readonly seqnos: readonly number[] };

/** A check that ran: how many stored items it looked at, and what it found (at most `StoredChain.limit`). */
export interface CheckResult {
  readonly check: CheckName;
  /** The table whose rows it looked at. */
  readonly table: string;
  readonly checked: number;
  readonly found: Inconsistency[];
}

/** Inconsistencies of one check listed at most (each costs a line; the rest are counted). */
export const LISTED_PER_CHECK = 50;

/** The warehouse as the checks read it: a connection whose tables are named as their table, and each position stream's covered ranges. */
export interface StoredChain {
  readonly connection: DuckDBConnection;
  covered(stream: string): readonly Range[] | undefined;
  /**
   * The rows to check, per table: those whose `clusterBy` value lies in its range (a table without
   * one has none to check). Undefined: every covered row.
   */
  readonly only?: ReadonlyMap<string, { readonly min: bigint; readonly max: bigint }>;
  /** Findings a check reads at most: LISTED_PER_CHECK and as many as rejected items may account for. */
  readonly limit: number;
}

/** The stream whose keys are checked: its name, and its axis when it is paged by a position. */
export interface KeyedStream {
  readonly name: string;
  readonly axis?: PositionAxis;
}

/**
 * Rows of `table` sharing a primary key, anywhere in it (with `only`: keys with a row in the table's
 * range; a table without a `clusterBy` column is checked whole). The positions to read again are
 * known where the table's `clusterBy` column is its stream's position (the lt streams).
 */
export async function checkKeys(chain: StoredChain, stream: KeyedStream, table: AnyTable): Promise<CheckResult> {
  const key = table.primaryKey.map(quotedIdentifier).join(', ');
  const cluster = table.clusterBy === undefined || stream.axis !== 'lt' ? undefined : quotedIdentifier(table.clusterBy);
  const subject = table.clusterBy === undefined ? 'true' : inOnly(chain, table.name, quotedIdentifier(table.clusterBy));
  const rows = await all(
    chain.connection,
    `SELECT concat_ws(', ', ${table.primaryKey.map((c) => `${quotedIdentifier(c)}::VARCHAR`).join(', ')}) AS key, count(*) AS n, ` +
      `${cluster === undefined ? 'NULL, NULL' : `min(${cluster})::VARCHAR, max(${cluster})::VARCHAR`} ` +
      `FROM ${quotedIdentifier(table.name)} GROUP BY ${key} HAVING count(*) > 1 AND bool_or(${subject}) ORDER BY 1 LIMIT ${chain.limit}`,
  );
  const checked = await count(chain.connection, `SELECT count(*) FROM ${quotedIdentifier(table.name)} WHERE ${subject}`);
  return {
    check: 'keys',
    table: table.name,
    checked,
    found: rows.map(([keyText, times, min, max]) => ({
      check: 'keys',
      table: table.name,
      detail: `key (${String(keyText)}) is stored ${String(times)} times`,
      refetch: min === null ? undefined : { axis: 'lt' as const, from: BigInt(String(min)), to: BigInt(String(max)) },
    })),
  };
}

/**
 * Masterchain seqnos missing between two stored masterchain blocks of one covered range (blocks of two
 * ranges are never paired: what lies between them is a hole, not a loss). With `only`, the blocks
 * around the range alone are numbered: from the last masterchain block below it to the first above.
 */
export async function checkMasterchainSeqnos(chain: StoredChain): Promise<CheckResult> {
  const ranges = chain.covered('blocks') ?? [];
  const where = `workchain = -1 AND ${inRanges('epoch(block_time)', ranges)}`;
  const subject = (column: string): string => inOnly(chain, 'blocks', column);
  const range = chain.only?.get('blocks');
  const near =
    range === undefined
      ? ''
      : ` AND start_lt >= coalesce((SELECT max(start_lt) FROM blocks WHERE ${where} AND start_lt < ${range.min}), ${range.min})` +
        ` AND start_lt <= coalesce((SELECT min(start_lt) FROM blocks WHERE ${where} AND start_lt > ${range.max}), ${range.max})`;
  const rangeOf = ranges.length === 0 ? '0' : `CASE ${ranges.map((r, i) => `WHEN epoch(block_time) BETWEEN ${r.from} AND ${r.to} THEN ${i}`).join(' ')} END`;
  const rows = await all(
    chain.connection,
    `SELECT seqno, next, epoch(block_time)::BIGINT::VARCHAR, next_time::BIGINT::VARCHAR FROM (SELECT seqno, block_time, start_lt, lead(seqno) OVER w AS next, epoch(lead(block_time) OVER w) AS next_time, lead(start_lt) OVER w AS next_lt ` +
      `FROM blocks WHERE ${where}${near} WINDOW w AS (PARTITION BY ${rangeOf} ORDER BY seqno)) WHERE next > seqno + 1 AND (${subject('start_lt')} OR ${subject('next_lt')}) ORDER BY seqno LIMIT ${chain.limit}`,
  );
  return {
    check: 'masterchain-seqnos',
    table: 'blocks',
    checked: await count(chain.connection, `SELECT count(*) FROM blocks WHERE ${where} AND ${subject('start_lt')}`),
    found: rows.map(([seqno, next, time, nextTime]) => ({
      check: 'masterchain-seqnos',
      table: 'blocks',
      detail: `masterchain blocks ${Number(seqno) + 1}…${Number(next) - 1} are missing between stored blocks ${String(seqno)} and ${String(next)}`,
      refetch: { axis: 'utime', from: BigInt(String(time)), to: BigInt(String(nextTime)) },
      lacks: { kind: 'masterchain-blocks', seqnos: Array.from({ length: Number(next) - Number(seqno) - 1 }, (_, i) => Number(seqno) + 1 + i) },
    })),
  };
}

/**
 * Stored blocks, inside the coverage of both streams, whose `tx_count` differs from their stored
 * transactions. `blocks` names the relation that holds them: the warehouse's table, or the headers
 * verify fetched for a pipeline that stores none.
 */
export async function checkBlockTransactions(chain: StoredChain, blocks = 'blocks'): Promise<CheckResult> {
  const txRanges = chain.covered('transactions') ?? [];
  const within =
    `b.tx_count IS NOT NULL AND ${inRanges('epoch(b.block_time)', chain.covered('blocks') ?? [])} AND ${rangeInside('b.start_lt', 'b.end_lt', txRanges)} ` +
    `AND (${inOnly(chain, 'blocks', 'b.start_lt')} OR ${overlapsOnly(chain, 'transactions', 'b.start_lt', 'b.end_lt')})`;
  const rows = await all(
    chain.connection,
    `SELECT b.workchain, b.shard, b.seqno, b.tx_count, count(t.tx_hash) AS stored, b.start_lt::VARCHAR, b.end_lt::VARCHAR FROM ${blocks} AS b ` +
      `LEFT JOIN transactions AS t ON t.block_workchain = b.workchain AND t.block_shard = b.shard AND t.block_seqno = b.seqno ` +
      `WHERE ${within} GROUP BY b.workchain, b.shard, b.seqno, b.tx_count, b.start_lt, b.end_lt HAVING count(t.tx_hash) <> b.tx_count ORDER BY b.start_lt LIMIT ${chain.limit}`,
  );
  return {
    check: 'block-transactions',
    table: 'blocks',
    checked: await count(chain.connection, `SELECT count(*) FROM ${blocks} AS b WHERE ${within}`),
    found: rows.map(([workchain, shard, seqno, listed, stored, startLt, endLt]) => ({
      check: 'block-transactions',
      table: 'transactions',
      detail: `block ${String(workchain)}:${String(shard)}:${String(seqno)} lists ${String(listed)} transactions, ${String(stored)} are stored`,
      refetch: { axis: 'lt', from: BigInt(String(startLt)), to: BigInt(String(endLt)) },
      lacks: { kind: 'block-transactions', of: `${String(workchain)}:${String(shard)}:${String(seqno)}`, count: Number(listed) - Number(stored) },
    })),
  };
}

/** Stored transactions whose previous transaction lies in a covered range but is not stored as they name it. */
export async function checkTransactionLinks(chain: StoredChain): Promise<CheckResult> {
  const ranges = chain.covered('transactions') ?? [];
  const within = `t.prev_tx_lt > 0 AND ${inRanges('t.tx_lt', ranges)} AND ${inRanges('t.prev_tx_lt', ranges)} AND ${inOnly(chain, 'transactions', 't.tx_lt')}`;
  const rows = await all(
    chain.connection,
    `SELECT t.account, t.tx_lt::VARCHAR, t.prev_tx_lt::VARCHAR, t.prev_tx_hash, p.tx_hash FROM transactions AS t ` +
      `LEFT JOIN transactions AS p ON p.account = t.account AND p.tx_lt = t.prev_tx_lt ` +
      `WHERE ${within} AND p.tx_hash IS DISTINCT FROM t.prev_tx_hash ORDER BY t.tx_lt LIMIT ${chain.limit}`,
  );
  return {
    check: 'transaction-links',
    table: 'transactions',
    checked: await count(chain.connection, `SELECT count(*) FROM transactions AS t WHERE ${within}`),
    found: rows.map(([account, lt, prevLt, prevHash, stored]) => ({
      check: 'transaction-links',
      table: 'transactions',
      detail:
        `the transaction of ${String(account)} at lt ${String(lt)} follows ${String(prevHash)} at lt ${String(prevLt)}, ` +
        (stored === null ? 'which is not stored' : `but ${String(stored)} is stored there`),
      refetch: { axis: 'lt', from: BigInt(String(prevLt)), to: BigInt(String(lt)) },
      ...(stored === null ? { lacks: { kind: 'transaction' as const, hash: String(prevHash), account: String(account), lt: BigInt(String(prevLt)) } } : {}),
    })),
  };
}

/**
 * Stored traces, inside the coverage of transactions, whose transaction count (the indexer's) differs
 * from the stored transactions that name them.
 */
export async function checkTraceTransactions(chain: StoredChain): Promise<CheckResult> {
  const within =
    `${rangeInside('r.start_lt', 'r.end_lt', chain.covered('transactions') ?? [])} ` +
    `AND (${inOnly(chain, 'traces', 'r.end_lt')} OR ${overlapsOnly(chain, 'transactions', 'r.start_lt', 'r.end_lt')})`;
  const rows = await all(
    chain.connection,
    `SELECT r.trace_id, r.tx_count, count(t.tx_hash), r.start_lt::VARCHAR, r.end_lt::VARCHAR FROM traces AS r LEFT JOIN transactions AS t ON t.trace_id = r.trace_id ` +
      `WHERE ${within} GROUP BY r.trace_id, r.tx_count, r.start_lt, r.end_lt HAVING count(t.tx_hash) <> r.tx_count ORDER BY r.end_lt LIMIT ${chain.limit}`,
  );
  return {
    check: 'trace-transactions',
    table: 'traces',
    checked: await count(chain.connection, `SELECT count(*) FROM traces AS r WHERE ${within}`),
    found: rows.map(([traceId, listed, stored, startLt, endLt]) => ({
      check: 'trace-transactions',
      table: 'transactions',
      detail: `trace ${String(traceId)} counts ${String(listed)} transactions, ${String(stored)} are stored`,
      refetch: { axis: 'lt', from: BigInt(String(startLt)), to: BigInt(String(endLt)) },
      lacks: { kind: 'trace-transactions', of: String(traceId), count: Number(listed) - Number(stored) },
    })),
  };
}

/** The table's rows to check (`StoredChain.only`) by their `clusterBy` `column`: true without `only`. */
function inOnly(chain: StoredChain, table: string, column: string): string {
  if (chain.only === undefined) return 'true';
  const range = chain.only.get(table);
  return range === undefined ? 'false' : `(${column} BETWEEN ${range.min} AND ${range.max})`;
}

/** [from, to] meets the table's rows to check (`StoredChain.only`): false without `only`, which `inOnly` covers. */
function overlapsOnly(chain: StoredChain, table: string, from: string, to: string): string {
  const range = chain.only?.get(table);
  return range === undefined ? 'false' : `(${from} <= ${range.max} AND ${to} >= ${range.min})`;
}

/** `column` lies in one of `ranges` (false without any). */
function inRanges(column: string, ranges: readonly Range[]): string {
  if (ranges.length === 0) return 'false';
  return `(${ranges.map((r) => `${column} BETWEEN ${r.from} AND ${r.to}`).join(' OR ')})`;
}

/** [from, to] lies inside one of `ranges`. */
function rangeInside(from: string, to: string, ranges: readonly Range[]): string {
  if (ranges.length === 0) return 'false';
  return `(${ranges.map((r) => `(${from} >= ${r.from} AND ${to} <= ${r.to})`).join(' OR ')})`;
}

async function all(connection: DuckDBConnection, sql: string): Promise<unknown[][]> {
  return (await connection.runAndReadAll(sql)).getRows();
}

async function count(connection: DuckDBConnection, sql: string): Promise<number> {
  return Number((await all(connection, sql))[0]?.[0] ?? 0);
}
