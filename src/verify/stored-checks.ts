/**
 * What `chain-etl verify` checks in a stored warehouse, against facts the chain states itself, inside
 * what each stream's checkpoint says it covers: no key stored twice; every masterchain seqno between
 * two stored ones stored; each stored block's `tx_count` equal to its stored transactions; each
 * stored transaction's `prev_tx_hash`/`prev_tx_lt` naming the account's stored previous one. Reads
 * only; each inconsistency comes with the range of the stream's positions to fetch again.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Range } from '../core/coverage.js';
import { quotedIdentifier } from '../core/sql-quote.js';
import type { PositionAxis } from '../core/stream.js';
import type { AnyTable } from '../core/table.js';

export type CheckName = 'keys' | 'masterchain-seqnos' | 'block-transactions' | 'transaction-links';

/** One fact of the chain the warehouse contradicts, and the positions whose fetch mends it. */
export interface Inconsistency {
  readonly check: CheckName;
  readonly table: string;
  /** What is wrong, one line. */
  readonly detail: string;
  /** The positions of `axis` to read again (inclusive), when a range mends it. */
  readonly refetch: { readonly axis: PositionAxis; readonly from: bigint; readonly to: bigint } | undefined;
}

/** A check that ran: how many stored items it looked at. */
export interface CheckRun {
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
}

/**
 * Rows of `table` sharing a primary key, anywhere in it. The positions to read again are known where
 * the table's `clusterBy` column is its stream's position (the lt streams).
 */
export async function checkKeys(chain: StoredChain, stream: { readonly name: string; readonly axis?: PositionAxis }, table: AnyTable): Promise<CheckRun> {
  const key = table.primaryKey.map(quotedIdentifier).join(', ');
  const cluster = table.clusterBy === undefined || stream.axis !== 'lt' ? undefined : quotedIdentifier(table.clusterBy);
  const rows = await all(
    chain.connection,
    `SELECT concat_ws(', ', ${table.primaryKey.map((c) => `${quotedIdentifier(c)}::VARCHAR`).join(', ')}) AS key, count(*) AS n, ` +
      `${cluster === undefined ? 'NULL, NULL' : `min(${cluster})::VARCHAR, max(${cluster})::VARCHAR`} ` +
      `FROM ${quotedIdentifier(table.name)} GROUP BY ${key} HAVING count(*) > 1 ORDER BY 1 LIMIT ${LISTED_PER_CHECK}`,
  );
  const checked = await count(chain.connection, `SELECT count(*) FROM ${quotedIdentifier(table.name)}`);
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

/** Masterchain seqnos missing between two stored masterchain blocks of a covered range. */
export async function checkMasterchainSeqnos(chain: StoredChain): Promise<CheckRun> {
  const where = `workchain = -1 AND ${inRanges('epoch(block_time)', chain.covered('blocks') ?? [])}`;
  const rows = await all(
    chain.connection,
    `SELECT seqno, next, epoch(block_time)::BIGINT::VARCHAR, next_time::BIGINT::VARCHAR FROM (SELECT seqno, block_time, lead(seqno) OVER w AS next, epoch(lead(block_time) OVER w) AS next_time ` +
      `FROM blocks WHERE ${where} WINDOW w AS (ORDER BY seqno)) WHERE next > seqno + 1 ORDER BY seqno LIMIT ${LISTED_PER_CHECK}`,
  );
  return {
    check: 'masterchain-seqnos',
    table: 'blocks',
    checked: await count(chain.connection, `SELECT count(*) FROM blocks WHERE ${where}`),
    found: rows.map(([seqno, next, time, nextTime]) => ({
      check: 'masterchain-seqnos',
      table: 'blocks',
      detail: `masterchain blocks ${Number(seqno) + 1}…${Number(next) - 1} are missing between stored blocks ${String(seqno)} and ${String(next)}`,
      refetch: { axis: 'utime', from: BigInt(String(time)), to: BigInt(String(nextTime)) },
    })),
  };
}

/** Stored blocks, inside the coverage of both streams, whose `tx_count` differs from their stored transactions. */
export async function checkBlockTransactions(chain: StoredChain): Promise<CheckRun> {
  const txRanges = chain.covered('transactions') ?? [];
  const within = `b.tx_count IS NOT NULL AND ${inRanges('epoch(b.block_time)', chain.covered('blocks') ?? [])} AND ${rangeInside('b.start_lt', 'b.end_lt', txRanges)}`;
  const rows = await all(
    chain.connection,
    `SELECT b.workchain, b.shard, b.seqno, b.tx_count, count(t.tx_hash) AS stored, b.start_lt::VARCHAR, b.end_lt::VARCHAR FROM blocks AS b ` +
      `LEFT JOIN transactions AS t ON t.block_workchain = b.workchain AND t.block_shard = b.shard AND t.block_seqno = b.seqno ` +
      `WHERE ${within} GROUP BY b.workchain, b.shard, b.seqno, b.tx_count, b.start_lt, b.end_lt HAVING count(t.tx_hash) <> b.tx_count ORDER BY b.start_lt LIMIT ${LISTED_PER_CHECK}`,
  );
  return {
    check: 'block-transactions',
    table: 'blocks',
    checked: await count(chain.connection, `SELECT count(*) FROM blocks AS b WHERE ${within}`),
    found: rows.map(([workchain, shard, seqno, listed, stored, startLt, endLt]) => ({
      check: 'block-transactions',
      table: 'transactions',
      detail: `block ${String(workchain)}:${String(shard)}:${String(seqno)} lists ${String(listed)} transactions, ${String(stored)} are stored`,
      refetch: { axis: 'lt', from: BigInt(String(startLt)), to: BigInt(String(endLt)) },
    })),
  };
}

/** Stored transactions whose previous transaction lies in a covered range but is not stored as they name it. */
export async function checkTransactionLinks(chain: StoredChain): Promise<CheckRun> {
  const ranges = chain.covered('transactions') ?? [];
  const within = `t.prev_tx_lt > 0 AND ${inRanges('t.tx_lt', ranges)} AND ${inRanges('t.prev_tx_lt', ranges)}`;
  const rows = await all(
    chain.connection,
    `SELECT t.account, t.tx_lt::VARCHAR, t.prev_tx_lt::VARCHAR, t.prev_tx_hash, p.tx_hash FROM transactions AS t ` +
      `LEFT JOIN transactions AS p ON p.account = t.account AND p.tx_lt = t.prev_tx_lt ` +
      `WHERE ${within} AND p.tx_hash IS DISTINCT FROM t.prev_tx_hash ORDER BY t.tx_lt LIMIT ${LISTED_PER_CHECK}`,
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
    })),
  };
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
