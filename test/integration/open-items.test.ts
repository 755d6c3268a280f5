/**
 * Items the service changes after listing them, from the user's side: a validator cycle's members
 * gain complaints while the cycle runs (and until its stakes are released), long after the cycle's
 * start is covered. A sync stores the cycle as it stands; the next sync, the chain grown, reads the
 * cycle again and the warehouse equals the truth, in both sinks; once the cycle is closed at the
 * settled tip, it is no longer read again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCheckpoint } from '../../src/core/checkpoint/record.js';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult } from '../support/cli-result.js';
import { expectCoveredEqualsTruth } from '../support/expect-truth.js';
import { KEY } from '../support/test-key.js';
import { readWarehouse } from '../support/warehouse-snapshot.js';
import { validatorCycleMembersTable } from '../../src/streams/validator-cycles.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';

const STREAMS = ['validator_cycles'];

let work: Workspace;

beforeAll(async () => {
  work = await makeWorkspace('open-items');
});

afterAll(async () => {
  await work?.remove();
});

/** The stored members with complaints, as `start/index:complaints`, and the stream's stored record. */
async function stored(kind: SinkKind, path: string): Promise<{ complaints: string[]; open: bigint | undefined }> {
  const snapshot = await readWarehouse(kind, path, { glob: false, tables: [validatorCycleMembersTable] });
  const complaints = snapshot.tables.get(validatorCycleMembersTable.name)!
    .filter((row) => (row['complaints'] as number) > 0)
    .map((row) => `${String(row['cycle_start_time'])}/${String(row['validator_index'])}:${String(row['complaints'])}`);
  const text = kind === 'duckdb' ? undefined : snapshot.manifest!.checkpoints['validator_cycles']!.position;
  return { complaints, open: text === undefined ? undefined : decodeCheckpoint(text).open };
}

describe.each<SinkKind>(['duckdb', 'parquet'])('a validator cycle whose complaints come later, into %s', (kind) => {
  let devnet: Devnet;
  afterAll(async () => {
    await devnet?.close();
  });

  it('is read again by each sync while open, and equals the truth', async () => {
    devnet = await startDevnet({ seed: 5151, blocks: 60, keys: new Map([[KEY, 'mainnet']]), keyRps: 1000 });
    const sinkPath = work.sinkPath(kind, 'cycles');
    const pipeline = await work.pipeline({ url: devnet.url, kind, sinkPath, name: `cycles-${kind}.yaml`, streams: STREAMS });
    const first = await runCliInProcess(['sync', pipeline]);
    expect(first.code, describeResult(first)).toBe(0);
    await expectCoveredEqualsTruth(devnet, kind, sinkPath, { whole: true, streams: STREAMS });
    const before = await stored(kind, sinkPath);

    devnet.grow(40);
    const second = await runCliInProcess(['sync', pipeline]);
    expect(second.code, describeResult(second)).toBe(0);
    await expectCoveredEqualsTruth(devnet, kind, sinkPath, { whole: true, streams: STREAMS });
    const after = await stored(kind, sinkPath);
    expect(after.complaints.length, `complaints stored by the first sync: ${before.complaints.join(', ')}`).toBeGreaterThan(before.complaints.length);
    if (kind === 'parquet') {
      // The record names the earliest cycle still open: the one running at the tip, read again by the next sync.
      expect(before.open).toBeDefined();
      expect(after.open! >= before.open!).toBe(true);
    }
  });
});
