/** The rows a snapshot stream's tables must hold after a complete snapshot: the devnet's current state through `toRows`. */
import { parseItems } from '../../src/api/wire.js';
import type { SnapshotDefinition } from '../../src/core/stream.js';
import type { Row } from '../../src/core/table.js';
import type { Devnet } from '../../src/devnet/index.js';
import { truthDatasetOf } from './truth-dataset.js';

/** Rows per table of the devnet's state for a snapshot taken at `time`; `keep` narrows it to a scope (the raw items kept). */
export function expectedSnapshotRows(devnet: Devnet, stream: SnapshotDefinition, time: number, keep: (raw: Record<string, unknown>) => boolean = () => true): Map<string, Row[]> {
  return snapshotRowsOf(stream, devnet.truth(truthDatasetOf(stream)).filter(keep), time);
}

/** Rows per table of a snapshot taken at `time` of a state given as raw truth items (e.g. one kept from before the chain grew). */
export function snapshotRowsOf(stream: SnapshotDefinition, raw: readonly Record<string, unknown>[], time: number): Map<string, Row[]> {
  const { ok, rejects } = parseItems(stream.item, raw);
  if (rejects.length > 0) throw new Error(`${stream.name}: ${rejects.length} truth items do not parse: ${rejects[0]!.reason}`);
  const rows = new Map<string, Row[]>(stream.tables.map((table) => [table.name, []]));
  for (const item of ok) for (const [table, tableRows] of stream.toRows(item, time)) rows.get(table)!.push(...tableRows);
  return rows;
}
