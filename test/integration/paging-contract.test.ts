/**
 * A service that breaks the paging contract cannot make a sync hang or drop rows silently, from the
 * user's side (the CLI as a process, both sinks). A small matrix; the full one (every devnet paging
 * fault × both sinks) is test/chaos/paging.chaos.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResult } from '../support/cli-result.js';
import { NO_MISMATCH, describeDiff, diffWarehouse, mismatch } from '../support/row-diff.js';
import { readWarehouse } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';
import { runCrowded, runPagingFault, type PagingFault } from '../support/paging.js';

const CHAIN = { seed: 6161, blocks: 40 };
/** Items at the crowded lt: more than a page of 1000 (2,500 in the chaos suite). */
const CROWD = 1500;

let work: Workspace;

beforeAll(async () => {
  work = await makeWorkspace('paging');
});

afterAll(async () => {
  await work?.remove();
});

describe.each<[PagingFault, SinkKind]>([
  ['descending', 'duckdb'],
  ['beyondBounds', 'parquet'],
])('a devnet with %s pages, into %s', (fault, kind) => {
  it('ends as the fault allows: equal to the chain, or exit 1 naming the violation with nothing wrong stored, and a rerun against a healthy service completes to equality', async () => {
    await runPagingFault(work, fault, kind, CHAIN);
  });
});

describe('1,500 items at one lt in a fresh order per request (as the service returns ties)', () => {
  it('stores every transaction, jetton transfer and action of the crowded lt (the actions one trace, committed whole), exit 0', async () => {
    const { result, truth, sinkPath } = await runCrowded(work, 'parquet', { ...CHAIN, crowd: CROWD });
    expect(result.code, describeResult(result)).toBe(0);
    const snapshot = await readWarehouse('parquet', sinkPath);
    for (const diff of diffWarehouse(truth, snapshot.tables)) expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
    expect(truth.get('transactions')).toHaveLength(CROWD + 4);
    expect(truth.get('actions')).toHaveLength(CROWD + 4);
  });
});

describe('1,500 items at one lt and a service that ignores offset', () => {
  it('exits 1 after a bounded number of requests, naming the endpoint, and stores nothing of that lt', async () => {
    const { result, truth, sinkPath } = await runCrowded(work, 'duckdb', { ...CHAIN, crowd: CROWD, ignoreOffset: true, stableTies: true });
    expect(result.code, describeResult(result)).toBe(1);
    expect(result.stderr).toMatch(/chain-etl: \/api\/v3\/(transactions|jetton\/transfers|actions)\?start_lt=(\d+)&end_lt=\2&limit=1000&offset=1000 broke the paging contract: it repeats the page at offset 0 of lt \2: the service ignores offset;/);
    const snapshot = await readWarehouse('duckdb', sinkPath, { partial: true });
    for (const diff of diffWarehouse(truth, snapshot.tables)) expect({ ...mismatch(diff), missing: 0 }, describeDiff(diff)).toEqual(NO_MISMATCH);
    expect(snapshot.tables.get('transactions')!.length).toBeLessThan(100);
  });
});
