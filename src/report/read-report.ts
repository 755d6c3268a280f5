/**
 * The report's numbers, asked of a read-only SQL connection onto the warehouse (the DuckDB file, or
 * views over the Parquet manifest's files): rows per `block_date` of every fact table and which of
 * its days are complete (`_etl_days`), rows per `snapshot_time` of every snapshot table, the rows of
 * every other table (addresses), the last runs and the rejects by reason.
 */
import { etlRejects, etlRuns } from '../core/bookkeeping.js';
import { quotedString } from '../core/sql-quote.js';
import { BLOCK_DATE_COLUMN, type AnyTable } from '../core/table.js';
import { etlDaysView } from '../streams/etl-days.js';
import type { ReportData, RejectGroup, RunPoint, TableReport } from './report-data.js';

/** Runs a query and returns its rows as JSON-ready objects. */
export type ReadQuery = (sql: string) => Promise<Record<string, unknown>[]>;

const q = (name: string): string => `"${name}"`;

export async function readReport(query: ReadQuery, tables: readonly AnyTable[], runs: number): Promise<Omit<ReportData, 'pipeline' | 'sink' | 'generatedAt'>> {
  // A stream added to the pipeline has no table in a DuckDB file until its first sync: it holds no rows.
  const present = new Set((await query('SELECT table_name FROM information_schema.tables')).map((row) => String(row.table_name)));
  const read: TableReport[] = [];
  for (const table of tables) read.push(await readTable(present.has(table.name) ? query : async () => [], table));
  return { tables: read, runs: await readRuns(query, runs), rejects: await readRejects(query) };
}

async function readTable(query: ReadQuery, table: AnyTable): Promise<TableReport> {
  if (BLOCK_DATE_COLUMN in table.columns) {
    // Rows from the table itself: a DuckDB file's _etl_days is over the tables its last sync opened, which may be fewer.
    const rows = await query(
      `SELECT coalesce(t.day, d.block_date)::VARCHAR AS day, coalesce(t.rows, 0) AS rows, coalesce(d.complete, false) AS complete ` +
        `FROM (SELECT block_date AS day, count(*) AS rows FROM ${q(table.name)} GROUP BY block_date) AS t ` +
        `FULL JOIN (SELECT block_date, complete FROM ${q(etlDaysView.name)} WHERE table_name = ${quotedString(table.name)}) AS d ON d.block_date = t.day ORDER BY 1`,
    );
    return { kind: 'daily', table: table.name, days: rows.map((row) => ({ day: String(row.day), rows: Number(row.rows), complete: row.complete === true })) };
  }
  if ('snapshot_time' in table.columns) {
    const rows = await query(
      `SELECT strftime(snapshot_time AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS taken, count(*) AS rows FROM ${q(table.name)} GROUP BY snapshot_time ORDER BY snapshot_time`,
    );
    return { kind: 'snapshot', table: table.name, snapshots: rows.map((row) => ({ taken: String(row.taken), rows: Number(row.rows) })) };
  }
  const [row] = await query(`SELECT count(*) AS rows FROM ${q(table.name)}`);
  return { kind: 'undated', table: table.name, doc: table.doc, rows: Number(row?.rows ?? 0) };
}

async function readRuns(query: ReadQuery, limit: number): Promise<RunPoint[]> {
  const rows = await query(
    `SELECT command, status, strftime(started_at AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS started_at, epoch(ended_at) - epoch(started_at) AS seconds, ` +
      'rows::VARCHAR AS rows, rows_replaced::VARCHAR AS rows_replaced, ' +
      `epoch(ended_at) - epoch(tip_time) AS behind FROM ${q(etlRuns.name)} ORDER BY started_at DESC, ended_at DESC NULLS FIRST LIMIT ${limit}`,
  );
  return rows.reverse().map((row) => ({
    command: String(row.command),
    status: String(row.status),
    startedAt: String(row.started_at),
    seconds: row.seconds === null || row.status === 'abandoned' ? null : Number(row.seconds),
    rows: streamTotal(String(row.rows)),
    replaced: row.rows_replaced === null ? null : streamTotal(String(row.rows_replaced)),
    behindSeconds: row.behind === null ? null : Number(row.behind),
  }));
}

/** The sum of a run's counts per stream (`rows` also holds the snapshot times under `snapshot_time`, which are not counts). */
function streamTotal(counts: string): number {
  return Object.values(JSON.parse(counts) as Record<string, unknown>).reduce<number>((sum, value) => sum + (typeof value === 'number' ? value : 0), 0);
}

async function readRejects(query: ReadQuery): Promise<RejectGroup[]> {
  const rows = await query(
    `SELECT stream, reason, count(*) AS items, strftime(max(seen_at) AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS last_seen FROM ${q(etlRejects.name)} ` +
      'GROUP BY stream, reason ORDER BY items DESC, stream, reason LIMIT 50',
  );
  return rows.map((row) => ({ stream: String(row.stream), reason: String(row.reason), count: Number(row.items), lastSeen: String(row.last_seen) }));
}
