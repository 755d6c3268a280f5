/**
 * Runs the stored checks (`stored-checks.ts`) that the pipeline's streams allow over a warehouse:
 * keys everywhere; the masterchain's seqnos where blocks are stored unfiltered; blocks against their
 * transactions where both are stored unfiltered; transaction links wherever transactions are stored
 * (a pipeline scoped to accounts stores each of their chains whole); traces against their
 * transactions where traces and unfiltered transactions are stored.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { decodeCheckpoint } from '../core/checkpoint/record.js';
import type { Range } from '../core/checkpoint/coverage.js';
import { byKind } from '../core/stream.js';
import type { AnyTable } from '../core/table.js';
import { quotedString } from '../core/sql-quote.js';
import type { PlannedStream } from '../run/plan.js';
import {
  checkBlockTransactions,
  checkKeys,
  checkMasterchainSeqnos,
  checkTraceTransactions,
  checkTransactionLinks,
  LISTED_PER_CHECK,
  type CheckName,
  type CheckResult,
  type KeyedStream,
  type StoredChain,
} from './stored-checks.js';
import { NO_REJECTS, accountedFor, readRejectedItems, type RejectedItems } from './rejected-items.js';
import { etlRejects } from '../core/bookkeeping.js';
import type { Landmark } from '../extract/landmarks.js';
import { checkCheckpoints, coverageHoles, type CoverageHole } from './checkpoint-checks.js';

/** A check that ran, its findings less those rejected items account for. */
export interface CheckRun extends CheckResult {
  /** Findings that items kept in `_etl_rejects` account for: holes on purpose, which status counts as rejects. */
  readonly rejected: number;
  /** It found more than `found` lists (LISTED_PER_CHECK). */
  readonly truncated: boolean;
}

export interface VerifyReport {
  readonly consistent: boolean;
  readonly checks: readonly CheckRun[];
  /** What no check looked at: the ranges between covered ranges. */
  readonly holes: readonly CoverageHole[];
}

/** A warehouse as the checks read it: its tables by name on `connection`, and its checkpoint rows. */
export interface StoredWarehouse {
  readonly connection: DuckDBConnection;
  readonly checkpoints: ReadonlyMap<string, string>;
  /** Whether the warehouse holds the table yet. */
  has(table: string): boolean;
}

export interface VerifyScope {
  /** The newest block the service indexes, to check the checkpoints against. @default not checked */
  readonly head?: Landmark;
  /** The rows to check (`StoredChain.only`). @default every covered row */
  readonly only?: StoredChain['only'];
  /** The checks to leave out. @default none */
  readonly skip?: readonly CheckName[];
  /** The block headers fetched for a pipeline that stores none (`blockHeadersWanted`). @default none */
  readonly fetchedBlocks?: FetchedBlocks;
}

/** Block headers fetched from the service: a DuckDB file whose `blocks` table holds them, and the utime ranges they cover. */
export interface FetchedBlocks {
  readonly file: string;
  readonly covered: readonly Range[];
}

/**
 * The pipeline stores unfiltered transactions but no unfiltered blocks, so the blocks' transaction
 * counts can be held against the transactions only with headers fetched from the service.
 */
export function blockHeadersWanted(planned: readonly PlannedStream[]): boolean {
  return unfilteredIn(planned, 'transactions') && !unfilteredIn(planned, 'blocks');
}

export async function verifyWarehouse(warehouse: StoredWarehouse, planned: readonly PlannedStream[], scope: VerifyScope = {}): Promise<VerifyReport> {
  const rejected = warehouse.has(etlRejects.name) ? await readRejectedItems(warehouse.connection) : NO_REJECTS;
  const chain: StoredChain = {
    connection: warehouse.connection,
    covered: (stream) => coveredRanges(warehouse.checkpoints.get(stream)),
    ...(scope.only === undefined ? {} : { only: scope.only }),
    // Each rejected item accounts for one finding of a check at most.
    limit: LISTED_PER_CHECK + rejected.count,
  };
  const runs = (check: CheckName): boolean => !(scope.skip ?? []).includes(check);
  const unfiltered = (name: string): boolean => unfilteredIn(planned, name);
  const stored = (...names: string[]): boolean => names.every((name) => planned.some((p) => p.stream.name === name) && warehouse.has(name));
  const checks: CheckResult[] = scope.head === undefined ? [] : [checkCheckpoints(warehouse.checkpoints, planned, scope.head)];
  for (const { stream } of runs('keys') ? planned : []) {
    const keyed = byKind<{ readonly of: KeyedStream; readonly tables: readonly AnyTable[] }>(stream, {
      position: (positioned) => ({ of: { name: stream.name, axis: positioned.axis }, tables: stream.tables }),
      snapshot: () => ({ of: { name: stream.name }, tables: stream.tables.filter((table) => table.clusterBy === undefined) }),
    });
    for (const table of keyed.tables) {
      if (warehouse.has(table.name)) checks.push(await checkKeys(chain, keyed.of, table));
    }
  }
  if (runs('masterchain-seqnos') && unfiltered('blocks') && stored('blocks')) checks.push(await checkMasterchainSeqnos(chain));
  if (runs('block-transactions') && unfiltered('blocks') && unfiltered('transactions') && stored('blocks', 'transactions')) checks.push(await checkBlockTransactions(chain));
  else if (runs('block-transactions') && scope.fetchedBlocks !== undefined && unfiltered('transactions') && stored('transactions')) checks.push(await checkFetchedBlockTransactions(chain, scope.fetchedBlocks));
  if (runs('transaction-links') && stored('transactions')) checks.push(await checkTransactionLinks(chain));
  if (runs('trace-transactions') && unfiltered('transactions') && stored('traces', 'transactions')) checks.push(await checkTraceTransactions(chain));
  const ran = checks.map((check) => lessRejected(check, rejected, chain.limit));
  return { consistent: allPassed(ran), checks: ran, holes: coverageHoles(warehouse.checkpoints, planned) };
}

/**
 * `report` with its checkpoints checked again against `head` (a newer block than the one it was made
 * against: a sync may have committed between asking for the head and reading the warehouse).
 */
export function againstHead(report: VerifyReport, checkpoints: ReadonlyMap<string, string>, planned: readonly PlannedStream[], head: Landmark): VerifyReport {
  const checkpointsRun: CheckRun = { ...checkCheckpoints(checkpoints, planned, head), rejected: 0, truncated: false };
  const checks = report.checks.map((check) => (check.check === 'checkpoints' ? checkpointsRun : check));
  return { ...report, consistent: allPassed(checks), checks };
}

/** The stored transactions against the fetched blocks' counts, the headers' file attached for the check alone. */
async function checkFetchedBlockTransactions(chain: StoredChain, fetched: FetchedBlocks): Promise<CheckResult> {
  await chain.connection.run(`ATTACH ${quotedString(fetched.file)} AS ${FETCHED_CATALOG} (READ_ONLY)`);
  try {
    const covered = (stream: string): readonly Range[] | undefined => (stream === 'blocks' ? fetched.covered : chain.covered(stream));
    return await checkBlockTransactions({ ...chain, covered }, `${FETCHED_CATALOG}.blocks`);
  } finally {
    await chain.connection.run(`DETACH ${FETCHED_CATALOG}`);
  }
}

/** The name the fetched headers' file is attached as. */
const FETCHED_CATALOG = '_etl_fetched_headers';

/** The pipeline stores the stream with no filter set. */
function unfilteredIn(planned: readonly PlannedStream[], name: string): boolean {
  const found = planned.find((p) => p.stream.name === name);
  return found !== undefined && Object.values((found.filters ?? {}) as Record<string, unknown>).every((value) => value === undefined);
}

/** No check found anything, nor more than it could list. */
function allPassed(checks: readonly CheckRun[]): boolean {
  return checks.every((check) => check.found.length === 0 && !check.truncated);
}

function lessRejected(check: CheckResult, rejected: RejectedItems, limit: number): CheckRun {
  const found = check.found.filter((inconsistency) => !accountedFor(inconsistency, rejected));
  return { ...check, found: found.slice(0, LISTED_PER_CHECK), rejected: check.found.length - found.length, truncated: found.length > LISTED_PER_CHECK || check.found.length === limit };
}

function coveredRanges(stored: string | undefined): readonly Range[] | undefined {
  return stored === undefined ? undefined : decodeCheckpoint(stored).covered.ranges;
}
