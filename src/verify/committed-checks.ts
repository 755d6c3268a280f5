/**
 * The stored checks a run makes of what the warehouse's commits wrote since the checks last passed
 * (the sink's unchecked ranges: this run's commits, and those of a killed or failed run before it),
 * against everything stored. Cheap, because they look at those rows alone; the keys are left to the
 * moved-keys sweep (every run ends with it, over a range that holds these rows), and the traces'
 * counts to `verify` (they are the indexer's, not the chain's). The caller marks the ranges checked
 * when they pass.
 */
import { etlRejects } from '../core/bookkeeping.js';
import type { Sink } from '../load/sink.js';
import type { PlannedStream } from '../run/plan.js';
import { verifyWarehouse, type VerifyReport } from './verify-warehouse.js';

export async function checkCommitted(sink: Sink, planned: readonly PlannedStream[]): Promise<VerifyReport> {
  const unchecked = sink.uncheckedRanges();
  if (unchecked.size === 0) return { consistent: true, checks: [], holes: [] };
  const checkpoints = await sink.readCheckpoints();
  const tables = new Set([etlRejects.name, ...planned.flatMap(({ stream }) => stream.tables.map((table) => table.name))]);
  return sink.readCommitted((connection) =>
    verifyWarehouse({ connection, checkpoints, has: (table) => tables.has(table) }, planned, { only: unchecked, skip: ['keys', 'trace-transactions'] }),
  );
}
