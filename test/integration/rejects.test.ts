/**
 * Dead letters end to end, for both sinks: the devnet always sends 2% of its items (chosen by
 * identity) with a broken lt (`invalidItems`). Every item of the synced range ends up in exactly one
 * place: its table (the valid ones, equal to the truth) or `_etl_rejects` (the broken ones, once
 * each, with the raw JSON, endpoint, parameters and reason), and stays so after a second sync that
 * re-reads the actions overlap. `sync --strict` fails on the first broken item instead. The syncs
 * and status run in process; `--strict` is the binary (its exit code 1 and its only line of stderr).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamDefinition } from '../../src/core/stream.js';
import { INVALID_VALUE, isInvalidItem, itemIdentity } from '../../src/devnet/http/fault-transforms.js';
import { streams } from '../../src/streams/index.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult } from '../support/cli-result.js';
import { expectedWarehouse, syncedBounds, truthItems } from '../support/expected-rows.js';
import { NO_MISMATCH, describeDiff, diffWarehouse, mismatch } from '../support/row-diff.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { readWarehouse, type Snapshot } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';
import { strictSyncFailure } from '../support/strict-sync.js';

const INVALID_FRACTION = 0.02;

let devnet: TestDevnet;
let work: Workspace;

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: 5151, blocks: 120, faults: { invalidItems: INVALID_FRACTION } });
  work = await makeWorkspace('rejects');
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

const invalid = (raw: unknown): boolean => isInvalidItem(raw, INVALID_FRACTION);

/** Identities of the stream's items in each place: its main table, and the rejects (parsed from their raw JSON). */
function placesOf(snapshot: Snapshot, stream: StreamDefinition): { table: string[]; rejects: string[] } {
  const main = stream.tables[0]!;
  const identityColumn = main.name === 'validator_events' ? 'tx_hash' : main.primaryKey[0]!;
  return {
    table: snapshot.tables.get(main.name)!.map((row) => String(row[identityColumn])),
    rejects: snapshot.rejectRows.filter((row) => row.stream === stream.name).map((row) => itemIdentity(JSON.parse(row.raw))!),
  };
}

function expectEveryItemInExactlyOnePlace(snapshot: Snapshot): void {
  const boundsOf = syncedBounds(devnet, snapshot);
  for (const diff of diffWarehouse(expectedWarehouse(devnet, boundsOf, (raw) => !invalid(raw)), snapshot.tables)) {
    expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
  }
  let rejected = 0;
  for (const stream of streams) {
    const items = truthItems(devnet, stream, boundsOf(stream));
    const broken = items.filter(invalid).map((raw) => itemIdentity(raw)!);
    const { table, rejects } = placesOf(snapshot, stream);
    // Validator events share their identity (tx_hash) within a transaction: compare multisets.
    expect([...rejects].sort(), `${stream.name}: rejects are the broken items, once each`).toEqual([...broken].sort());
    const inTable = new Set(table);
    expect(rejects.filter((identity) => inTable.has(identity)), `${stream.name}: in the table and the rejects`).toEqual([]);
    expect(table.length + rejects.length, `${stream.name}: items in one place or the other`).toBe(items.length);
    rejected += broken.length;
  }
  expect(rejected, 'the scenario breaks items of the range').toBeGreaterThan(10);
  for (const reject of snapshot.rejectRows) {
    const stream = streams.find((candidate) => candidate.name === reject.stream)!;
    expect(reject.endpoint).toBe(stream.endpoint);
    expect(JSON.stringify(JSON.parse(reject.raw))).toContain(`"${INVALID_VALUE}"`);
    expect(reject.reason, reject.raw).not.toBe('');
    expect(Object.keys(JSON.parse(reject.params) as object).sort()).toEqual(['filters', 'from', 'limit', 'offset', 'to']);
  }
}

describe.each<SinkKind>(['duckdb', 'parquet'])('broken items into %s', (kind) => {
  it('every item lands in its table or in _etl_rejects, exactly once, through two syncs; status counts the rejects', async () => {
    const sinkPath = work.sinkPath(kind, 'rejects');
    const pipeline = await work.pipeline({ url: devnet.url, kind, sinkPath, name: `rejects-${kind}.yaml` });
    const first = await runCliInProcess(['sync', pipeline]);
    expect(first.code, describeResult(first)).toBe(0);
    const afterFirst = await readWarehouse(kind, sinkPath);
    expectEveryItemInExactlyOnePlace(afterFirst);

    devnet.grow(20);
    const second = await runCliInProcess(['sync', pipeline]);
    expect(second.code, describeResult(second)).toBe(0);
    const afterSecond = await readWarehouse(kind, sinkPath);
    expectEveryItemInExactlyOnePlace(afterSecond);
    expect(afterSecond.rejects).toBeGreaterThan(afterFirst.rejects);

    const status = await runCliInProcess(['status', pipeline, '--json']);
    expect(status.code, describeResult(status)).toBe(0);
    expect((JSON.parse(status.stdout) as { rejects: number }).rejects).toBe(afterSecond.rejects);

    // The chain's counts and links find the rejected transactions missing, and nothing else.
    const verified = await runCliInProcess(['verify', pipeline, '--json']);
    expect(verified.code, describeResult(verified)).toBe(0);
    const checks = (JSON.parse(verified.stdout) as { checks: { check: string; found: number; rejected: number }[] }).checks;
    const links = checks.find((check) => check.check === 'transaction-links')!;
    expect([links.found, links.rejected > 0]).toEqual([0, true]);
  });
});

describe('sync --strict', () => {
  it('exits 1 on the first broken item, naming it and the way out, and commits nothing of that page', async () => {
    const { line, sinkPath } = await strictSyncFailure(devnet, work);
    expect(line).toMatch(
      /^chain-etl: \d+ item\(s\) from \/api\/v3\/[a-z/]+ failed validation \(first: .+\); run without --strict to keep them in _etl_rejects and load the rest$/,
    );
    const snapshot = await readWarehouse('duckdb', sinkPath);
    expect(snapshot.rejects).toBe(0);
    expect(snapshot.runs.map((run) => run.status)).toEqual(['failed']);
    // What was committed before the failure is still a consistent prefix of the valid truth.
    for (const diff of diffWarehouse(expectedWarehouse(devnet, syncedBounds(devnet, snapshot), (raw) => !invalid(raw)), snapshot.tables)) {
      expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
    }
  });
});
