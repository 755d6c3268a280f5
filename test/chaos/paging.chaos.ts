/**
 * Chaos: every paging fault of the devnet against both sinks (src/devnet/http/paging-faults.ts), and
 * a service holding 2,500 transactions and 2,500 jetton transfers at one lt, returned in a fresh
 * order per request, with and without offset. Each ends equal to the chain, or with exit 1 naming the
 * violation, nothing wrong stored, and a rerun against a healthy service that completes to equality.
 * The small matrix of `npm test` is test/integration/paging-contract.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResult } from '../support/cli-result.js';
import { NO_MISMATCH, describeDiff, diffWarehouse, mismatch } from '../support/row-diff.js';
import { readVerified } from './support/read.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';
import { PAGING_OUTCOMES, runCrowded, runPagingFault, type PagingFault } from '../support/paging.js';

const CHAIN = { seed: 7272, blocks: 120 };
const CROWD = 2500;
const SINKS: readonly SinkKind[] = ['duckdb', 'parquet'];

let work: Workspace;

beforeAll(async () => {
  work = await makeWorkspace('chaos-paging');
});

afterAll(async () => {
  await work?.remove();
});

const faults = Object.keys(PAGING_OUTCOMES) as PagingFault[];

describe.each(faults.flatMap((fault) => SINKS.map((kind) => [fault, kind] as const)))('a devnet with %s pages, into %s', (fault, kind) => {
  it('ends equal to the chain, or with exit 1 naming the violation, nothing wrong stored, and a healthy rerun to equality', async () => {
    await runPagingFault(work, fault, kind, CHAIN);
  });
});

describe.each(SINKS)('2,500 items at one lt in a fresh order per request, into %s', (kind) => {
  it('stores every transaction, jetton transfer and action (the actions one trace, committed whole), exit 0', async () => {
    const { result, truth, sinkPath } = await runCrowded(work, kind, { ...CHAIN, crowd: CROWD });
    expect(result.code, describeResult(result)).toBe(0);
    // The pipeline reads two streams: the tables of the others are not created in DuckDB.
    const snapshot = await readVerified(kind, sinkPath, { partial: true });
    for (const diff of diffWarehouse(truth, snapshot.tables)) expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
  });

  it('with offset ignored: exit 1 after a bounded number of requests, nothing of the lt stored', async () => {
    const { result, truth, sinkPath } = await runCrowded(work, kind, { ...CHAIN, crowd: CROWD, ignoreOffset: true });
    expect(result.code, describeResult(result)).toBe(1);
    expect(result.stderr).toMatch(/broke the paging contract: (more than 50000 items at lt \d+ .*: the service seems to ignore offset|it repeats the page at offset 0 of lt \d+: the service ignores offset);/);
    const snapshot = await readVerified(kind, sinkPath, { partial: true });
    for (const diff of diffWarehouse(truth, snapshot.tables)) expect({ ...mismatch(diff), missing: 0 }, describeDiff(diff)).toEqual(NO_MISMATCH);
  });
});
