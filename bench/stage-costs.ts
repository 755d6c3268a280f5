/**
 * Where the ETL's CPU per transaction goes, stage by stage, on saved /api/v3/transactions pages
 * (benchmark 3 saves them): the same functions the CLI runs, called one stage at a time over every
 * page, each stage timed with process.cpuUsage() (the whole process, DuckDB's threads included).
 *   parse     read the file, parseJson (JSON.parse plus the exact-number scan, as the client does)
 *   validate  parseItems: the item schema's compiled reader (zod for the items it leaves undecided)
 *   toRows    transactions + messages rows, and address-book rows
 *   check     tableChange: every value checked against its column kind again, dedup by key
 *   commit    DuckDBSink.commit per page (which runs the check again, then appenders, delete + insert, COMMIT)
 *   close     closing DuckDB (checkpoint of the WAL into the file)
 * No HTTP, no concurrency, no devnet.
 *
 *   node .bench-build/bench/stage-costs.js --pages DIR --db FILE
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseItems } from '../src/api/wire.js';
import { parseJson } from '../src/core/exact-json.js';
import { transactionsStream, type TransactionItem } from '../src/streams/transactions.js';
import { addressesTable } from '../src/transform/address-book.js';
import { DuckDBSink } from '../src/load/duckdb/sink.js';
import { transactionPageRows } from './page-rows.js';
import { tableChange } from '../src/load/commit-plan.js';
import type { AnyTable } from '../src/core/table.js';

export interface StageCosts {
  readonly transactions: number;
  /** CPU-seconds per 100,000 transactions, per stage. */
  readonly per100k: Readonly<Record<'parse' | 'validate' | 'toRows' | 'check' | 'commit' | 'close', number>>;
}

function cpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { pages: { type: 'string' }, db: { type: 'string' } } });
  const dir = values.pages!;
  const files = readdirSync(dir).filter((name) => /^page-\d+\.json$/.test(name)).sort();
  const spent = { parse: 0, validate: 0, toRows: 0, check: 0, commit: 0, close: 0 };
  const time = <T>(stage: keyof typeof spent, work: () => T): T => {
    const before = cpuSeconds();
    const result = work();
    spent[stage] += cpuSeconds() - before;
    return result;
  };
  const tables = new Map<string, AnyTable>([...transactionsStream.tables, addressesTable].map((table) => [table.name, table as AnyTable]));
  const sink = new DuckDBSink({ path: values.db! });
  await sink.open([...tables.values()]);
  let transactions = 0;
  let page = 0;
  // Page by page, as the CLI does, so the heap holds about one page (GC is charged to the stage that triggers it).
  for (const name of files) {
    const body = time('parse', () => parseJson(readFileSync(join(dir, name), 'utf8')) as { transactions: unknown[]; address_book: unknown });
    const items = time('validate', () => parseItems(transactionsStream.item, body.transactions).ok as TransactionItem[]);
    transactions += items.length;
    const batch = time('toRows', () => transactionPageRows(items, body.address_book));
    time('check', () => {
      for (const [table, rows] of batch) tableChange(tables.get(table)!, rows);
    });
    const before = cpuSeconds();
    await sink.commitAll([{ stream: 'transactions', rows: batch, checkpoint: JSON.stringify({ position: String(++page) }) }]);
    spent.commit += cpuSeconds() - before;
  }
  const beforeClose = cpuSeconds();
  await sink.close();
  spent.close += cpuSeconds() - beforeClose;
  const per100k = Object.fromEntries(Object.entries(spent).map(([stage, seconds]) => [stage, Math.round((seconds / transactions) * 100_000 * 100) / 100]));
  console.log(JSON.stringify({ transactions, per100k } as StageCosts));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
