import { createHash } from 'node:crypto';
import { describeValue } from '../core/column-kind.js';
import { etlCheckpoints, etlRejects } from '../core/bookkeeping.js';
import { FatalError } from '../core/errors.js';
import { RowValueError } from '../core/schema-errors.js';
import type { AnyTable } from '../core/table.js';
import type { CommitBatch, Row } from './sink.js';

/** Values to delete from one column before inserting. */
export interface ReplaceSet {
  readonly column: string;
  /** Distinct values to delete. */
  readonly values: readonly unknown[];
  /** Those of `values` that no row of the batch carries (so no partition can be inferred for them). */
  readonly unanchored: readonly unknown[];
}

/** One table's share of a commit, not yet validated. */
export interface TableWork {
  readonly table: AnyTable;
  readonly rows: readonly Row[];
  readonly explicit: readonly { readonly column: string; readonly values: readonly unknown[] }[];
}

/** One table's share of a commit, validated and deduplicated. */
export interface PreparedTable {
  readonly table: AnyTable;
  /** Valid rows, one per primary key (the batch's last row of a key wins). */
  readonly rows: readonly Row[];
  readonly replace: readonly ReplaceSet[];
}

/**
 * Splits a batch into per-table work, bookkeeping included: data tables first, then rejects, then
 * the checkpoint row. Fails on tables that were not opened.
 */
export function planBatch(opened: ReadonlyMap<string, AnyTable>, batch: CommitBatch, now: number): TableWork[] {
  const lookup = (name: string, what: string): AnyTable => {
    const table = opened.get(name);
    if (table === undefined || name.startsWith('_etl_')) {
      throw new FatalError(`Commit for stream ${batch.stream} has ${what} for table ${name}, which was not opened`);
    }
    return table;
  };
  const work = new Map<string, { table: AnyTable; rows: readonly Row[]; explicit: TableWork['explicit'][number][] }>();
  for (const [name, rows] of batch.rows) work.set(name, { table: lookup(name, 'rows'), rows, explicit: [] });
  for (const replacement of batch.replace ?? []) {
    const table = lookup(replacement.table, 'a replacement');
    if (!table.columnNames.includes(replacement.column)) {
      throw new FatalError(`Replacement for table ${table.name} names column ${replacement.column}, which it does not have`);
    }
    const entry = work.get(table.name) ?? { table, rows: [], explicit: [] };
    entry.explicit.push({ column: replacement.column, values: replacement.values });
    work.set(table.name, entry);
  }
  const plan: TableWork[] = [...work.values()];
  if (batch.rejects !== undefined && batch.rejects.length > 0) {
    const rows = batch.rejects.map((reject) => ({
      stream: batch.stream,
      reject_id: rejectId(reject.endpoint, reject.raw),
      ...reject,
      seen_at: now,
    }));
    plan.push({ table: etlRejects, rows, explicit: [] });
  }
  const checkpoint = { stream: batch.stream, position: batch.checkpoint, updated_at: now };
  plan.push({ table: etlCheckpoints, rows: [checkpoint], explicit: [] });
  return plan;
}

/**
 * The plans of several batches as one, as if committed one after another: each table's rows and
 * replacements in batch order (so the last row of a key wins), rows of an earlier batch dropped where
 * a later one replaces their values (its `replaceBy` values and explicit replacements), bookkeeping
 * tables last.
 */
export function planBatches(opened: ReadonlyMap<string, AnyTable>, batches: readonly CommitBatch[], now: number): TableWork[] {
  const merged = new Map<string, { table: AnyTable; rows: Row[]; explicit: TableWork['explicit'][number][] }>();
  for (const batch of batches) {
    for (const work of planBatch(opened, batch, now)) {
      const entry = merged.get(work.table.name) ?? { table: work.table, rows: [], explicit: [] };
      entry.rows = withoutReplaced(entry.rows, work);
      for (const row of work.rows) entry.rows.push(row);
      entry.explicit.push(...work.explicit);
      merged.set(work.table.name, entry);
    }
  }
  const bookkeeping = [etlRejects.name, etlCheckpoints.name];
  const rank = (work: TableWork): number => bookkeeping.indexOf(work.table.name);
  return [...merged.values()].sort((a, b) => rank(a) - rank(b));
}

/** `rows` less those whose values `work` replaces when it is committed after them. */
function withoutReplaced(rows: Row[], work: TableWork): Row[] {
  if (rows.length === 0) return rows;
  const replaced = work.explicit.map((entry) => ({ column: entry.column, values: entry.values }));
  const { replaceBy } = work.table;
  if (replaceBy !== undefined && work.rows.length > 0) replaced.push({ column: replaceBy, values: work.rows.map((row) => row[replaceBy]) });
  if (replaced.length === 0) return rows;
  const sets = replaced.map(({ column, values }) => ({ column, keys: new Set(values.map((value) => keyString({ [column]: value }, [column]))) }));
  return rows.filter((row) => !sets.some(({ column, keys }) => keys.has(keyString(row, [column]))));
}

/** Checks every value against its kind, keeps the last row per primary key, and gathers replacements. */
export function prepareTable(work: TableWork): PreparedTable {
  const { table } = work;
  const byKey = new Map<string, Row>();
  work.rows.forEach((row, index) => {
    checkRow(table, row, index);
    byKey.set(keyString(row, table.primaryKey), row);
  });
  const rows = [...byKey.values()];
  const replace: ReplaceSet[] = [];
  const columns = new Set(work.explicit.map((entry) => entry.column));
  if (table.replaceBy !== undefined) columns.add(table.replaceBy);
  for (const column of columns) {
    const kind = table.columns[column]!;
    const anchored = new Map<string, unknown>();
    if (column === table.replaceBy) for (const row of rows) anchored.set(keyString(row, [column]), row[column]);
    const unanchored = new Map<string, unknown>();
    for (const entry of work.explicit.filter((e) => e.column === column)) {
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
  return { table, rows, replace };
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
