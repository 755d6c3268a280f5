/**
 * A cheaper read of a warehouse for the checks between kills: what the sink itself counts as
 * committed (the DuckDB tables; for Parquet the manifest's files only, not the raw glob, which may
 * hold a crash's leftovers until the next open), with checkpoints, runs and the files on disk.
 */
import { existsSync } from 'node:fs';
import { etlRejects, etlRuns } from '../../../src/core/bookkeeping.js';
import { readRows } from '../../../src/load/engine/read.js';
import { readManifest } from '../../../src/load/parquet/manifest.js';
import type { Row } from '../../../src/core/table.js';
import { positionTables } from '../../support/position-tables.js';
import { openWarehouse } from '../../support/warehouse-reader.js';
import { checkpointsOf, dataFilesOnDisk, readWarehouse, type ReadOptions, type RejectRow, type RunRow, type Snapshot } from '../../support/warehouse-snapshot.js';
import { storedInconsistencies } from '../../support/stored-inconsistencies.js';
import type { SinkKind } from '../../support/workspace.js';

/** `readWarehouse` with verify's checks run over it (`Snapshot.inconsistencies`): every chaos warehouse is verified. */
export function readVerified(kind: SinkKind, path: string, options: Omit<ReadOptions, 'verify'> = {}): Promise<Snapshot> {
  return readWarehouse(kind, path, { ...options, verify: true });
}

export async function readCommitted(kind: SinkKind, path: string): Promise<Snapshot> {
  if (kind === 'duckdb') return readVerified(kind, path, { partial: true });
  const manifest = existsSync(path) ? await readManifest(path) : undefined;
  const onDisk = await dataFilesOnDisk(path);
  if (manifest === undefined) {
    const tables = new Map<string, Row[]>(positionTables.map((table) => [table.name, []]));
    return { kind, tables, files: { onDisk, listed: [] }, checkpoints: new Map(), covered: new Map(), pending: new Map(), runs: [], rejects: 0, rejectRows: [] };
  }
  const reader = await openWarehouse(kind, path);
  try {
    const tables = new Map<string, Row[]>();
    for (const table of positionTables) tables.set(table.name, await readRows(reader.connection, table));
    const runs = (await readRows(reader.connection, etlRuns)) as RunRow[];
    const rejectRows = (await readRows(reader.connection, etlRejects)) as RejectRow[];
    const rejects = rejectRows.length;
    const records = checkpointsOf(Object.entries(manifest.checkpoints).map(([key, value]) => [key, value.position]));
    const listed = Object.values(manifest.tables).flatMap((entry) => entry.files.map((file) => file.path));
    const present = new Set([...positionTables, etlRuns, etlRejects].map((table) => table.name));
    const inconsistencies = await storedInconsistencies(reader.connection, new Map(Object.entries(manifest.checkpoints).map(([key, value]) => [key, value.position])), present);
    return { kind, tables, files: { onDisk, listed }, manifest, ...records, runs, rejects, rejectRows, inconsistencies };
  } finally {
    reader.close();
  }
}
