/**
 * `_etl_days` as any DuckDB runs it over hand-made rows and checkpoints, at the edges of the rule
 * (docs/design.md §4): a utime day is complete from its first second to its last inside one range;
 * an lt day needs a known point before it and one from the next midnight on in one range, which
 * the masterchain blocks give a sparse table; a checkpoint without coverage, an open item and an
 * unchecked range holding a row of the day each leave it partial; a covered day without rows is a 0.
 * Synced warehouses of both sinks: test/integration/etl-days.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { etlCheckpoints, etlMeta, writtenRangeKey } from '../../src/core/bookkeeping.js';
import { encodeCheckpoint } from '../../src/core/checkpoint/record.js';
import { Coverage, type Range } from '../../src/core/checkpoint/coverage.js';
import { createTableSql } from '../../src/core/ddl.js';
import { quotedIdentifier, quotedString } from '../../src/core/sql-quote.js';
import { BLOCK_DATE_COLUMN, type AnyTable } from '../../src/core/table.js';
import { utcDay } from '../../src/core/utc-day.js';
import { definitionsSql } from '../../src/core/warehouse-views.js';
import { jettonBurnsTable } from '../../src/streams/jetton-burns.js';
import { blocksTable } from '../../src/streams/blocks.js';
import { DAY_TABLES, etlDaysDefinitions } from '../../src/streams/etl-days.js';
import { streams } from '../../src/streams/index.js';
import { messagesTable, transactionsTable } from '../../src/streams/transactions.js';
import { validatorCyclesTable } from '../../src/streams/validator-cycles.js';
import { withDuckDB } from '../support/with-duckdb.js';

/** The first second of 2026-01-`n`, UTC. */
const day = (n: number): number => Date.UTC(2026, 0, n) / 1000;
const LAST_SECOND = 86_399;

/** A row at unix second `at` (its `dayOf` column, `block_date` its day) and position `lt` (its `clusterBy`); a block of the masterchain. */
interface Placed {
  readonly table: AnyTable;
  readonly at: number;
  readonly lt?: bigint;
}

const placed = (table: AnyTable, at: number, lt?: bigint): Placed => ({ table, at, lt });

function insertSql({ table, at, lt }: Placed): string {
  const values = new Map([[table.dayOf!, `to_timestamp(${at})`], [BLOCK_DATE_COLUMN, `DATE '${utcDay(at)}'`]]);
  if (lt !== undefined) values.set(table.clusterBy!, String(lt));
  if (table === blocksTable) values.set('workchain', '-1');
  return `INSERT INTO ${quotedIdentifier(table.name)} (${[...values.keys()].map(quotedIdentifier).join(', ')}) VALUES (${[...values.values()].join(', ')});`;
}

interface Warehouse {
  readonly tables: readonly AnyTable[];
  readonly rows?: readonly Placed[];
  /** Stream → its checkpoint row as stored. */
  readonly checkpoints?: Readonly<Record<string, string>>;
  /** Table → its unchecked range. */
  readonly unchecked?: Readonly<Record<string, Range>>;
}

const checkpoint = (covered: readonly Range[], open?: bigint): string =>
  encodeCheckpoint({ position: covered.at(-1)?.to ?? 0n, covered: new Coverage(covered), ...(open === undefined ? {} : { open }), scope: undefined });

/** `_etl_days` of the warehouse, a line per row: `table day rows complete|partial`. */
function etlDays(warehouse: Warehouse): Promise<string[]> {
  return withDuckDB(':memory:', {}, async (connection) => {
    const tables = [etlCheckpoints, etlMeta, ...warehouse.tables];
    for (const table of tables) await connection.run(createTableSql(table, { constraints: false }));
    for (const row of warehouse.rows ?? []) await connection.run(insertSql(row));
    for (const [stream, position] of Object.entries(warehouse.checkpoints ?? {})) {
      await connection.run(`INSERT INTO _etl_checkpoints (stream, position) VALUES (${quotedString(stream)}, ${quotedString(position)})`);
    }
    for (const [table, { from, to }] of Object.entries(warehouse.unchecked ?? {})) {
      await connection.run(`INSERT INTO _etl_meta VALUES (${quotedString(writtenRangeKey('unchecked', table))}, ${quotedString(JSON.stringify({ min: String(from), max: String(to) }))})`);
    }
    await connection.run(definitionsSql(etlDaysDefinitions, new Set(tables.map((table) => table.name))));
    // Not the session's time zone: a day is a UTC day wherever the notebook runs.
    await connection.run("SET TimeZone = 'America/Los_Angeles'");
    const rows = (await connection.runAndReadAll('SELECT table_name, block_date::VARCHAR, rows, complete FROM _etl_days')).getRowsJson();
    return rows.map(([table, date, count, complete]) => `${String(table)} ${String(date)} ${String(count)} ${complete === true ? 'complete' : 'partial'}`);
  });
}

describe('_etl_days of a utime stream', () => {
  it('a day is complete when one covered range holds it from 00:00:00 to 23:59:59; a covered day without rows is a 0; a day of rows outside the coverage is partial', async () => {
    const covered = [{ from: BigInt(day(1)), to: BigInt(day(2) + LAST_SECOND) }, { from: BigInt(day(3) + 1), to: BigInt(day(4) + 100) }];
    const rows = [day(1) + 10, day(3) + 50, day(4) + 50, day(6)].map((at, index) => placed(blocksTable, at, BigInt(index)));
    expect(await etlDays({ tables: [blocksTable], rows, checkpoints: { blocks: checkpoint(covered) } })).toEqual([
      'blocks 2026-01-01 1 complete',
      'blocks 2026-01-02 0 complete',
      'blocks 2026-01-03 1 partial',
      'blocks 2026-01-04 1 partial',
      'blocks 2026-01-06 1 partial',
    ]);
  });

  it('a day is partial from the stream\'s first open item on (its rows may still change), and every day of an earlier release\'s checkpoint is', async () => {
    const rows = [1, 2, 3, 4].map((n) => placed(validatorCyclesTable, day(n) + 100));
    const covered = [{ from: BigInt(day(1)), to: BigInt(day(4) + LAST_SECOND) }];
    expect(await etlDays({ tables: [validatorCyclesTable], rows, checkpoints: { validator_cycles: checkpoint(covered, BigInt(day(3) + 100)) } })).toEqual([
      'validator_cycles 2026-01-01 1 complete',
      'validator_cycles 2026-01-02 1 complete',
      'validator_cycles 2026-01-03 1 partial',
      'validator_cycles 2026-01-04 1 partial',
    ]);
    expect(await etlDays({ tables: [validatorCyclesTable], rows, checkpoints: { validator_cycles: `{"position":"${day(4)}"}` } })).toEqual(
      [1, 2, 3, 4].map((n) => `validator_cycles 2026-01-0${n} 1 partial`),
    );
  });
});

describe('_etl_days of an lt stream', () => {
  const transactions = [placed(transactionsTable, day(1) + 50, 100n), placed(transactionsTable, day(2) + 100, 300n), placed(transactionsTable, day(3) + 5, 400n)];
  const messages = transactions.map((row) => ({ ...row, table: messagesTable }));
  const burn = placed(jettonBurnsTable, day(2) + 200, 310n);
  // Masterchain blocks: one early on day 1, one at midnight of day 3 exactly.
  const blocks = [placed(blocksTable, day(1) + 60, 150n), placed(blocksTable, day(3), 350n)];
  const covered = [{ from: 100n, to: 400n }];
  const checkpoints = { transactions: checkpoint(covered), jetton_burns: checkpoint(covered), blocks: checkpoint([{ from: BigInt(day(1) + 60), to: BigInt(day(3)) }]) };

  it('a day is complete when one covered range holds a known point before its midnight and one from the next midnight on', async () => {
    const days = await etlDays({ tables: [transactionsTable, messagesTable], rows: [...transactions, ...messages], checkpoints });
    expect(days).toEqual(['messages 2026-01-01 1 partial', 'messages 2026-01-02 1 complete', 'messages 2026-01-03 1 partial', 'transactions 2026-01-01 1 partial', 'transactions 2026-01-02 1 complete', 'transactions 2026-01-03 1 partial']);
  });

  it('a sparse table\'s days are placed by the masterchain blocks where the warehouse stores them (a point at midnight counts for the day it starts), and by its own rows alone where not', async () => {
    const withBlocks = await etlDays({ tables: [jettonBurnsTable, blocksTable], rows: [burn, ...blocks], checkpoints });
    expect(withBlocks.filter((line) => line.startsWith('jetton_burns'))).toEqual(['jetton_burns 2026-01-01 0 partial', 'jetton_burns 2026-01-02 1 complete', 'jetton_burns 2026-01-03 0 partial']);
    expect(await etlDays({ tables: [jettonBurnsTable], rows: [burn], checkpoints })).toEqual(['jetton_burns 2026-01-02 1 partial']);
  });

  it('a day is partial while its table\'s unchecked range holds one of its rows, and only that table\'s', async () => {
    const tables = [transactionsTable, messagesTable];
    const rows = [...transactions, ...messages];
    const over = await etlDays({ tables, rows, checkpoints, unchecked: { transactions: { from: 300n, to: 300n } } });
    expect(over.filter((line) => line.includes('2026-01-02'))).toEqual(['messages 2026-01-02 1 complete', 'transactions 2026-01-02 1 partial']);
    const between = await etlDays({ tables, rows, checkpoints, unchecked: { transactions: { from: 301n, to: 399n } } });
    expect(between.filter((line) => line.includes('2026-01-02'))).toEqual(['messages 2026-01-02 1 complete', 'transactions 2026-01-02 1 complete']);
  });
});

describe('_etl_days, declared', () => {
  it('is defined, typed and empty in a warehouse without a table of a position stream', async () => {
    const columns = await withDuckDB(':memory:', {}, async (connection) => {
      for (const table of [etlCheckpoints, etlMeta]) await connection.run(createTableSql(table));
      await connection.run(definitionsSql(etlDaysDefinitions, new Set([etlCheckpoints.name, etlMeta.name])));
      expect((await connection.runAndReadAll('SELECT count(*) FROM _etl_days')).getRows()).toEqual([[0n]]);
      return (await connection.runAndReadAll('DESCRIBE _etl_days')).getRows().map(([name, type]) => `${String(name)} ${String(type)}`);
    });
    expect(columns).toEqual(['table_name VARCHAR', 'block_date DATE', 'rows BIGINT', 'complete BOOLEAN']);
  });

  it('lists every table with a block_date of a position stream; each lt stream\'s place rows by an lt column and a time', () => {
    expect(DAY_TABLES.map(({ table }) => table.name).sort()).toEqual(streams.flatMap((stream) => stream.tables).filter((table) => BLOCK_DATE_COLUMN in table.columns).map((table) => table.name).sort());
    for (const { table, stream } of DAY_TABLES.filter(({ stream }) => stream.axis === 'lt')) {
      expect([stream.name, table.columns[table.clusterBy!]?.kind, table.columns[table.dayOf!]?.kind]).toEqual([stream.name, 'logicalTime', 'timestamptz']);
    }
  });
});
