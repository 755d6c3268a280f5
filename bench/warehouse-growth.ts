/**
 * How the DuckDB sink's commit cost moves as the warehouse grows: saved /api/v3/transactions pages
 * (fetched once from a bench devnet into --pages when that folder holds none) are committed one by
 * one into a new warehouse, as stage-costs.ts does, and the commit's CPU (whole process, DuckDB's
 * threads included) and wall time are reported per window of --window transactions. With
 * --interleave K the pages are split into K consecutive runs committed in turn, one page of each,
 * as K concurrent windows of the CLI commit them (so lt ranges mix inside DuckDB's row groups).
 *
 *   node .bench-build/bench/warehouse-growth.js --pages DIR --db FILE [--transactions 500000] [--window 50000] [--interleave 1]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseItems } from '../src/api/wire.js';
import { transactionsStream, type TransactionItem } from '../src/streams/transactions.js';
import { addressesTable } from '../src/transform/address-book.js';
import { DuckDBSink } from '../src/load/duckdb/sink.js';
import { transactionPageRows } from './page-rows.js';
import type { AnyTable } from '../src/core/table.js';
import { DevnetProcess, log, round } from './harness.js';
import { savePages } from './local-cost.js';

export interface GrowthWindow {
  /** Transactions in the warehouse at the end of the window. */
  readonly upTo: number;
  /** Commit CPU-seconds per 100,000 transactions. */
  readonly per100k: number;
  /** Mean wall milliseconds per commit (one page). */
  readonly msPerPage: number;
}

function cpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

export function pageFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((name) => /^page-\d+\.json$/.test(name)).sort() : [];
}

/** `files` split into `runs` consecutive runs, taken one file of each run in turn. */
function interleaved(files: readonly string[], runs: number): string[] {
  const length = Math.ceil(files.length / runs);
  const order: string[] = [];
  for (let step = 0; step < length; step++) {
    for (let run = 0; run < runs; run++) {
      const file = files[run * length + step];
      if (file !== undefined) order.push(file);
    }
  }
  return order;
}

/** Saves pages of about `transactions` transactions into `dir` from a bench devnet, unless it holds some. */
export async function ensurePages(dir: string, transactions: number): Promise<void> {
  if (pageFiles(dir).length > 0) return;
  const devnet = await DevnetProcess.start(Math.ceil(transactions / 22) + 200);
  try {
    const { url } = await devnet.serve(1_000_000, 0);
    const range = await devnet.range(1, transactions);
    const saved = await savePages(url, BigInt(range.fromLt), BigInt(range.toLt) - 1n, dir);
    log(`warehouse growth: saved ${saved.pages} pages of ${range.transactions} transactions`);
  } finally {
    await devnet.stop();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string' },
      db: { type: 'string' },
      transactions: { type: 'string' },
      window: { type: 'string' },
      interleave: { type: 'string' },
    },
  });
  const dir = values.pages!;
  const windowSize = Number(values.window ?? 50_000);
  await ensurePages(dir, Number(values.transactions ?? 500_000));
  const tables = [...transactionsStream.tables, addressesTable] as AnyTable[];
  const sink = new DuckDBSink({ path: values.db! });
  await sink.open(tables);
  const windows: GrowthWindow[] = [];
  let transactions = 0;
  let window = { transactions: 0, cpu: 0, wallMs: 0, pages: 0 };
  let page = 0;
  for (const name of interleaved(pageFiles(dir), Number(values.interleave ?? 1))) {
    const body = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { transactions: unknown[]; address_book: unknown };
    const items = parseItems(transactionsStream.item, body.transactions).ok as TransactionItem[];
    const rows = transactionPageRows(items, body.address_book);
    const cpuBefore = cpuSeconds();
    const wallBefore = performance.now();
    await sink.commitAll([{ stream: 'transactions', rows, checkpoint: JSON.stringify({ position: String(++page) }) }]);
    window.wallMs += performance.now() - wallBefore;
    window.cpu += cpuSeconds() - cpuBefore;
    window.pages++;
    window.transactions += items.length;
    transactions += items.length;
    if (window.transactions >= windowSize) {
      const done = { upTo: transactions, per100k: round((window.cpu / window.transactions) * 100_000, 1), msPerPage: round(window.wallMs / window.pages, 0) };
      windows.push(done);
      log(`warehouse growth: ${JSON.stringify(done)}`);
      window = { transactions: 0, cpu: 0, wallMs: 0, pages: 0 };
    }
  }
  const beforeClose = cpuSeconds();
  const wallClose = performance.now();
  await sink.close();
  const close = { cpuSeconds: round(cpuSeconds() - beforeClose, 2), wallSeconds: round((performance.now() - wallClose) / 1000, 2) };
  const peakRssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
  console.log(JSON.stringify({ transactions, windows, close, peakRssMiB }));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
