/**
 * What the end of a cron run costs as the warehouse grows: the sweep of moved keys and the checks of
 * what the run committed (src/verify/committed-checks.ts), each over one page committed on top of a
 * DuckDB warehouse of --transactions transactions (saved pages of a bench devnet, as
 * warehouse-growth.ts saves them). The history is committed with a covered checkpoint and marked
 * checked first, so the figures are those of a run that wrote one page: the sweep's and the link
 * check's cost follow the table, the rest the page. Wall and process CPU seconds each.
 *
 *   node .bench-build/bench/run-end.js --pages DIR --db FILE [--transactions 500000]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseItems } from '../src/api/wire.js';
import { encodeCheckpoint } from '../src/core/checkpoint/record.js';
import { Coverage } from '../src/core/checkpoint/coverage.js';
import type { AnyTable } from '../src/core/table.js';
import { DuckDBSink } from '../src/load/duckdb/sink.js';
import { addressesTable } from '../src/transform/address-book.js';
import { transactionsStream, type TransactionItem } from '../src/streams/transactions.js';
import { checkCommitted } from '../src/verify/committed-checks.js';
import { log, round } from './harness.js';
import { transactionPageRows } from './page-rows.js';
import { ensurePages, pageFiles } from './warehouse-growth.js';

interface Step {
  readonly wallSeconds: number;
  readonly cpuSeconds: number;
}

async function timed(work: () => Promise<unknown>): Promise<Step> {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { wallSeconds: round((performance.now() - wall) / 1000, 3), cpuSeconds: round((used.user + used.system) / 1e6, 3) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { pages: { type: 'string' }, db: { type: 'string' }, transactions: { type: 'string' } } });
  const dir = values.pages!;
  await ensurePages(dir, Number(values.transactions ?? 500_000));
  const sink = new DuckDBSink({ path: values.db! });
  await sink.open([...transactionsStream.tables, addressesTable] as AnyTable[]);
  const files = pageFiles(dir);
  let first: bigint | undefined;
  let transactions = 0;
  const commit = async (name: string): Promise<void> => {
    const body = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { transactions: unknown[]; address_book: unknown };
    const items = parseItems(transactionsStream.item, body.transactions).ok as TransactionItem[];
    first ??= items[0]!.lt;
    const last = items.at(-1)!.lt;
    transactions += items.length;
    const checkpoint = encodeCheckpoint({ position: last, covered: new Coverage([{ from: first, to: last }]), scope: undefined });
    await sink.commitAll([{ stream: 'transactions', rows: transactionPageRows(items, body.address_book), checkpoint }]);
  };
  try {
    for (const name of files.slice(0, -1)) await commit(name);
    await sink.sweepMovedKeys();
    await sink.markChecked();
    log(`run end: ${transactions} transactions stored; one more page, then the run's end`);
    const page = await timed(() => commit(files.at(-1)!));
    const sweep = await timed(() => sink.sweepMovedKeys());
    let checked: Record<string, number> = {};
    let found = -1;
    const checks = await timed(async () => {
      const report = await checkCommitted(sink, [{ stream: transactionsStream, filters: {} }]);
      checked = Object.fromEntries(report.checks.map((check) => [check.check, check.checked]));
      found = report.checks.reduce((sum, check) => sum + check.found.length, 0);
    });
    const mark = await timed(() => sink.markChecked());
    console.log(JSON.stringify({ transactions, page, sweep, checks, checked, found, markChecked: mark }));
  } finally {
    await sink.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
