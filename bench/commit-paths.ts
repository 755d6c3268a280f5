/**
 * The DuckDB write path alone, two ways over the same rows in one process, alternated and repeated
 * (on a shared machine only same-run ratios mean something): the rows of saved /api/v3/transactions
 * pages appended by the sink's `appendRows` (one appender call per value) and as data chunks of
 * column vectors (2048 rows each, node-api's vector classes: one call per chunk and per text value),
 * the direction issue 13 proposed. CPU-seconds (process.cpuUsage, DuckDB's threads included) per
 * 100,000 transactions, appends and COMMIT.
 *
 *   node .bench-build/bench/commit-paths.js --pages DIR --dir TMP [--repeat 3]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBDataChunk, DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { parseItems } from '../src/api/wire.js';
import { parseJson } from '../src/core/exact-json.js';
import { createTableSql } from '../src/core/ddl.js';
import type { AnyTable, Row } from '../src/core/table.js';
import { appendRows } from '../src/load/engine/append.js';
import { addressesTable } from '../src/transform/address-book.js';
import { transactionsStream, type TransactionItem } from '../src/streams/transactions.js';
import { transactionPageRows } from './page-rows.js';
import { vectorItemOf } from './vector-items.js';

export interface CommitPaths {
  readonly transactions: number;
  /** CPU-seconds per 100k transactions of each run, in run order. */
  readonly perValue: readonly number[];
  readonly chunks: readonly number[];
}

type Append = (connection: DuckDBConnection, table: AnyTable, rows: readonly Row[]) => Promise<void>;

const perValue: Append = (connection, table, rows) => appendRows(connection, { name: table.name }, table, rows);

/** DuckDB's vector size: the most rows a data chunk holds. */
const CHUNK_ROWS = 2048;

/** Column by column into data chunks: values set into vectors in JS, one appendDataChunk per 2048 rows. */
const chunks: Append = async (connection, table, rows) => {
  const appender = await connection.createAppender(table.name);
  const columns = table.columnNames.map((name) => ({ name, item: vectorItemOf(table.columns[name]!) }));
  const types = columns.map((_column, index) => appender.columnType(index));
  for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
    const count = Math.min(CHUNK_ROWS, rows.length - start);
    const chunk = DuckDBDataChunk.create(types, count);
    columns.forEach(({ name, item }, index) => {
      const vector = chunk.getColumnVector(index);
      for (let row = 0; row < count; row++) vector.setItem(row, item(rows[start + row]![name]));
      vector.flush();
    });
    appender.appendDataChunk(chunk);
  }
  appender.closeSync();
};

function cpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

async function commitAll(path: string, tables: readonly AnyTable[], pages: readonly Map<string, Row[]>[], append: Append): Promise<number> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    for (const table of tables) await connection.run(createTableSql(table));
    const before = cpuSeconds();
    for (const page of pages) {
      await connection.run('BEGIN TRANSACTION');
      for (const table of tables) await append(connection, table, page.get(table.name) ?? []);
      await connection.run('COMMIT');
    }
    return cpuSeconds() - before;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { pages: { type: 'string' }, dir: { type: 'string' }, repeat: { type: 'string', default: '3' } } });
  const files = readdirSync(values.pages!).filter((name) => /^page-\d+\.json$/.test(name)).sort();
  const tables: AnyTable[] = [...transactionsStream.tables, addressesTable];
  let transactions = 0;
  const pages = files.map((name) => {
    const body = parseJson(readFileSync(join(values.pages!, name), 'utf8')) as { transactions: unknown[]; address_book: unknown };
    const items = parseItems(transactionsStream.item, body.transactions).ok as TransactionItem[];
    transactions += items.length;
    return transactionPageRows(items, body.address_book);
  });
  const per100k = (seconds: number): number => Math.round((seconds / transactions) * 100_000 * 100) / 100;
  const result = { transactions, perValue: [] as number[], chunks: [] as number[] };
  for (let run = 0; run < Number(values.repeat); run++) {
    result.perValue.push(per100k(await commitAll(join(values.dir!, `per-value-${run}.duckdb`), tables, pages, perValue)));
    result.chunks.push(per100k(await commitAll(join(values.dir!, `chunks-${run}.duckdb`), tables, pages, chunks)));
  }
  console.log(JSON.stringify(result satisfies CommitPaths));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
