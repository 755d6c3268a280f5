/**
 * The `traces` stream's request and row: lt paging on end_lt with one `account`, a complete trace as
 * one row under §9 names, a pending or broken trace parsed but not settled (never a row), a complete
 * trace without its end rejected.
 */
import { describe, expect, it } from 'vitest';
import { parseItems } from '../../src/api/wire.js';
import { tracesStream, tracesTable } from '../../src/streams/traces.js';
import { runStream } from './rows.js';

const ACCOUNT = '0:51B4E810E3E11982F4C64C33A4410317D5FB48C473BC426ED0D378890E3C83DE';

/** A devnet trace (seed 7) as /traces renders one, without its transactions. */
const complete = {
  trace_id: 'HLwqG/KVP0tJuusJmPtyqSwKi3dokG6hEY9T9GJNR5c=',
  external_hash: 'XQF942LAlfAVtg7ARj7Iif6xI/438Cahg+KW38L4cpA=',
  mc_seqno_start: '1000004',
  mc_seqno_end: '1000006',
  start_lt: '60000004000001',
  start_utime: 1767225606,
  end_lt: '60000006000003',
  end_utime: 1767225615,
  trace_info: { trace_state: 'complete', messages: 5, transactions: 4, pending_messages: 0, classification_state: 'ok' },
  is_incomplete: false,
  trace: { tx_hash: 'HLwqG/KVP0tJuusJmPtyqSwKi3dokG6hEY9T9GJNR5c=', in_msg_hash: null, children: [] },
  transactions_order: [],
  transactions: {},
};

const pending = {
  ...complete,
  trace_id: 'uAR9kacBrHXFPaM2f+szmLlH1EvvsofnGGw7iTZKPTU=',
  mc_seqno_end: '1000005',
  end_lt: '60000005000002',
  end_utime: 1767225610,
  trace_info: { trace_state: 'pending', messages: 3, transactions: 2, pending_messages: 1, classification_state: 'unclassified' },
};

describe('traces request', () => {
  it('pages by end_lt, ascending, inclusive bounds, with one account', () => {
    const page = { from: 60_000_001_000_003n, to: 60_000_002_000_000n, limit: 1000, offset: 0 };
    expect(tracesStream.query({ account: ACCOUNT }, page)).toEqual({
      start_lt: 60_000_001_000_003n,
      end_lt: 60_000_002_000_000n,
      limit: 1000,
      offset: 0,
      sort: 'asc',
      account: ACCOUNT,
    });
  });
});

describe('traces row', () => {
  it('keeps a complete trace exactly: §9 times, its end day, counts and states', () => {
    const { rows, rejects } = runStream(tracesStream, [complete]);
    expect(rejects).toEqual([]);
    expect(rows.get(tracesTable.name)).toEqual([
      {
        trace_id: complete.trace_id,
        external_hash: complete.external_hash,
        start_lt: 60_000_004_000_001n,
        end_lt: 60_000_006_000_003n,
        start_time: 1_767_225_606,
        end_time: 1_767_225_615,
        block_date: '2026-01-01',
        mc_seqno_start: 1_000_004,
        mc_seqno_end: 1_000_006,
        tx_count: 4,
        msg_count: 5,
        trace_state: 'complete',
        classification_state: 'ok',
      },
    ]);
  });

  it('keeps a tick-tock trace (no external message) with a null external_hash', () => {
    const { rows, rejects } = runStream(tracesStream, [{ ...complete, external_hash: null }]);
    expect(rejects).toEqual([]);
    expect(rows.get(tracesTable.name)![0]!.external_hash).toBeNull();
  });

  it('parses pending and broken traces but does not settle them, so they never become rows', () => {
    const broken = { ...pending, trace_id: complete.external_hash, trace_info: { ...pending.trace_info, trace_state: 'broken' } };
    const early = { ...pending, trace_id: 'JKLx78g5+AGy2rTB6htpE8HTCVHNs5EPP6dMbmuv5Sw=', end_lt: null, end_utime: null };
    const { ok, rejects } = parseItems(tracesStream.item, [complete, pending, broken, early]);
    expect(rejects).toEqual([]);
    expect(ok.map((trace) => tracesStream.settled!(trace))).toEqual([true, false, false, false]);
    expect(ok.map((trace) => tracesStream.position(trace))).toEqual([60_000_006_000_003n, 60_000_005_000_002n, 60_000_005_000_002n, 60_000_004_000_001n]);
    expect(() => tracesStream.toRows(ok[1]!)).toThrow(/pending: only complete traces become rows/);
  });

  it('rejects a complete trace without its end, naming end_lt', () => {
    const { ok, rejects } = parseItems(tracesStream.item, [{ ...complete, end_lt: null }]);
    expect(ok).toEqual([]);
    expect(rejects).toHaveLength(1);
    expect(rejects[0]!.reason).toContain('end_lt');
    expect(rejects[0]!.reason).toContain('a complete trace needs end_lt, end_utime and mc_seqno_end');
  });
});
