import type { DuckDBConnection } from '@duckdb/node-api';
import type { etlRejects, etlRuns } from '../core/bookkeeping.js';
import type { ClusterRange } from './cluster-range.js';
import type { AnyTable, Row, RowOf } from '../core/table.js';

/** Delete every row of `table` whose `column` holds one of `values`, before inserting the commit's rows. */
export interface Replacement {
  readonly table: string;
  readonly column: string;
  readonly values: readonly unknown[];
}

/** A dead letter: an API item that could not become rows. */
export type RejectInput = Omit<RowOf<typeof etlRejects>, 'stream' | 'reject_id' | 'seen_at'>;

/** One run's bookkeeping row; `recordRun` upserts it by `run_id`. */
export type RunRecord = RowOf<typeof etlRuns>;

/**
 * One stream's rows and the checkpoint that covers them: durable together, all of it or none of it.
 * A sink commits several in one atomic unit (a group commit), as if one after another.
 */
export interface StreamCommit {
  /** Stream whose checkpoint this commit advances. */
  readonly stream: string;
  /** Rows per table name; upserted by primary key (the last row of a key wins). */
  readonly rows: ReadonlyMap<string, readonly Row[]>;
  /**
   * Extra replacements. A table with `replaceBy` is always replaced by the values its rows carry;
   * list here the values to clear that have no rows left (e.g. a trace that lost its actions).
   */
  readonly replace?: readonly Replacement[];
  /** The stream's new position, stored with the rows. */
  readonly checkpoint: string;
  /** Items rejected while producing these rows. */
  readonly rejects?: readonly RejectInput[];
}

/**
 * Per data table a group of commits wrote: how many of its rows took the place of a row of the same
 * key, stored before or written by an earlier commit of the group (as if committed one after another).
 * Its other rows are new to the warehouse.
 */
export type ReplacedRows = ReadonlyMap<string, number>;

/**
 * A warehouse writer. One commit is atomic: the rows of every table, the replacements, the rejects
 * and the checkpoint become visible together or not at all. Replaying a commit leaves the same rows.
 * One writer per warehouse: `open` fails with `LockedError` while another process writes.
 */
export interface Sink {
  /** Creates or checks the tables (plus bookkeeping); fails on schema drift or version mismatch. */
  open(tables: readonly AnyTable[]): Promise<void>;
  /** The stream's last committed position, or undefined before its first commit. */
  readCheckpoint(stream: string): Promise<string | undefined>;
  /** Every checkpoint row, by stream. */
  readCheckpoints(): Promise<ReadonlyMap<string, string>>;
  /** The distinct non-null values of a text column of an opened table, as committed (keys a snapshot reads by key). */
  distinctText(table: string, column: string): Promise<string[]>;
  /** Makes the commits durable in one atomic unit, as if committed one after another; says how many rows each data table had replaced. */
  commitAll(commits: readonly StreamCommit[]): Promise<ReplacedRows>;
  /**
   * Keeps one row per key among the keys the commits since the last sweep wrote, where the service
   * listed a key at a second position (`moved-keys.ts`); call once the run's commits are done. Says
   * how many stored rows each data table dropped for a row of the same key.
   */
  sweepMovedKeys(): Promise<ReplacedRows>;
  /**
   * Per table, the `clusterBy` range its commits wrote since the stored checks last passed over it
   * (the range the sweep looks in too): recorded in each commit, so a killed or failed run's range
   * stays for the next run.
   */
  uncheckedRanges(): ReadonlyMap<string, ClusterRange>;
  /** Clears every unchecked range, in one commit: the stored checks passed over them. */
  markChecked(): Promise<void>;
  /** Runs `read` on a connection where each opened data table reads by its name, as committed. */
  readCommitted<T>(read: (connection: DuckDBConnection) => Promise<T>): Promise<T>;
  /** Upserts the run's bookkeeping row (call at start and at end). */
  recordRun(run: RunRecord): Promise<void>;
  /** Releases the warehouse; safe to call twice. */
  close(): Promise<void>;
}
