/**
 * Items a run could not turn into rows are kept in `_etl_rejects`, and `status` counts them: the
 * warehouse lacks them on purpose. So a check's finding is no inconsistency when rejected items are
 * exactly what the warehouse lacks there: the transaction a link names, or as many of a block's or a
 * trace's transactions as it misses, or the masterchain blocks of a seqno gap. Each reject's item is
 * read from its raw text as received (a text that does not parse accounts for nothing); a rejected
 * transaction is known by its hash, or by its account and lt where its hash is what was wrong.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { etlRejects } from '../core/bookkeeping.js';
import { quotedIdentifier } from '../core/sql-quote.js';
import type { Inconsistency } from './stored-checks.js';

/** What the rejected items of the streams the checks look at are. */
export interface RejectedItems {
  /** Rejected transactions' hashes, and their `account@lt`. */
  readonly transactions: ReadonlySet<string>;
  /** Rejected transactions per block (`workchain:shard:seqno`) and per trace id. */
  readonly perBlock: ReadonlyMap<string, number>;
  readonly perTrace: ReadonlyMap<string, number>;
  readonly masterchainBlocks: ReadonlySet<number>;
  /** Rejected items in all. */
  readonly count: number;
}

export const NO_REJECTS: RejectedItems = { transactions: new Set(), perBlock: new Map(), perTrace: new Map(), masterchainBlocks: new Set(), count: 0 };

export async function readRejectedItems(connection: DuckDBConnection): Promise<RejectedItems> {
  const reader = await connection.runAndReadAll(`SELECT stream, raw FROM ${quotedIdentifier(etlRejects.name)} WHERE stream IN ('transactions', 'blocks')`);
  const transactions = new Set<string>();
  const perBlock = new Map<string, number>();
  const perTrace = new Map<string, number>();
  const masterchainBlocks = new Set<number>();
  const add = (counts: Map<string, number>, key: string): void => void counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const [stream, raw] of reader.getRows()) {
    const item = parsed(String(raw));
    if (item === undefined) continue;
    if (stream === 'blocks') {
      if (item['workchain'] === -1 && typeof item['seqno'] === 'number') masterchainBlocks.add(item['seqno']);
      continue;
    }
    const place = placeOf(item['account'], item['lt']);
    const keys = [...(typeof item['hash'] === 'string' ? [item['hash']] : []), ...(place === undefined ? [] : [place])];
    if (keys.length === 0 || keys.some((key) => transactions.has(key))) continue;
    for (const key of keys) transactions.add(key);
    const block = item['block_ref'] as Record<string, unknown> | null | undefined;
    if (block !== null && typeof block === 'object') add(perBlock, `${String(block['workchain'])}:${String(block['shard'])}:${String(block['seqno'])}`);
    if (typeof item['trace_id'] === 'string') add(perTrace, item['trace_id']);
  }
  return { transactions, perBlock, perTrace, masterchainBlocks, count: reader.currentRowCount };
}

/** Whether rejected items are exactly what the warehouse lacks where `found` says it lacks something. */
export function accountedFor(found: Inconsistency, rejected: RejectedItems): boolean {
  const lacks = found.lacks;
  if (lacks === undefined) return false;
  switch (lacks.kind) {
    case 'transaction':
      return rejected.transactions.has(lacks.hash) || rejected.transactions.has(placeOf(lacks.account, String(lacks.lt))!);
    case 'block-transactions':
      return lacks.count > 0 && rejected.perBlock.get(lacks.of) === lacks.count;
    case 'trace-transactions':
      return lacks.count > 0 && rejected.perTrace.get(lacks.of) === lacks.count;
    case 'masterchain-blocks':
      return lacks.seqnos.every((seqno) => rejected.masterchainBlocks.has(seqno));
  }
}

/** `ACCOUNT@lt` of a transaction's account and lt as the API or the warehouse spells them; undefined unless both are there (a broken lt places nothing). */
function placeOf(account: unknown, lt: unknown): string | undefined {
  if (typeof account !== 'string' || (typeof lt !== 'string' && typeof lt !== 'number') || !/^\d+$/.test(String(lt))) return undefined;
  return `${account.toUpperCase()}@${String(lt)}`;
}

function parsed(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
