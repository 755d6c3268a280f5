/** What `chain-etl report` shows, read from a warehouse (src/report/read-report.ts) and drawn by html.ts. */
export interface ReportData {
  readonly pipeline: string;
  readonly sink: { readonly kind: string; readonly path: string };
  /** When the report was made (ISO, UTC). */
  readonly generatedAt: string;
  /** Every data table of the warehouse, each as its kind allows it to be counted. */
  readonly tables: readonly TableReport[];
  /** The last runs, oldest first. */
  readonly runs: readonly RunPoint[];
  /** Rejected items by stream and reason, most first. */
  readonly rejects: readonly RejectGroup[];
}

export type TableReport = DailyTable | SnapshotTable | UndatedTable;

/**
 * A fact table (it has a `block_date`): rows per UTC day, oldest day first, each day it holds rows
 * of or that its stream's coverage reaches (0 rows: covered and empty), and whether `_etl_days`
 * calls it complete.
 */
export interface DailyTable {
  readonly kind: 'daily';
  readonly table: string;
  readonly days: readonly { readonly day: string; readonly rows: number; readonly complete: boolean }[];
}

/** A snapshot table (it has a `snapshot_time`): rows per snapshot, oldest first; more than one while a snapshot begun later is not complete. */
export interface SnapshotTable {
  readonly kind: 'snapshot';
  readonly table: string;
  readonly snapshots: readonly { readonly taken: string; readonly rows: number }[];
}

/** A table with neither (the `addresses` dimension): its rows, and what one row is. */
export interface UndatedTable {
  readonly kind: 'undated';
  readonly table: string;
  readonly doc: string;
  readonly rows: number;
}

export interface RunPoint {
  readonly command: string;
  readonly status: string;
  readonly startedAt: string;
  /** Seconds the run took, whole (runs are timed to the second: 0 is under one); null while it runs or when it was abandoned. */
  readonly seconds: number | null;
  /** New rows the run committed (of a key the warehouse did not hold), all streams together. */
  readonly rows: number;
  /** Rows the run committed that took the place of a stored row of the same key; null for runs of schema version 2 and earlier, which counted them among `rows`. */
  readonly replaced: number | null;
  /** How old the settled tip it reached was when it ended, in seconds: the warehouse's distance to the chain's head then. Null when the run did not record its tip. */
  readonly behindSeconds: number | null;
}

export interface RejectGroup {
  readonly stream: string;
  readonly reason: string;
  readonly count: number;
  readonly lastSeen: string;
}
