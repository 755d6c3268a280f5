/**
 * Snapshot streams against the devnet's state: the scope each one reads (its filters, and the truth
 * items they select), that state kept at one moment of the chain, and the judgement of a warehouse.
 * After a complete snapshot a stream's tables equal the state of its scope, every row stamped with
 * that snapshot's time; after a kill mid-snapshot each row is a row of the last complete snapshot or
 * of one begun since (the checkpoint's `pending`), equal to what that snapshot read, and nothing of
 * the complete snapshot is lost (docs/design.md §2).
 */
import type { SnapshotDefinition } from '../../../src/core/stream.js';
import type { Row } from '../../../src/core/table.js';
import type { Devnet } from '../../../src/devnet/index.js';
import { describeDiff, diffRows, keyOf, mismatch, type RowDiff } from '../../support/row-diff.js';
import { snapshotRowsOf } from '../../support/snapshot-truth.js';
import { truthDatasetOf } from '../../support/truth-dataset.js';
import type { Snapshot } from '../../support/warehouse-snapshot.js';

export interface SnapshotScope {
  readonly stream: SnapshotDefinition;
  /** The stream's filters as a pipeline file writes them, e.g. `{ owner_addresses: [...] }`. */
  readonly filters: string;
  /** Whether a raw truth item is in the scope the filters select. */
  readonly keep: (raw: Record<string, unknown>) => boolean;
}

/** A scope over the whole service: what a stream without filters reads. */
export function wholeScope(stream: SnapshotDefinition): SnapshotScope {
  return { stream, filters: '{}', keep: () => true };
}

/** The `streams:` map of a pipeline file reading these scopes. */
export function streamsYaml(scopes: readonly SnapshotScope[]): string {
  return `streams: { ${scopes.map((scope) => `${scope.stream.name}: ${scope.filters}`).join(', ')} }`;
}

/** The truth items of each scope (by stream name) at one moment of the chain. */
export type ScopeState = ReadonlyMap<string, readonly Record<string, unknown>[]>;

export function scopeState(devnet: Devnet, scopes: readonly SnapshotScope[]): ScopeState {
  return new Map(scopes.map((scope) => [scope.stream.name, devnet.truth(truthDatasetOf(scope.stream)).filter(scope.keep)]));
}

/** Per stream: items of the scope at `from` that are not in it at `to` (their rows must go with the next complete snapshot). */
export function leftScope(from: ScopeState, to: ScopeState, scopes: readonly SnapshotScope[]): Map<string, number> {
  const left = new Map<string, number>();
  for (const { stream } of scopes) {
    const keys = (state: ScopeState): Set<string> => new Set(snapshotRowsOf(stream, state.get(stream.name)!, 0).get(stream.tables[0]!.name)!.map((row) => keyOf(stream.tables[0]!, row)));
    const later = keys(to);
    left.set(stream.name, [...keys(from)].filter((key) => !later.has(key)).length);
  }
  return left;
}

/** What a stream's record says: the last complete snapshot's time (undefined before one) and the times begun since. */
export interface SnapshotProgress {
  readonly complete: number | undefined;
  readonly pending: readonly number[];
}

export function progressOf(snapshot: Snapshot, stream: SnapshotDefinition): SnapshotProgress {
  const position = snapshot.checkpoints.get(stream.name);
  return {
    complete: position === undefined || position < 0n ? undefined : Number(position),
    pending: (snapshot.pending.get(stream.name) ?? []).map(Number),
  };
}

/**
 * Problems of the snapshot tables of a warehouse, left by a complete run or by a kill at any moment:
 * every row stamped with the stream's last complete snapshot or one begun since, and equal to the
 * state that snapshot read (`stateAt` the stream and its time: the truth items of the scope); no key twice; every key of the complete snapshot's
 * state present; with nothing pending, each table exactly that state. Empty when consistent.
 */
export function snapshotProblems(
  tables: ReadonlyMap<string, readonly Row[]>,
  snapshot: Snapshot,
  scopes: readonly SnapshotScope[],
  stateAt: (stream: string, time: number) => readonly Record<string, unknown>[],
): string[] {
  const problems: string[] = [];
  for (const { stream } of scopes) {
    const { complete, pending } = progressOf(snapshot, stream);
    const expectedAt = (time: number): Map<string, Row[]> => snapshotRowsOf(stream, stateAt(stream.name, time), time);
    const atComplete = complete === undefined ? undefined : expectedAt(complete);
    for (const table of stream.tables) {
      const rows = tables.get(table.name) ?? [];
      if (pending.length === 0) {
        const diff = diffRows(table, atComplete?.get(table.name) ?? [], rows);
        if (!isClean(diff)) problems.push(`${stream.name} (complete at ${complete ?? 'none'}, nothing pending): ${describeDiff(diff)}`);
        continue;
      }
      // A kill mid-snapshot: rows of the complete snapshot and of those begun since, each whole.
      const byTime = new Map<number, Row[]>();
      for (const row of rows) {
        const time = Number(row.snapshot_time);
        if (time !== complete && !pending.includes(time)) problems.push(`${table.name}: a row of snapshot ${time}, neither the complete one (${complete ?? 'none'}) nor one pending (${pending.join(', ')}): ${keyOf(table, row)}`);
        else byTime.set(time, [...(byTime.get(time) ?? []), row]);
      }
      // Each snapshot's rows against the state it read, over the keys it has stored so far.
      for (const [time, stamped] of byTime) {
        const stored = new Set(stamped.map((row) => keyOf(table, row)));
        const diff = diffRows(table, (expectedAt(time).get(table.name) ?? []).filter((row) => stored.has(keyOf(table, row))), stamped);
        if (!isClean(diff)) problems.push(`${stream.name}, rows of snapshot ${time} against the state it read: ${describeDiff(diff)}`);
      }
      const keys = rows.map((row) => keyOf(table, row));
      const present = new Set(keys);
      if (present.size < keys.length) problems.push(`${table.name}: ${keys.length - present.size} keys held by two rows (of two snapshots)`);
      const lost = (atComplete?.get(table.name) ?? []).filter((row) => !present.has(keyOf(table, row)));
      if (lost.length > 0) problems.push(`${table.name}: ${lost.length} rows of the complete snapshot ${complete} lost mid-snapshot, e.g. ${keyOf(table, lost[0]!)}`);
    }
  }
  return problems;
}

function isClean(diff: RowDiff): boolean {
  const counts = mismatch(diff);
  return counts.missing + counts.extra + counts.changed + counts.duplicates === 0;
}
