/** Rows compared by primary key, every column: what is missing, extra, changed or duplicated. */
import type { AnyTable, Row } from '../../src/core/table.js';
import { dataTables } from '../../src/streams/index.js';

/** The data table called `name`. */
export function tableNamed(name: string): AnyTable {
  const table = dataTables.find((t) => t.name === name);
  if (table === undefined) throw new Error(`no table ${name}`);
  return table;
}

/** JSON text of a value, bigints as `"<digits>n"`. Hand-written for the cell types (row diffs call it per cell). */
export function canonical(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'bigint':
      return `"${value}n"`;
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'undefined':
      return 'undefined';
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map((item: unknown) => (item === undefined || typeof item === 'function' ? 'null' : canonical(item))).join(',')}]`;
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? 'undefined';
}

export function keyOf(table: AnyTable, row: Row): string {
  return canonical(table.primaryKey.map((column) => row[column]));
}

function rowText(table: AnyTable, row: Row): string {
  return canonical(table.columnNames.map((column) => row[column]));
}

export interface RowDiff {
  readonly table: string;
  readonly expected: number;
  readonly actual: number;
  readonly missing: number;
  readonly extra: number;
  readonly changed: number;
  /** Primary keys held by more than one actual row. */
  readonly duplicates: number;
  readonly examples: readonly string[];
}

/** Compares rows by primary key, every column; counts missing, extra, changed and duplicated keys. */
export function diffRows(table: AnyTable, expected: readonly Row[], actual: readonly Row[]): RowDiff {
  const want = new Map<string, Row>();
  for (const row of expected) want.set(keyOf(table, row), row);
  const have = new Map<string, Row>();
  let duplicates = 0;
  const examples: string[] = [];
  const example = (line: string): void => {
    if (examples.length < 6) examples.push(line);
  };
  for (const row of actual) {
    const key = keyOf(table, row);
    if (have.has(key)) {
      duplicates += 1;
      example(`duplicate ${key}`);
    }
    have.set(key, row);
  }
  let missing = 0;
  let changed = 0;
  for (const [key, row] of want) {
    const found = have.get(key);
    if (found === undefined) {
      missing += 1;
      example(`missing ${key}`);
      continue;
    }
    if (rowText(table, row) === rowText(table, found)) continue;
    const columns = table.columnNames.filter((column) => canonical(row[column]) !== canonical(found[column]));
    if (columns.length > 0) {
      changed += 1;
      example(`changed ${key}: ${columns.slice(0, 3).map((c) => `${c} ${canonical(found[c]).slice(0, 80)} ≠ expected ${canonical(row[c]).slice(0, 80)}`).join('; ')}`);
    }
  }
  let extra = 0;
  for (const key of have.keys()) {
    if (!want.has(key)) {
      extra += 1;
      example(`extra ${key}`);
    }
  }
  return { table: table.name, expected: want.size, actual: actual.length, missing, extra, changed, duplicates, examples };
}

/** The counts of a diff that must all be zero, for `toEqual`. */
export function mismatch(diff: RowDiff): { missing: number; extra: number; changed: number; duplicates: number } {
  return { missing: diff.missing, extra: diff.extra, changed: diff.changed, duplicates: diff.duplicates };
}

export function describeDiff(diff: RowDiff): string {
  return `${diff.table}: expected ${diff.expected} rows, found ${diff.actual}; missing ${diff.missing}, extra ${diff.extra}, changed ${diff.changed}, duplicate keys ${diff.duplicates}\n  ${diff.examples.join('\n  ')}`;
}

export const NO_MISMATCH = { missing: 0, extra: 0, changed: 0, duplicates: 0 } as const;

/** Every data table of a snapshot compared with the expected rows (addresses excluded). */
export function diffWarehouse(expected: ReadonlyMap<string, Row[]>, tables: ReadonlyMap<string, Row[]>): RowDiff[] {
  return [...expected].map(([name, rows]) => diffRows(tableNamed(name), rows, tables.get(name) ?? []));
}

/** Row diffs of every data table between two snapshots' tables (addresses included). */
export function diffSnapshots(before: ReadonlyMap<string, Row[]>, after: ReadonlyMap<string, Row[]>): RowDiff[] {
  return dataTables.map((table) => diffRows(table, before.get(table.name) ?? [], after.get(table.name) ?? []));
}
