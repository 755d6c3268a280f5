/**
 * The floor of the DuckDB sink: what DuckDB itself charges to insert the rows of saved
 * /api/v3/transactions pages into the tables the ETL writes, however they are handed over. Every
 * variant writes a fresh file and ends with CHECKPOINT (what the sink's close pays); CPU-seconds
 * (process.cpuUsage: the whole process, DuckDB's threads included) per 100,000 transactions,
 * the variants alternated for `--repeat` rounds, the lowest of each.
 *   appender        the sink's appendRows, one transaction per page (the hand-over from JS); also with a thread per core
 *   memory, pages   INSERT … SELECT of each page's rows from an in-memory copy, one transaction per page
 *   memory, once    one INSERT … SELECT of all rows from the in-memory copy (no commit per page)
 *   parquet, once   one INSERT … SELECT from the rows as Parquet files
 *   read_json       bench/duckdb-loader.ts's statements, split: parsing the pages into temp tables, then the
 *                   inserts (under DuckDB's defaults, as the loader runs)
 * and "memory, pages" again under other DuckDB settings: `checkpoint_threshold`, `force_compression`,
 * `preserve_insertion_order`, `threads`. The base is the sink's (`checkpoint_threshold` 64MB, `threads`
 * 1; `memory_limit` 1GB here so the in-memory copy fits beside the target).
 *
 *   node .bench-build/bench/duckdb-floor.js --pages DIR --dir TMP [--repeat 2]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance, quotedIdentifier, quotedString, type DuckDBConnection } from '@duckdb/node-api';
import { parseItems } from '../src/api/wire.js';
import { parseJson } from '../src/core/exact-json.js';
import { createTableSql } from '../src/core/ddl.js';
import type { AnyTable, Row } from '../src/core/table.js';
import { appendRows } from '../src/load/engine/append.js';
import { addressesTable } from '../src/transform/address-book.js';
import { transactionsStream, type TransactionItem } from '../src/streams/transactions.js';
import { loadSql } from './duckdb-loader.js';
import { transactionPageRows } from './page-rows.js';

/** CPU-seconds per 100k transactions, the lowest of the rounds, by variant name. */
export interface DuckDBFloor {
  readonly transactions: number;
  readonly variants: Readonly<Record<string, number>>;
  /** read_json's own split: parsing the pages into temp tables, and inserting from them. */
  readonly readJson: { readonly parse: number; readonly insert: number };
}

const BASE: Readonly<Record<string, string>> = { checkpoint_threshold: '64MB', memory_limit: '1GB', threads: '1' };
/** DuckDB's default: a thread per core. */
const THREAD_PER_CORE = { threads: String(availableParallelism()) };

/** Settings tried on the "memory, pages" shape, each over BASE. */
const SETTINGS: readonly (readonly [string, Readonly<Record<string, string>>])[] = [
  ['checkpoint_threshold 16MB (DuckDB default)', { checkpoint_threshold: '16MB' }],
  ['checkpoint_threshold 1GB (checkpoint at close only)', { checkpoint_threshold: '1GB' }],
  ["force_compression 'uncompressed'", { force_compression: 'uncompressed' }],
  ['preserve_insertion_order false', { preserve_insertion_order: 'false' }],
  ['a thread per core (DuckDB default)', THREAD_PER_CORE],
];

interface Source {
  readonly tables: readonly AnyTable[];
  /** Per page, per table: the [start, end) rowids of its rows in the in-memory copy. */
  readonly pages: readonly Map<string, readonly [number, number]>[];
  readonly rows: readonly Map<string, Row[]>[];
  readonly parquetDir: string;
  readonly pagesGlob: string;
}

function cpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/** A fresh file with the tables, under `config`; `work` is timed, then CHECKPOINT, then close. */
async function timed(path: string, source: Source, config: Readonly<Record<string, string>>, prepare: (c: DuckDBConnection) => Promise<void>, work: (c: DuckDBConnection) => Promise<void>): Promise<number> {
  const instance = await DuckDBInstance.create(path, config);
  const connection = await instance.connect();
  try {
    for (const table of source.tables) await connection.run(createTableSql(table));
    await prepare(connection);
    const before = cpuSeconds();
    await work(connection);
    await connection.run('CHECKPOINT');
    return cpuSeconds() - before;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** The in-memory copy `src` of every table, loaded from the Parquet files (not timed). */
async function attachMemoryCopy(connection: DuckDBConnection, source: Source): Promise<void> {
  await connection.run("ATTACH ':memory:' AS src");
  for (const table of source.tables) {
    const file = quotedString(join(source.parquetDir, `${table.name}.parquet`));
    await connection.run(`CREATE TABLE src.${quotedIdentifier(table.name)} AS SELECT * FROM read_parquet(${file})`);
  }
}

async function inTransaction(connection: DuckDBConnection, work: () => Promise<void>): Promise<void> {
  await connection.run('BEGIN TRANSACTION');
  await work();
  await connection.run('COMMIT');
}

const none = async (): Promise<void> => undefined;

function variants(source: Source): Record<string, (path: string) => Promise<number>> {
  const byPages = (settings: Readonly<Record<string, string>>) => (path: string) =>
    timed(path, source, { ...BASE, ...settings }, (c) => attachMemoryCopy(c, source), async (c) => {
      for (const page of source.pages) {
        await inTransaction(c, async () => {
          for (const [table, [start, end]] of page) {
            await c.run(`INSERT INTO main.${quotedIdentifier(table)} SELECT * FROM src.${quotedIdentifier(table)} WHERE rowid >= ${start} AND rowid < ${end}`);
          }
        });
      }
    });
  const byAppender = (settings: Readonly<Record<string, string>>) => (path: string) =>
    timed(path, source, { ...BASE, ...settings }, none, async (c) => {
      for (const page of source.rows) await inTransaction(c, async () => {
        for (const table of source.tables) await appendRows(c, { name: table.name }, table, page.get(table.name) ?? []);
      });
    });
  const list: Record<string, (path: string) => Promise<number>> = {
    appender: byAppender({}),
    'appender, a thread per core': byAppender(THREAD_PER_CORE),
    'memory, pages': byPages({}),
    'memory, once': (path) =>
      timed(path, source, BASE, (c) => attachMemoryCopy(c, source), (c) =>
        inTransaction(c, async () => {
          for (const table of source.tables) await c.run(`INSERT INTO main.${quotedIdentifier(table.name)} SELECT * FROM src.${quotedIdentifier(table.name)}`);
        }),
      ),
    'parquet, once': (path) =>
      timed(path, source, BASE, none, (c) =>
        inTransaction(c, async () => {
          for (const table of source.tables) {
            const file = quotedString(join(source.parquetDir, `${table.name}.parquet`));
            await c.run(`INSERT INTO main.${quotedIdentifier(table.name)} SELECT * FROM read_parquet(${file})`);
          }
        }),
      ),
  };
  for (const [name, settings] of SETTINGS) list[`memory, pages, ${name}`] = byPages(settings);
  return list;
}

/** read_json as the loader runs it, its parse (pages → temp tables) and insert statements timed apart. */
async function readJsonSplit(path: string, source: Source): Promise<{ parse: number; insert: number }> {
  const [pages, tx, ...inserts] = loadSql(source.pagesGlob);
  let parse = 0;
  const insert = await timed(path, source, {}, none, async (c) => {
    const before = cpuSeconds();
    await c.run(pages!);
    await c.run(tx!);
    parse = cpuSeconds() - before;
    await inTransaction(c, async () => {
      for (const sql of inserts) await c.run(sql);
    });
  });
  return { parse, insert: insert - parse };
}

/** The pages' rows, in one file (rowids in page order) written out as one Parquet file per table. */
async function prepareSource(pagesDir: string, dir: string): Promise<Source & { transactions: number }> {
  const files = readdirSync(pagesDir).filter((name) => /^page-\d+\.json$/.test(name)).sort();
  const tables: AnyTable[] = [...transactionsStream.tables, addressesTable];
  let transactions = 0;
  const rows = files.map((name) => {
    const body = parseJson(readFileSync(join(pagesDir, name), 'utf8')) as { transactions: unknown[]; address_book: unknown };
    const items = parseItems(transactionsStream.item, body.transactions).ok as TransactionItem[];
    transactions += items.length;
    return transactionPageRows(items, body.address_book);
  });
  const counts = new Map<string, number>();
  const pages = rows.map((page) => {
    const ranges = new Map<string, readonly [number, number]>();
    for (const table of tables) {
      const start = counts.get(table.name) ?? 0;
      const end = start + (page.get(table.name)?.length ?? 0);
      counts.set(table.name, end);
      if (end > start) ranges.set(table.name, [start, end]);
    }
    return ranges;
  });
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    for (const table of tables) {
      await connection.run(createTableSql(table));
      await appendRows(connection, { name: table.name }, table, rows.flatMap((page) => page.get(table.name) ?? []));
      await connection.run(`COPY ${quotedIdentifier(table.name)} TO ${quotedString(join(dir, `${table.name}.parquet`))} (FORMAT parquet)`);
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  return { tables, pages, rows, parquetDir: dir, pagesGlob: join(pagesDir, 'page-*.json'), transactions };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { pages: { type: 'string' }, dir: { type: 'string' }, repeat: { type: 'string', default: '2' } } });
  const source = await prepareSource(values.pages!, values.dir!);
  const per100k = (seconds: number): number => Math.round((seconds / source.transactions) * 100_000 * 100) / 100;
  const lowest = new Map<string, number>();
  const keep = (name: string, seconds: number): void => void lowest.set(name, Math.min(lowest.get(name) ?? Infinity, per100k(seconds)));
  let file = 0;
  for (let round = 0; round < Number(values.repeat); round++) {
    for (const [name, run] of Object.entries(variants(source))) keep(name, await run(join(values.dir!, `floor-${++file}.duckdb`)));
    const split = await readJsonSplit(join(values.dir!, `floor-${++file}.duckdb`), source);
    keep('read_json parse', split.parse);
    keep('read_json insert', split.insert);
  }
  const { ['read_json parse']: parse, ['read_json insert']: insert, ...rest } = Object.fromEntries(lowest);
  console.log(JSON.stringify({ transactions: source.transactions, variants: rest, readJson: { parse: parse!, insert: insert! } } satisfies DuckDBFloor));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
