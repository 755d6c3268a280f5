/** The assertion the truth tests share: a warehouse's tables hold exactly the expected rows. */
import { expect } from 'vitest';
import type { Devnet } from '../../src/devnet/index.js';
import type { Row } from '../../src/core/table.js';
import { streams } from '../../src/streams/index.js';
import { expectedWarehouse } from './expected-rows.js';
import { NO_MISMATCH, describeDiff, diffWarehouse, mismatch } from './row-diff.js';
import { readWarehouse, type Snapshot } from './warehouse-snapshot.js';
import type { SinkKind } from './workspace.js';

/** Each expected table is non-empty and equals the snapshot's, through its reader and (Parquet) the raw glob. */
export function expectTablesEqual(expected: ReadonlyMap<string, Row[]>, snapshot: Pick<Snapshot, 'tables' | 'glob'>): void {
  const sources: [string, ReadonlyMap<string, Row[]>][] = [['tables', snapshot.tables]];
  if (snapshot.glob !== undefined) sources.push(['parquet glob', snapshot.glob]);
  for (const [label, tables] of sources) {
    for (const diff of diffWarehouse(expected, tables)) {
      expect(diff.expected, `${label} ${diff.table}: the truth has rows in the range`).toBeGreaterThan(0);
      expect(mismatch(diff), `${label}: ${describeDiff(diff)}`).toEqual(NO_MISMATCH);
    }
  }
}

const NOTHING = { from: 1n, to: 0n };

/**
 * Every table of the warehouse's streams (@default every stream) holds exactly the devnet's rows of its stream's covered
 * range, one range per stream (`whole`: every stream has one; else a stream may cover nothing yet).
 * Returns the rows stored.
 */
export async function expectCoveredEqualsTruth(
  devnet: Devnet,
  kind: SinkKind,
  path: string,
  options: { readonly whole: boolean; readonly streams?: readonly string[] },
): Promise<number> {
  const chosen = options.streams === undefined ? streams : streams.filter((stream) => options.streams!.includes(stream.name));
  const snapshot = await readWarehouse(kind, path, { glob: false, partial: !options.whole, tables: chosen.flatMap((stream) => stream.tables) });
  for (const stream of chosen) {
    const ranges = snapshot.covered.get(stream.name) ?? [];
    expect(ranges, stream.name).toHaveLength(options.whole || ranges.length > 0 ? 1 : 0);
  }
  const expected = expectedWarehouse(devnet, (stream) => snapshot.covered.get(stream.name)?.[0] ?? NOTHING);
  for (const table of expected.keys()) if (!snapshot.tables.has(table)) expected.delete(table);
  for (const diff of diffWarehouse(expected, snapshot.tables)) expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
  return [...snapshot.tables.values()].reduce((sum, rows) => sum + rows.length, 0);
}
