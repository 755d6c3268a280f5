/** The rows the devnet's truth says a warehouse must hold: each truth item through its stream's `toRows`. */
import { parseItems } from '../../src/api/wire.js';
import type { StreamDefinition } from '../../src/core/stream.js';
import type { Devnet } from '../../src/devnet/index.js';
import type { Row } from '../../src/core/table.js';
import { streams } from '../../src/streams/index.js';
import { mcBlock, positionAt, type Bounds } from './chain-points.js';
import { FIRST_MC } from './test-devnet.js';
import { truthDatasetOf } from './truth-dataset.js';
import type { Snapshot } from './warehouse-snapshot.js';

interface TruthEntry {
  /** The item as the devnet renders it. */
  readonly raw: unknown;
  readonly position: bigint;
  readonly rows: ReadonlyMap<string, readonly Row[]>;
}

/** Per devnet: the chain length the index was built at, and each stream's truth items as (position, rows). */
const truthIndexes = new WeakMap<Devnet, { steps: number; streams: Map<string, TruthEntry[]> }>();

/**
 * Each truth item of a stream with its position and the rows `toRows` makes of it (as
 * test/streams/rows.ts does); built once per chain length of the devnet.
 */
function truthEntries(devnet: Devnet, stream: StreamDefinition): TruthEntry[] {
  const steps = devnet.generator.chain.steps;
  let index = truthIndexes.get(devnet);
  if (index === undefined || index.steps !== steps) truthIndexes.set(devnet, (index = { steps, streams: new Map() }));
  let entries = index.streams.get(stream.name);
  if (entries === undefined) {
    const raw = devnet.truth(truthDatasetOf(stream));
    const { ok, rejects } = parseItems(stream.item, raw);
    if (rejects.length > 0) throw new Error(`${stream.name}: ${rejects.length} truth items do not parse: ${rejects[0]!.reason}`);
    entries = ok.map((item, index) => ({ raw: raw[index], position: stream.position(item), rows: stream.toRows(item) }));
    index.streams.set(stream.name, entries);
  }
  return entries;
}

/** Bounds of what a sync stored: from the devnet's first block up to each stream's checkpoint (empty without one). */
export function syncedBounds(devnet: Devnet, snapshot: Pick<Snapshot, 'checkpoints'>): (stream: StreamDefinition) => Bounds {
  return (stream) => {
    const from = positionAt(mcBlock(devnet, FIRST_MC), stream);
    return { from, to: snapshot.checkpoints.get(stream.name) ?? from - 1n };
  };
}

/** Truth items of a stream in `bounds`, as the devnet renders them. */
export function truthItems(devnet: Devnet, stream: StreamDefinition, bounds: Bounds): unknown[] {
  return truthEntries(devnet, stream)
    .filter((entry) => entry.position >= bounds.from && entry.position <= bounds.to)
    .map((entry) => entry.raw);
}

/**
 * Truth items of a stream whose position lies in `bounds` (and that `keep` keeps), through the
 * stream's `toRows`: rows per table.
 */
export function expectedStreamRows(devnet: Devnet, stream: StreamDefinition, bounds: Bounds, keep: (raw: unknown) => boolean = () => true): Map<string, Row[]> {
  const rows = new Map<string, Row[]>(stream.tables.map((table) => [table.name, []]));
  for (const entry of truthEntries(devnet, stream)) {
    if (entry.position < bounds.from || entry.position > bounds.to || !keep(entry.raw)) continue;
    for (const [name, tableRows] of entry.rows) {
      const list = rows.get(name);
      if (list === undefined) throw new Error(`toRows returned rows for ${name}, which is not a table of ${stream.name}`);
      for (const row of tableRows) list.push(row);
    }
  }
  return rows;
}

/** Every data table (but addresses) of every stream, each stream restricted to its bounds. */
export function expectedWarehouse(devnet: Devnet, boundsOf: (stream: StreamDefinition) => Bounds, keep?: (raw: unknown) => boolean): Map<string, Row[]> {
  const all = new Map<string, Row[]>();
  for (const stream of streams) for (const [table, rows] of expectedStreamRows(devnet, stream, boundsOf(stream), keep)) all.set(table, rows);
  return all;
}
