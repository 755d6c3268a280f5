/**
 * The report `status` prints: one JSON object (`--json`, its shape in README's Commands: keys may be
 * added, never renamed or removed; every time ISO 8601 in UTC) or the text of the same facts.
 */
import type { Pipeline } from '../config/index.js';
import type { DuckDBProgress } from '../load/duckdb/progress.js';
import type { StoredRun } from '../load/read-only-warehouse.js';
import type { Landmark } from '../extract/landmarks.js';
import { snapshotStatusLines, type SnapshotStatus } from './snapshot-status.js';
import { NAME_WIDTH, streamStatusLines, type StreamStatus } from './stream-status.js';
import { isoSeconds, utcTimeOfIso } from '../core/utc-time.js';

export interface StatusReport {
  readonly pipeline: string;
  readonly sink: Pipeline['sink'];
  readonly tip: { readonly seqno: number; readonly end_lt: string; readonly utime: number; readonly time: string } | { readonly error: string };
  /** The run writing the DuckDB warehouse, whose progress the report shows; null when the warehouse itself was read. */
  readonly writing: ReportedWriter | null;
  readonly streams: readonly (StreamStatus | SnapshotStatus)[];
  /** Rows per table, `_etl_rejects` and the last runs (newest first); null while a run writes the DuckDB file. */
  readonly tables: Readonly<Record<string, number>> | null;
  readonly rejects: number | null;
  readonly runs: readonly ReportedRun[] | null;
}

export interface ReportedRun {
  readonly command: string;
  readonly status: string;
  readonly started_at: string;
  readonly ended_at: string | null;
  /** New rows per stream, as `_etl_runs.rows` holds them (with `snapshot_time`). */
  readonly rows: Readonly<Record<string, unknown>>;
  /** Null for a run of schema version 2 and earlier, which counted replaced rows among the others. */
  readonly rows_replaced: Readonly<Record<string, unknown>> | null;
  readonly error: string | null;
}

export interface ReportedWriter {
  readonly run_id: string;
  readonly pid: number;
  readonly command: string;
  readonly started_at: string;
  /** The commit the report is exact as of. */
  readonly committed_at: string;
  /** Rows the run has committed so far per table: new (of a key the warehouse did not hold), and replaced. */
  readonly rows: Readonly<Record<string, number>>;
  readonly rows_replaced: Readonly<Record<string, number>>;
}

export function reportedTip(tip: Landmark | undefined, unknownBecause: string | undefined): StatusReport['tip'] {
  return tip === undefined ? { error: unknownBecause ?? 'unknown' } : { seqno: tip.seqno, end_lt: tip.endLt.toString(), utime: tip.utime, time: isoSeconds(tip.utime) };
}

export function reportedRun(run: StoredRun): ReportedRun {
  return {
    command: run.command,
    status: run.status,
    started_at: isoSeconds(run.startedAt),
    ended_at: run.endedAt === null ? null : isoSeconds(run.endedAt),
    rows: run.rows,
    rows_replaced: run.rowsReplaced,
    error: run.error,
  };
}

export function reportedWriter(progress: DuckDBProgress): ReportedWriter {
  return {
    run_id: progress.run_id,
    pid: progress.pid,
    command: progress.command,
    started_at: isoSeconds(progress.started_at),
    committed_at: isoSeconds(progress.committed_at),
    rows: progress.rows,
    rows_replaced: progress.rows_replaced,
  };
}

export function formatStatus(report: StatusReport): string {
  const lines = [`pipeline ${report.pipeline} → ${report.sink.kind} ${report.sink.path}`];
  const { writing } = report;
  if (writing !== null) {
    lines.push(`a ${writing.command} (pid ${writing.pid}, started ${utcTimeOfIso(writing.started_at)}) is writing this warehouse; as of its commit at ${utcTimeOfIso(writing.committed_at)}:`);
  }
  lines.push('error' in report.tip ? `settled tip: unknown (${report.tip.error}); distances to it are not shown` : `settled tip: masterchain ${report.tip.seqno}, lt ${report.tip.end_lt}`);
  // Names narrower than the column keep its width; longer ones widen it for every line.
  const streamWidth = Math.max(NAME_WIDTH, ...report.streams.map((status) => status.stream.length));
  lines.push('', `${'stream'.padEnd(streamWidth)} checkpoint            behind the tip`);
  for (const status of report.streams) lines.push(...(status.axis === 'snapshot' ? snapshotStatusLines(status, streamWidth) : streamStatusLines(status, report.pipeline, streamWidth)));
  lines.push('', ...(writing === null ? warehouseLines(report) : writerLines(writing)));
  return lines.join('\n') + '\n';
}

/** Rows per table and the last runs, as the warehouse holds them. */
function warehouseLines(report: StatusReport): string[] {
  const tables = report.tables ?? {};
  const width = Math.max(NAME_WIDTH, ...Object.keys(tables).map((name) => name.length));
  const lines = [`${'table'.padEnd(width)} rows`];
  for (const [name, rows] of Object.entries(tables)) lines.push(`${name.padEnd(width)} ${rows}`);
  lines.push(`${'_etl_rejects'.padEnd(width)} ${report.rejects ?? 0}`, '', 'last runs');
  for (const run of report.runs ?? []) {
    // Runs of schema version 2 and earlier counted replaced rows among the others.
    const replaced = run.rows_replaced === null ? 'unknown' : JSON.stringify(run.rows_replaced);
    lines.push(`  ${utcTimeOfIso(run.started_at)}  ${run.command.padEnd(8)} ${run.status.padEnd(11)} new rows ${JSON.stringify(run.rows)} replaced ${replaced}${run.error === null ? '' : `  error: ${run.error}`}`);
  }
  return lines;
}

/** The rows the writing run has committed per table; the tables' totals and the runs are read once it has ended. */
function writerLines(writing: ReportedWriter): string[] {
  const names = Object.keys(writing.rows);
  const width = Math.max(NAME_WIDTH, ...names.map((name) => name.length));
  const lines = [`${'table'.padEnd(width)} rows this ${writing.command} committed so far`];
  for (const name of names) lines.push(`${name.padEnd(width)} ${writing.rows[name]} new, ${writing.rows_replaced[name] ?? 0} replaced`);
  if (names.length === 0) lines.push('  none yet');
  lines.push('', `(the tables' rows and the last runs show once the ${writing.command} has ended)`);
  return lines;
}
