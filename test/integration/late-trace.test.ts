/**
 * Traces completing and classified between syncs (docs/design.md §2): the service lists a trace in
 * flight as `pending` at its newest transaction's lt, below the checkpoint; a sync stores none of
 * those, and a later one stores each once, complete, at its final end_lt. A trace stored
 * `unclassified` is replaced by its classified row when the overlap re-reads it. After every sync the
 * table equals the truth of complete traces up to the checkpoint, each trace_id once. Both sinks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tracesStream } from '../../src/streams/traces.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult } from '../support/cli-result.js';
import { expectedStreamRows, syncedBounds } from '../support/expected-rows.js';
import { DevnetClient } from '../support/http.js';
import { NO_MISMATCH, describeDiff, diffWarehouse, mismatch } from '../support/row-diff.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { KEY } from '../support/test-key.js';
import { readWarehouse, type Snapshot } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';

type Trace = Record<string, unknown> & { readonly trace_info: Record<string, unknown> };

const CLASSIFY_DELAY = 6;

describe.each<SinkKind>(['duckdb', 'parquet'])('traces completing between syncs, into %s', (kind) => {
  let devnet: TestDevnet;
  let work: Workspace;
  let pipeline: string;
  let sinkPath: string;

  beforeAll(async () => {
    devnet = await startTestDevnet({ seed: 4242, blocks: 30, classifyDelay: CLASSIFY_DELAY });
    work = await makeWorkspace(`late-trace-${kind}`);
    sinkPath = work.sinkPath(kind);
    pipeline = await work.pipeline({ url: devnet.url, kind, sinkPath, streams: ['traces'] });
  });

  afterAll(async () => {
    await devnet?.close();
    await work?.remove();
  });

  const sync = async (): Promise<Snapshot> => {
    const result = await runCliInProcess(['sync', pipeline]);
    expect(result.code, describeResult(result)).toBe(0);
    return readWarehouse(kind, sinkPath, { tables: tracesStream.tables });
  };

  /** Every trace the service lists now, pending ones included. */
  const listed = (): Promise<Trace[]> => new DevnetClient(devnet.url, KEY).items<Trace>('traces', 'traces', { sort: 'asc', limit: 1000 });

  /** The stored table (and the Parquet glob) equals the complete traces of the truth up to the checkpoint, each once. */
  const expectEqualsTruth = (snapshot: Snapshot): void => {
    const expected = expectedStreamRows(devnet, tracesStream, syncedBounds(devnet, snapshot)(tracesStream));
    const sources: [string, ReadonlyMap<string, Record<string, unknown>[]>][] = [['tables', snapshot.tables]];
    if (snapshot.glob !== undefined) sources.push(['parquet glob', snapshot.glob]);
    for (const [label, tables] of sources) {
      for (const diff of diffWarehouse(expected, tables)) expect(mismatch(diff), `${label}: ${describeDiff(diff)}`).toEqual(NO_MISMATCH);
      const ids = tables.get('traces')!.map((row) => row.trace_id);
      expect(new Set(ids).size, `${label}: a trace_id stored twice`).toBe(ids.length);
    }
    expect(snapshot.rejects).toBe(0);
  };

  it('stores no pending trace, then each once complete at its final end_lt, and replaces unclassified rows', async () => {
    const first = await sync();
    const checkpoint = first.checkpoints.get('traces')!;
    const pending = (await listed()).filter((t) => t.trace_info.trace_state === 'pending' && BigInt(t.end_lt as string) <= checkpoint);
    expect(pending.length).toBeGreaterThan(0);
    expectEqualsTruth(first);
    const firstRows = new Map(first.tables.get('traces')!.map((row) => [row.trace_id, row]));
    expect(pending.filter((t) => firstRows.has(t.trace_id))).toEqual([]);
    const unclassified = [...firstRows.values()].filter((row) => row.classification_state === 'unclassified').map((row) => row.trace_id);
    expect(unclassified.length).toBeGreaterThan(0);

    devnet.grow(CLASSIFY_DELAY + 4);
    const second = await sync();
    expectEqualsTruth(second);
    const secondRows = new Map(second.tables.get('traces')!.map((row) => [row.trace_id, row]));
    const completed = pending.filter((t) => secondRows.get(t.trace_id)?.trace_state === 'complete');
    expect(completed.length).toBeGreaterThan(0);
    for (const trace of completed) expect(secondRows.get(trace.trace_id)!.end_lt as bigint).toBeGreaterThan(BigInt(trace.end_lt as string));
    expect(unclassified.map((id) => secondRows.get(id)?.classification_state)).toEqual(unclassified.map(() => 'ok'));
  });
});
