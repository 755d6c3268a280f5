/**
 * `_etl_days` on warehouses synced from a devnet that spans four UTC days with few blocks (it halts
 * from its first minutes of 2026-01-01 until 23:58 on 2026-01-03, then runs past midnight), both
 * sinks: the view equals the rule of docs/design.md §4 applied here to the chain's own rows and the
 * stored coverage (the first and last day partial, a covered day without rows a complete 0, a day
 * with rows complete), in the DuckDB file, in `views.sql` run by a plain DuckDB, and through
 * `chain-etl query … WHERE complete`; the report draws the partial days apart; a row deleted leaves
 * its day complete (finding it is verify's job), an unchecked range over a row of a day makes the day
 * partial.
 * The rule at its edges over hand-made rows: test/streams/etl-days.test.ts.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writtenRangeKey } from '../../src/core/bookkeeping.js';
import type { Range } from '../../src/core/checkpoint/coverage.js';
import type { StreamDefinition } from '../../src/core/stream.js';
import { DuckDBSink } from '../../src/load/duckdb/sink.js';
import { readManifest, writeManifest } from '../../src/load/parquet/manifest.js';
import { ParquetSink } from '../../src/load/parquet/sink.js';
import { VIEWS_FILE } from '../../src/load/parquet/views.js';
import { withReadOnlyWarehouse } from '../../src/load/read-only-warehouse.js';
import type { Sink } from '../../src/load/sink.js';
import { blocksStream } from '../../src/streams/blocks.js';
import { streamByName } from '../../src/streams/index.js';
import { transactionsStream, transactionsTable } from '../../src/streams/transactions.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult } from '../support/cli-result.js';
import { expectedStreamRows, syncedBounds } from '../support/expected-rows.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { readWarehouse, type Snapshot } from '../support/warehouse-snapshot.js';
import { withDuckDB } from '../support/with-duckdb.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';

/** A utime stream (blocks), a dense and a sparse lt stream, and a utime stream whose table clusters by lt. */
const STREAMS = ['blocks', 'transactions', 'jetton_burns', 'validator_events'];
/** 20 blocks from 2026-01-01 00:00:00, then none until 23:58 on 2026-01-03, then 50 more (150 to 300 s): past midnight. */
const STALL = { step: 20, until: Date.UTC(2026, 0, 3, 23, 58) / 1000 };
const DAY_SECONDS = 86_400;
const KINDS = ['duckdb', 'parquet'] as const;
const SELECT = 'SELECT table_name, block_date::VARCHAR AS day, rows, complete FROM _etl_days';

let devnet: TestDevnet;
let work: Workspace;
const pipelines = {} as Record<SinkKind, string>;

beforeAll(async () => {
  [devnet, work] = await Promise.all([startTestDevnet({ seed: 4242, blocks: 70, stall: STALL }), makeWorkspace('etl-days')]);
  for (const kind of KINDS) {
    pipelines[kind] = await work.pipeline({ url: devnet.url, kind, sinkPath: work.sinkPath(kind), streams: STREAMS });
    const synced = await runCliInProcess(['sync', pipelines[kind]]);
    expect(synced.code, describeResult(synced)).toBe(0);
  }
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

/** A row of `_etl_days` as a line: `table day rows complete|partial`. */
const line = (table: unknown, day: unknown, rows: unknown, complete: boolean): string => `${String(table)} ${String(day)} ${String(rows)} ${complete ? 'complete' : 'partial'}`;
const lines = (rows: readonly unknown[][]): string[] => rows.map(([table, day, count, complete]) => line(table, day, count, complete === true || complete === 'true'));

/** Unix seconds held whole by a covered range, and the span it reaches (the days it touches). */
interface Span {
  readonly seen: readonly [number, number];
  readonly whole: readonly [number, number];
}

/**
 * `_etl_days` by the rule, from the chain's truth and the stored coverage: each table's rows per
 * day; per covered range of a utime stream its own bounds, of an lt stream the known points (lt,
 * time) inside it (the stream's rows and the stored masterchain blocks), whole strictly between
 * the earliest and the latest; a day complete where one range holds it whole.
 */
function expectedDays(snapshot: Snapshot): string[] {
  const boundsOf = syncedBounds(devnet, snapshot);
  const truth = new Map(STREAMS.map((name) => [name, expectedStreamRows(devnet, streamByName(name) as StreamDefinition, boundsOf(streamByName(name) as StreamDefinition))]));
  const masterchain = truth.get(blocksStream.name)!.get('blocks')!.filter((block) => block['workchain'] === -1).map((block) => [block['start_lt'] as bigint, block['block_time'] as number] as const);
  const out: [string, string, number, boolean][] = [];
  for (const name of STREAMS) {
    const stream = streamByName(name) as StreamDefinition;
    const rows = truth.get(name)!;
    const points = [...stream.tables.flatMap((table) => rows.get(table.name)!.map((row) => [row[table.clusterBy!] as bigint, row[table.dayOf!] as number] as const)), ...masterchain];
    const spans = (snapshot.covered.get(name) ?? []).flatMap((range: Range): Span[] => {
      if (stream.axis === 'utime') return [{ seen: [Number(range.from), Number(range.to)], whole: [Number(range.from), Number(range.to)] }];
      const inside = points.filter(([lt]) => lt >= range.from && lt <= range.to).map(([, time]) => time);
      if (inside.length === 0) return [];
      const [first, last] = [Math.min(...inside), Math.max(...inside)];
      return [{ seen: [first, last], whole: [first + 1, last - 1] }];
    });
    for (const table of stream.tables) {
      const perDay = new Map<string, number>();
      for (const row of rows.get(table.name)!) perDay.set(String(row['block_date']), (perDay.get(String(row['block_date'])) ?? 0) + 1);
      for (const { seen } of spans) {
        for (let day = Math.floor(seen[0] / DAY_SECONDS); day <= Math.floor(seen[1] / DAY_SECONDS); day++) {
          const date = new Date(day * DAY_SECONDS * 1000).toISOString().slice(0, 10);
          perDay.set(date, perDay.get(date) ?? 0);
        }
      }
      for (const [date, count] of perDay) {
        const start = Date.parse(`${date}T00:00:00Z`) / 1000;
        out.push([table.name, date, count, spans.some(({ whole }) => whole[0] <= start && whole[1] >= start + DAY_SECONDS - 1)]);
      }
    }
  }
  return out.sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1)).map(([table, day, rows, complete]) => line(table, day, rows, complete));
}

/** The rows of `_etl_days` as the warehouse defines it: the DuckDB file's view, or views.sql run by a plain in-memory DuckDB. */
async function storedDays(kind: SinkKind): Promise<string[]> {
  const path = work.sinkPath(kind);
  if (kind === 'duckdb') return withDuckDB(path, { access_mode: 'READ_ONLY' }, async (connection) => lines((await connection.runAndReadAll(SELECT)).getRowsJson()));
  const text = await readFile(join(path, VIEWS_FILE), 'utf8');
  return withDuckDB(':memory:', {}, async (connection) => {
    await connection.run(text);
    return lines((await connection.runAndReadAll(SELECT)).getRowsJson());
  });
}

/** `_etl_days` in the read-only session of status and verify. */
function sessionDays(kind: SinkKind): Promise<string[]> {
  const tables = STREAMS.flatMap((name) => streamByName(name).tables);
  return withReadOnlyWarehouse(kind, work.sinkPath(kind), tables, 'status', async ({ connection }) => lines((await connection.runAndReadAll(SELECT)).getRowsJson()));
}

/** `_etl_days` through `chain-etl query`, with `where`. */
async function queriedDays(kind: SinkKind, where = ''): Promise<string[]> {
  const result = await runCliInProcess(['query', pipelines[kind], `${SELECT} ${where}`, '--format', 'csv']);
  expect(result.code, describeResult(result)).toBe(0);
  return lines(result.stdout.trim().split('\r\n').slice(1).map((row) => row.split(',')));
}

describe.each(KINDS)('_etl_days of a %s warehouse', (kind) => {
  it('equals the rule over the chain: first and last day partial, the covered day without rows a complete 0, the day between complete; WHERE complete in chain-etl query', async () => {
    const expected = expectedDays(await readWarehouse(kind, work.sinkPath(kind), { glob: false, tables: [] }));
    // The chain is what the test is about: four days, the second without a block.
    const transactions = expected.filter((shown) => shown.startsWith('transactions '));
    expect(transactions.map((shown) => shown.replace(/ \d+ /, ' n '))).toEqual(['2026-01-01 n partial', '2026-01-02 n complete', '2026-01-03 n complete', '2026-01-04 n partial'].map((shown) => `transactions ${shown}`));
    expect(transactions[1]).toBe('transactions 2026-01-02 0 complete');
    expect(transactions[2]).not.toMatch(/ 0 complete$/);
    expect(expected.filter((shown) => shown.startsWith('jetton_burns ')).map((shown) => shown.split(' ')[3])).toEqual(['partial', 'complete', 'complete', 'partial']);

    expect(await storedDays(kind)).toEqual(expected);
    expect(await sessionDays(kind)).toEqual(expected);
    expect(await queriedDays(kind, 'WHERE complete')).toEqual(expected.filter((shown) => shown.endsWith(' complete')));
  });

  it('chain-etl report draws the partial days apart and counts each table\'s complete and partial days', async () => {
    const out = join(work.dir, `report-${kind}.html`);
    const result = await runCliInProcess(['report', pipelines[kind], '--html', out]);
    expect(result.code, describeResult(result)).toBe(0);
    const html = await readFile(out, 'utf8');
    const start = html.indexOf('<section class="table" data-table="transactions"');
    const section = html.slice(start, html.indexOf('</section>', start));
    const bars = [...section.matchAll(/<rect class="([^"]+)" [^>]*data-label="([^"]+)"/g)].map(([, classes, day]) => `${day} ${classes}`);
    const days = (await storedDays(kind)).filter((shown) => shown.startsWith('transactions ')).map((shown) => shown.split(' '));
    expect(bars).toEqual(days.filter(([, , rows]) => rows !== '0').map(([, day, , complete]) => `${day} ${complete === 'complete' ? 'bar' : 'bar partial'}`));
    expect(bars.filter((bar) => bar.endsWith('partial'))).toHaveLength(2);
    expect(section).toContain('<p class="completeness">2 complete UTC days, 2 partial.</p>');
    expect(section).toContain('partial day: not yet complete (_etl_days)');
  });

  it('a row deleted leaves its day complete (finding it is verify\'s job); an unchecked range holding a row of a day makes that day partial, for that table only', async () => {
    const path = work.sinkPath(kind);
    const before = await queriedDays(kind);
    const rows = (await readWarehouse(kind, path, { glob: false, tables: [transactionsTable] })).tables.get('transactions')!;
    const [deleted, other] = rows.filter((row) => row['block_date'] === '2026-01-03');
    const sink: Sink = kind === 'duckdb' ? new DuckDBSink({ path }) : new ParquetSink({ path });
    await sink.open(transactionsStream.tables);
    try {
      const checkpoint = (await sink.readCheckpoint('transactions'))!;
      await sink.commitAll([{ stream: 'transactions', rows: new Map(), replace: [{ table: 'transactions', column: 'tx_hash', values: [deleted!['tx_hash']] }], checkpoint }]);
    } finally {
      await sink.close();
    }
    const day = (shown: string): string => shown.split(' ').slice(0, 2).join(' ');
    const deletedDay = (shown: readonly string[]): string => shown.find((found) => day(found) === 'transactions 2026-01-03')!;
    const count = Number(deletedDay(before).split(' ')[2]);
    const afterDelete = await queriedDays(kind);
    expect(afterDelete).toEqual(before.map((shown) => (shown === deletedDay(before) ? `transactions 2026-01-03 ${count - 1} complete` : shown)));

    const unchecked = { min: String(other!['tx_lt']), max: String(other!['tx_lt']) };
    if (kind === 'duckdb') {
      await withDuckDB(path, {}, (connection) => connection.run(`INSERT INTO _etl_meta VALUES ('${writtenRangeKey('unchecked', 'transactions')}', '${JSON.stringify(unchecked)}')`));
    } else {
      const manifest = (await readManifest(path))!;
      manifest.tables['transactions']!.unchecked = unchecked;
      await writeManifest(path, manifest);
    }
    expect(await queriedDays(kind)).toEqual(afterDelete.map((shown) => (day(shown) === 'transactions 2026-01-03' ? shown.replace(/complete$/, 'partial') : shown)));
  });
});

describe('_etl_days of a DuckDB file without it (an earlier release\'s)', () => {
  it('is defined for the read-only sessions as a TEMP view, with the rows the file\'s view had', async () => {
    const before = await storedDays('duckdb');
    await withDuckDB(work.sinkPath('duckdb'), {}, (connection) => connection.run('DROP VIEW _etl_days'));
    expect(await queriedDays('duckdb')).toEqual(before);
    expect(await sessionDays('duckdb')).toEqual(before);
    await expect(storedDays('duckdb')).rejects.toThrow(/_etl_days does not exist/);
  });
});
