import { createHash } from 'node:crypto';
import { describeValue } from '../core/column-kind.js';
import { etlCheckpoints, etlRejects } from '../core/bookkeeping.js';
import { FatalError } from '../core/errors.js';
import { RowValueError } from '../core/schema-errors.js';
import type { AnyTable, Row } from '../core/table.js';
import type { ReplacedRows, StreamCommit } from './sink.js';

/** Values to delete from one column before inserting. */
export interface ReplaceSet {
  readonly column: string;
  /** Distinct values to delete. */
  readonly values: readonly unknown[];
  /** Those of `values` that no row of the group carries (so no partition can be inferred for them). */
  readonly unanchored: readonly unknown[];
}

/** One table's share of a group of commits, checked: what a sink writes to that table. */
export interface TableChange {
  readonly table: AnyTable;
  /** Valid rows, one per primary key (the group's last row of a key wins). */
  readonly rows: readonly Row[];
  readonly replace: readonly ReplaceSet[];
  /** Rows of the group that a later row of the same key took the place of before they were stored. */
  readonly superseded: number;
  /**
   * The stored rows of the keys may lie anywhere, not only within the rows' `clusterBy` range (a
   * sweep of moved keys: `moved-keys.ts`); such a change also clears the table's unswept range.
   */
  readonly keysAnywhere?: boolean;
}

/** One table's share of a group of commits as gathered, before its values are checked. */
interface GatheredTable {
  readonly table: AnyTable;
  readonly rows: readonly Row[];
  readonly explicit: readonly { readonly column: string; readonly values: readonly unknown[] }[];
  /** Rows of earlier commits of the group dropped for a row of the same key (see `withoutReplaced`). */
  readonly superseded?: number;
}

/**
 * The changes a group of commits makes, as if committed one after another, bookkeeping included:
 * each table's rows and replacements in commit order (so the last row of a key wins), rows of an
 * earlier commit dropped where a later one replaces their values (its `replaceBy` values and
 * explicit replacements), data tables first, then rejects, then the checkpoint rows. Fails on tables
 * that were not opened and on values their column kinds refuse.
 */
export function planCommit(opened: ReadonlyMap<string, AnyTable>, commits: readonly StreamCommit[], now: number): TableChange[] {
  const merged = new Map<string, { table: AnyTable; rows: Row[]; explicit: GatheredTable['explicit'][number][]; superseded: number }>();
  for (const commit of commits) {
    for (const gathered of gather(opened, commit, now)) {
      const entry = merged.get(gathered.table.name) ?? { table: gathered.table, rows: [], explicit: [], superseded: 0 };
      const kept = withoutReplaced(entry.rows, gathered);
      entry.rows = kept.rows;
      entry.superseded += kept.superseded;
      for (const row of gathered.rows) entry.rows.push(row);
      entry.explicit.push(...gathered.explicit);
      merged.set(gathered.table.name, entry);
    }
  }
  const bookkeeping = [etlRejects.name, etlCheckpoints.name];
  const rank = (gathered: GatheredTable): number => bookkeeping.indexOf(gathered.table.name);
  return [...merged.values()].sort((a, b) => rank(a) - rank(b)).map(check);
}

/**
 * What a sink's `commitAll` returns: per data table of `changes`, its superseded rows plus
 * `stored[i]`, the stored rows that change `i`'s rows took the place of (same key).
 */
export function replacedRows(changes: readonly TableChange[], stored: readonly number[]): ReplacedRows {
  const replaced = new Map<string, number>();
  changes.forEach((change, index) => {
    if (!isBookkeeping(change.table.name)) replaced.set(change.table.name, change.superseded + (stored[index] ?? 0));
  });
  return replaced;
}

/** `rows` written to `table` alone (bookkeeping rows), checked. */
export function tableChange(table: AnyTable, rows: readonly Row[]): TableChange {
  return check({ table, rows, explicit: [] });
}

/** Splits one commit into per-table shares: data tables, then rejects, then the checkpoint row. */
function gather(opened: ReadonlyMap<string, AnyTable>, commit: StreamCommit, now: number): GatheredTable[] {
  const lookup = (name: string, what: string): AnyTable => {
    const table = opened.get(name);
    if (table === undefined || isBookkeeping(name)) {
      throw new FatalError(`Commit for stream ${commit.stream} has ${what} for table ${name}, which was not opened`);
    }
    return table;
  };
  const shares = new Map<string, { table: AnyTable; rows: readonly Row[]; explicit: GatheredTable['explicit'][number][] }>();
  for (const [name, rows] of commit.rows) shares.set(name, { table: lookup(name, 'rows'), rows, explicit: [] });
  for (const replacement of commit.replace ?? []) {
    const table = lookup(replacement.table, 'a replacement');
    if (!table.columnNames.includes(replacement.column)) {
      throw new FatalError(`Replacement for table ${table.name} names column ${replacement.column}, which it does not have`);
    }
    const entry = shares.get(table.name) ?? { table, rows: [], explicit: [] };
    entry.explicit.push({ column: replacement.column, values: replacement.values });
    shares.set(table.name, entry);
  }
  const gathered: GatheredTable[] = [...shares.values()];
  if (commit.rejects !== undefined && commit.rejects.length > 0) {
    const rows = commit.rejects.map((reject) => ({
      stream: commit.stream,
      reject_id: rejectId(reject.endpoint, reject.raw),
      ...reject,
      seen_at: now,
    }));
    gathered.push({ table: etlRejects, rows, explicit: [] });
  }
  const checkpoint = { stream: commit.stream, position: commit.checkpoint, updated_at: now };
  gathered.push({ table: etlCheckpoints, rows: [checkpoint], explicit: [] });
  return gathered;
}

/**
 * `rows` less those whose values `later` replaces when it is committed after them, and how many of
 * those dropped a row of `later` carries the key of (superseded, as `check` counts a key written twice).
 */
function withoutReplaced(rows: Row[], later: GatheredTable): { rows: Row[]; superseded: number } {
  if (rows.length === 0) return { rows, superseded: 0 };
  const replaced = later.explicit.map((entry) => ({ column: entry.column, values: entry.values }));
  const { replaceBy, primaryKey } = later.table;
  if (replaceBy !== undefined && later.rows.length > 0) replaced.push({ column: replaceBy, values: later.rows.map((row) => row[replaceBy]) });
  if (replaced.length === 0) return { rows, superseded: 0 };
  const sets = replaced.map(({ column, values }) => ({ column, keys: new Set(values.map((value) => keyString({ [column]: value }, [column]))) }));
  const laterKeys = new Set(later.rows.map((row) => keyString(row, primaryKey)));
  const kept: Row[] = [];
  let superseded = 0;
  for (const row of rows) {
    if (!sets.some(({ column, keys }) => keys.has(keyString(row, [column])))) kept.push(row);
    else if (laterKeys.has(keyString(row, primaryKey))) superseded += 1;
  }
  return { rows: kept, superseded };
}

/** Checks every value against its kind, keeps the last row per primary key, and gathers replacements. */
function check(gathered: GatheredTable): TableChange {
  const { table } = gathered;
  const byKey = new Map<string, Row>();
  gathered.rows.forEach((row, index) => {
    checkRow(table, row, index);
    byKey.set(keyString(row, table.primaryKey), row);
  });
  const rows = [...byKey.values()];
  const superseded = (gathered.superseded ?? 0) + gathered.rows.length - rows.length;
  const replace: ReplaceSet[] = [];
  const columns = new Set(gathered.explicit.map((entry) => entry.column));
  if (table.replaceBy !== undefined) columns.add(table.replaceBy);
  for (const column of columns) {
    const kind = table.columns[column]!;
    const anchored = new Map<string, unknown>();
    if (column === table.replaceBy) for (const row of rows) anchored.set(keyString(row, [column]), row[column]);
    const unanchored = new Map<string, unknown>();
    for (const entry of gathered.explicit.filter((e) => e.column === column)) {
      for (const value of entry.values) {
        const found = value === null ? 'expected a non-null value' : kind.problem(value);
        if (found !== undefined) {
          throw new RowValueError(`Replacement for table ${table.name}, column ${column}: ${found}`);
        }
        const key = keyString({ [column]: value }, [column]);
        if (!anchored.has(key)) unanchored.set(key, value);
      }
    }
    const values = [...anchored.values(), ...unanchored.values()].filter((value) => value !== null);
    if (values.length > 0) replace.push({ column, values, unanchored: [...unanchored.values()] });
  }
  return { table, rows, replace, superseded };
}

function checkRow(table: AnyTable, row: Row, index: number): void {
  for (const column of table.columnNames) {
    const found = table.columns[column]!.problem(row[column]);
    if (found !== undefined) {
      throw new RowValueError(`Table ${table.name}, row ${index}${keyLabel(table, row)}, column ${column}: ${found}`);
    }
  }
  if (Object.keys(row).length !== table.columnNames.length) {
    const extra = Object.keys(row).filter((name) => !table.columnNames.includes(name));
    throw new RowValueError(`Table ${table.name}, row ${index}${keyLabel(table, row)}: unexpected columns ${extra.join(', ')}`);
  }
}

function keyLabel(table: AnyTable, row: Row): string {
  const parts = table.primaryKey.map((column) => `${column}=${describeValue(row[column])}`);
  return ` (${parts.join(', ')})`;
}

function isBookkeeping(table: string): boolean {
  return table.startsWith('_etl_');
}

/** A string identifying a row's values in `columns`; equal values give equal strings within a column. */
export function keyString(row: Row, columns: readonly string[]): string {
  if (columns.length === 1) return String(row[columns[0]!]);
  return JSON.stringify(columns.map((column) => {
    const value = row[column];
    return typeof value === 'bigint' ? value.toString() : value;
  }));
}

/** Stable id of a reject: the same item read again (a replay, a page edge, an overlap re-scan) upserts instead of duplicating it. */
export function rejectId(endpoint: string, raw: string): string {
  return createHash('sha256').update(JSON.stringify([endpoint, raw])).digest('hex');
}
