/**
 * GET /traces as the traces stream reads it, against the devnet truth (docs/design.md §2): order
 * (end_lt, trace_id) with sort=asc, lt bounds inclusive on end_lt, every complete trace of the truth
 * listed field for field; a trace in flight listed `pending` at its newest indexed transaction and,
 * once the chain grows, `complete` at a higher end_lt, `unclassified` until classifyDelay blocks
 * later; and `devnet truth --dataset traces` printing that truth.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDevnetApi } from '../../../src/devnet/index.js';
import { truthRows } from '../../../src/devnet/truth.js';
import { runInProcess } from '../../support/cli-in-process.js';
import { callV3 } from '../../support/devnet-routes.js';
import type { Query } from '../../support/http.js';

type Trace = Record<string, unknown> & { readonly trace_info: Record<string, unknown> };

const BLOCKS = 60;
let api: ReturnType<typeof buildDevnetApi>;
let truth: Trace[];
const traces = (query: Query): Trace[] => callV3<{ traces: Trace[] }>(api, 'traces', { sort: 'asc', limit: 1000, ...query }).traces;
const ids = (rows: readonly Trace[]): unknown[] => rows.map((t) => t.trace_id);
const state = (trace: Trace): unknown => trace.trace_info.trace_state;
const position = (trace: Trace): [bigint, string] => [BigInt(trace.end_lt as string), trace.trace_id as string];

beforeAll(() => {
  api = buildDevnetApi({ seed: 7, blocks: BLOCKS, classifyDelay: 2 });
  truth = truthRows(api, 'traces') as Trace[];
});

describe('GET /traces against the truth', () => {
  it('lists every complete trace of the truth field for field, and the pending ones beside them, in (end_lt, trace_id) order', () => {
    const listed = traces({});
    expect(listed.filter((t) => state(t) === 'complete')).toEqual(truth);
    const pending = listed.filter((t) => state(t) === 'pending');
    expect(pending.length).toBeGreaterThan(0);
    expect(listed).toHaveLength(truth.length + pending.length);
    const positions = listed.map(position);
    const sorted = [...positions].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    expect(positions).toEqual(sorted);
    expect(new Set(ids(listed)).size).toBe(listed.length);
  });

  it('shows a pending trace at its newest indexed transaction, with messages still in flight and no classification', () => {
    const pending = traces({}).filter((t) => state(t) === 'pending');
    for (const trace of pending) {
      const txs = trace.transactions as Record<string, { lt: string; mc_block_seqno: number }>;
      const newest = Object.values(txs).reduce((a, b) => (BigInt(b.lt) > BigInt(a.lt) ? b : a));
      expect(trace.end_lt).toBe(newest.lt);
      expect(trace.mc_seqno_end).toBe(String(newest.mc_block_seqno));
      expect(trace.trace_info).toMatchObject({ pending_messages: expect.any(Number), classification_state: 'unclassified' });
      expect(trace.trace_info.pending_messages).toBeGreaterThan(0);
      expect(Object.values(txs).every((tx) => tx.mc_block_seqno <= api.view.indexedSeqno)).toBe(true);
    }
  });

  it('bounds start_lt and end_lt inclusively on end_lt, pending traces included', () => {
    const listed = traces({});
    const middle = listed[Math.floor(listed.length / 2)]!;
    const pending = listed.find((t) => state(t) === 'pending')!;
    for (const at of [middle, pending]) {
      const lt = at.end_lt as string;
      const expected = listed.filter((t) => t.end_lt === lt);
      expect(traces({ start_lt: lt, end_lt: lt })).toEqual(expected);
      expect(ids(traces({ start_lt: lt }))).toEqual(ids(listed.filter((t) => BigInt(t.end_lt as string) >= BigInt(lt))));
    }
  });

  it('pages by offset over the merged order without losing or repeating a trace', () => {
    const listed = traces({});
    const paged: Trace[] = [];
    for (let offset = 0; offset < listed.length; offset += 7) paged.push(...traces({ limit: 7, offset }));
    expect(ids(paged)).toEqual(ids(listed));
  });

  it('marks a complete trace unclassified until classifyDelay blocks after it completed, then ok', () => {
    const seqno = api.view.indexedSeqno;
    const byState = (classification: string): number[] =>
      truth.filter((t) => t.trace_info.classification_state === classification).map((t) => Number(t.mc_seqno_end));
    expect(byState('unclassified').length).toBeGreaterThan(0);
    expect(byState('unclassified').every((end) => end > seqno - 2)).toBe(true);
    expect(byState('ok').every((end) => end <= seqno - 2)).toBe(true);
  });
});

describe('GET /traces while the chain grows', () => {
  it('lists a trace pending, then complete at a higher end_lt (once), then classified', () => {
    const grown = buildDevnetApi({ seed: 7, blocks: BLOCKS, classifyDelay: 2 });
    const list = (): Trace[] => callV3<{ traces: Trace[] }>(grown, 'traces', { sort: 'asc', limit: 1000 }).traces;
    const before = list().filter((t) => state(t) === 'pending');
    expect(before.length).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) grown.generator.advance();
    const after = new Map(list().map((t) => [t.trace_id, t]));
    const completed = before.filter((t) => state(after.get(t.trace_id)!) === 'complete');
    expect(completed.length).toBeGreaterThan(0);
    for (const old of completed) {
      const now = after.get(old.trace_id)!;
      expect(BigInt(now.end_lt as string)).toBeGreaterThan(BigInt(old.end_lt as string));
      expect(now.start_lt).toBe(old.start_lt);
    }
    for (let i = 0; i < 3; i++) grown.generator.advance();
    const later = new Map(list().map((t) => [t.trace_id, t]));
    expect(completed.map((t) => later.get(t.trace_id)!.trace_info.classification_state)).toEqual(completed.map(() => 'ok'));
  });
});

describe('chain-etl devnet truth --dataset traces', () => {
  it('prints the truth as NDJSON', async () => {
    const { code, stdout } = await runInProcess(['devnet', 'truth', '--seed', '7', '--blocks', String(BLOCKS), '--dataset', 'traces']);
    expect(code).toBe(0);
    expect(stdout).toBe(truth.map((row) => JSON.stringify(row)).join('\n') + '\n');
  });
});
