/**
 * Runs the stored checks (`stored-checks.ts`) that the pipeline's streams allow over a warehouse
 * opened read-only: keys everywhere; the masterchain's seqnos where blocks are stored unfiltered;
 * blocks against their transactions where both are stored unfiltered; transaction links wherever
 * transactions are stored (a pipeline scoped to accounts stores each of their chains whole).
 */
import { decodeCheckpoint } from '../core/checkpoint.js';
import type { Range } from '../core/coverage.js';
import { isSnapshot } from '../core/stream.js';
import type { ReadOnlyWarehouse } from '../load/read-only-warehouse.js';
import type { PlannedStream } from '../run/plan.js';
import { checkBlockTransactions, checkKeys, checkMasterchainSeqnos, checkTransactionLinks, type CheckRun, type StoredChain } from './stored-checks.js';

export interface VerifyReport {
  readonly consistent: boolean;
  readonly checks: readonly CheckRun[];
}

export async function verifyWarehouse(warehouse: ReadOnlyWarehouse, planned: readonly PlannedStream[]): Promise<VerifyReport> {
  const chain: StoredChain = {
    connection: warehouse.connection,
    covered: (stream) => coveredRanges(warehouse.checkpoints.get(stream)),
  };
  const byName = new Map(planned.map((p) => [p.stream.name, p]));
  const unfiltered = (name: string): boolean => {
    const found = byName.get(name);
    return found !== undefined && Object.values((found.filters ?? {}) as Record<string, unknown>).every((value) => value === undefined);
  };
  const checks: CheckRun[] = [];
  for (const { stream } of planned) {
    for (const table of stream.tables) {
      if (!warehouse.has(table.name)) continue;
      if (isSnapshot(stream) && table.clusterBy !== undefined) continue;
      checks.push(await checkKeys(chain, { name: stream.name, ...(isSnapshot(stream) ? {} : { axis: stream.axis }) }, table));
    }
  }
  if (unfiltered('blocks') && warehouse.has('blocks')) checks.push(await checkMasterchainSeqnos(chain));
  if (unfiltered('blocks') && unfiltered('transactions') && warehouse.has('blocks') && warehouse.has('transactions')) checks.push(await checkBlockTransactions(chain));
  if (byName.has('transactions') && warehouse.has('transactions')) checks.push(await checkTransactionLinks(chain));
  return { consistent: checks.every((check) => check.found.length === 0), checks };
}

function coveredRanges(stored: string | undefined): readonly Range[] | undefined {
  return stored === undefined ? undefined : decodeCheckpoint(stored).covered.ranges;
}
