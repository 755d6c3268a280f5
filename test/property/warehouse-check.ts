/**
 * A warehouse held to the truth, one stream at a time: every stored row is a truth row with the same
 * values (nothing extra, changed or duplicated), every truth row inside the checkpoint's covered
 * ranges is stored, and the covered ranges hold the ranges a run was required to cover.
 */
import type { Range } from '../../src/core/checkpoint/coverage.js';
import type { Row } from '../../src/core/table.js';
import { canonical, keyOf, tableNamed } from '../support/row-diff.js';
import { readWarehouse, type Snapshot } from '../support/warehouse-snapshot.js';
import type { SinkKind } from '../support/workspace.js';
import { UNSAFE_INTEGER } from './server.js';
import { STREAM_NAMES, streamNamed, type StreamName, type Truth, type TruthItem } from './truth.js';

export interface StreamCheck {
  /** Ranges the covered ranges must hold (each inside one covered range). @default none */
  readonly required?: readonly Range[];
  /** Keys of items the server sent poisoned once: absent, stored as the truth has them, or with the unsafe integer exact. @default none */
  readonly poisoned?: ReadonlySet<string>;
  /** Check rows stored beyond the truth (off while re-classified actions wait for the next re-scan). @default true */
  readonly extra?: boolean;
  /** Check covered positions missing a row (off while late actions wait for the next re-scan). @default true */
  readonly missing?: boolean;
  /** Items the server listed before their keys moved on (`moveKey`): a failed run may hold their rows beside or instead of the truth's. @default none */
  readonly stale?: readonly TruthItem[];
}

/** The warehouse as a snapshot of the streams' tables (verify's checks run over it), or the one-line reason it cannot be read. */
export async function readSnapshot(kind: SinkKind, path: string, streams: readonly StreamName[] = STREAM_NAMES): Promise<Snapshot | string> {
  try {
    return await readWarehouse(kind, path, { partial: true, glob: false, tables: streams.flatMap((name) => streamNamed(name).tables), verify: true });
  } catch (error) {
    return `the warehouse cannot be read: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
}

/** The rows the truth holds for one stream, by table and primary key, with each row's position. */
function expectedRows(truth: Truth, name: StreamName): Map<string, Map<string, { row: Row; position: bigint; item: string }>> {
  const byTable = new Map(streamNamed(name).tables.map((table) => [table.name, new Map<string, { row: Row; position: bigint; item: string }>()]));
  for (const item of truth.items.get(name) ?? []) {
    for (const [table, rows] of item.rows) {
      const map = byTable.get(table)!;
      for (const row of rows) map.set(keyOf(tableNamed(table), row), { row, position: item.position, item: item.key });
    }
  }
  return byTable;
}

/** Where a poisoned item's unsafe integer lands, when its row is stored: it must be exact there. */
const POISONED_COLUMN: Readonly<Partial<Record<StreamName, readonly [table: string, column: string]>>> = {
  transactions: ['transactions', 'compute_gas_used'],
  jetton_transfers: ['jetton_transfers', 'query_id'],
  validator_events: ['validator_events', 'amount'],
};

export function streamProblems(truth: Truth, name: StreamName, snapshot: Snapshot, check: StreamCheck = {}): string[] {
  const problems: string[] = [];
  const covered = snapshot.covered.get(name) ?? [];
  const inCovered = (position: bigint): boolean => covered.some((range) => range.from <= position && position <= range.to);
  for (const wanted of check.required ?? []) {
    if (wanted.from <= wanted.to && !covered.some((range) => range.from <= wanted.from && wanted.to <= range.to)) {
      problems.push(`${name}: the checkpoint covers ${showRanges(covered)}, not [${wanted.from}, ${wanted.to}]`);
    }
  }
  const excused = check.poisoned ?? new Set<string>();
  for (const [table, expected] of expectedRows(truth, name)) {
    const definition = tableNamed(table);
    const text = (row: Row): string => canonical(definition.columnNames.map((column) => row[column]));
    const stored = snapshot.tables.get(table) ?? [];
    const staleRows = new Set((check.stale ?? []).flatMap((item) => (item.rows.get(table) ?? []).map(text)));
    const seen = new Set<string>();
    const counts = { extra: 0, changed: 0, duplicate: 0, missing: 0 };
    const examples: string[] = [];
    for (const row of stored) {
      if (staleRows.has(text(row))) continue;
      const key = keyOf(definition, row);
      const want = expected.get(key);
      if (seen.has(key)) counts.duplicate += 1;
      seen.add(key);
      if (want !== undefined && excused.has(want.item) && text(want.row) !== text(row)) {
        // Stored as the poisoned answer had it: the unsafe integer must be exact.
        const [poisonedTable, column] = POISONED_COLUMN[name] ?? [];
        if (poisonedTable === table && String(row[column!]) !== UNSAFE_INTEGER) (counts.changed += 1), examples.push(`${key}: ${column} ${String(row[column!])} stored for ${UNSAFE_INTEGER}`);
        continue;
      }
      if (want === undefined && check.extra !== false) (counts.extra += 1), examples.push(`extra ${key}`);
      else if (want !== undefined && text(want.row) !== text(row)) (counts.changed += 1), examples.push(`changed ${key}`);
    }
    for (const [key, want] of expected) {
      if (check.missing !== false && inCovered(want.position) && !seen.has(key) && !excused.has(want.item)) (counts.missing += 1), examples.push(`missing ${key} at ${want.position}`);
    }
    if (Object.values(counts).some((count) => count > 0)) {
      problems.push(`${table}: ${Object.entries(counts).map(([what, count]) => `${what} ${count}`).join(', ')} (covered ${showRanges(covered)}); e.g. ${examples.slice(0, 3).join('; ')}`);
    }
  }
  return problems;
}

function showRanges(ranges: readonly Range[]): string {
  return ranges.length === 0 ? 'nothing' : ranges.map((range) => `[${range.from}, ${range.to}]`).join(' ');
}
