/**
 * The contract of src/load/sink.ts, held by both sinks: rows read back exactly, commits are atomic
 * and replayable, replacements and upserts, rejects and runs, one writer, schema checks. What only one
 * sink has (DuckDB's key indexes and older files; Parquet's files, partitions and manifest) is in
 * duckdb-sink.test.ts and parquet-sink.test.ts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { etlRejects, etlRuns } from '../../src/core/bookkeeping.js';
import { int64 } from '../../src/core/column-kinds.js';
import { LockedError } from '../../src/core/errors.js';
import { RowValueError, SchemaDriftError, SchemaVersionError } from '../../src/core/schema-errors.js';
import { defineTable, type AnyTable, type RowOf } from '../../src/core/table.js';
import { readRows } from '../../src/load/engine/read.js';
import { DuckDBSink } from '../../src/load/duckdb/sink.js';
import { LOCK_FILE, parquetGlob, readParquetSql } from '../../src/load/parquet/layout.js';
import { ParquetSink } from '../../src/load/parquet/sink.js';
import { tableRows } from '../../src/core/stream.js';
import type { Sink, StreamCommit } from '../../src/load/sink.js';
import { holdDuckDBFile } from '../support/lock-holder.js';
import { byHash, globRows, withReader } from './read-back.js';
import { BIG, MAX_LT, action, actions, day2, firstBatch, hashOf, transfer, transfers, type TransferRow } from './tables.js';
import { useTempDir } from './temp-dir.js';

const tempDir = useTempDir('sink-contract');
const NOW = 1_700_000_000;

/** One sink as the contract sees it: where a warehouse goes, how to open it, how a reader sees a table. */
interface SinkUnderTest {
  readonly name: string;
  /** A fresh warehouse path (DuckDB file or Parquet folder). */
  place(): Promise<string>;
  open(path: string, tables?: readonly AnyTable[], schemaVersion?: number): Promise<Sink>;
  /** Every row of `table` as a reader of the warehouse sees it, ordered by primary key; the sink may be open. */
  rows<T extends AnyTable>(sink: Sink, path: string, table: T): Promise<RowOf<T>[]>;
  /** The rows of `select`, given the SQL relation that holds a table's rows. */
  query(sink: Sink, path: string, select: (relation: (table: AnyTable) => string) => string): Promise<unknown[][]>;
  /** The DuckDB file another writer holds while it writes this warehouse. */
  lockFile(path: string): string;
}

const duckdb: SinkUnderTest = {
  name: 'DuckDBSink',
  place: async () => join(await tempDir(), 'warehouse.duckdb'),
  open: async (path, tables = [transfers, actions], schemaVersion) => {
    const sink = new DuckDBSink({ path, now: () => NOW, schemaVersion });
    await sink.open(tables);
    return sink;
  },
  rows: (sink, _path, table) => readRows((sink as DuckDBSink).connection, table),
  query: async (sink, _path, select) => (await (sink as DuckDBSink).connection.runAndReadAll(select((table) => table.name))).getRows(),
  lockFile: (path) => path,
};

const parquet: SinkUnderTest = {
  name: 'ParquetSink',
  place: () => tempDir(),
  open: async (path, tables = [transfers, actions], schemaVersion) => {
    const sink = new ParquetSink({ path, now: () => NOW, schemaVersion });
    await sink.open(tables);
    return sink;
  },
  // A table no commit has written yet has no folder for the glob to match.
  rows: async (_sink, path, table) => (existsSync(join(path, table.name)) ? globRows(path, table) : []),
  query: (_sink, path, select) =>
    withReader(async (connection) => (await connection.runAndReadAll(select((table) => readParquetSql(table, [parquetGlob(path, table.name)])))).getRows()),
  lockFile: (path) => join(path, LOCK_FILE),
};

describe.concurrent.each([duckdb, parquet].map((sut) => [sut.name, sut] as const))('%s (the sink contract)', (_name, sut) => {
  async function withSink<T>(use: (sink: Sink, path: string) => Promise<T>): Promise<T> {
    const path = await sut.place();
    const sink = await sut.open(path);
    try {
      return await use(sink, path);
    } finally {
      await sink.close();
    }
  }

  it('reads back exactly what it committed, bigints beyond 2^100 included', async () => {
    await withSink(async (sink, path) => {
      await sink.commitAll([firstBatch]);
      expect(await sut.rows(sink, path, transfers)).toEqual(byHash(firstBatch.rows.get('transfers')!));
      const amounts = await sut.query(sink, path, (relation) => `SELECT amount::VARCHAR FROM ${relation(transfers)} ORDER BY lt`);
      expect(amounts.map(([v]) => v)).toEqual([String(BIG + 1n), String(10n ** 38n - 1n), String(-(10n ** 38n - 1n))]);
      expect(await sut.rows(sink, path, actions)).toHaveLength(3);
      expect(await sink.readCheckpoint('transfers')).toBe('{"lt":"1000003"}');
      expect(await sink.readCheckpoint('other')).toBeUndefined();
    });
  });

  it('lists the distinct non-null values of a text column as committed, across partitions; none before the first commit', async () => {
    await withSink(async (sink) => {
      expect(await sink.distinctText('transfers', 'comment')).toEqual([]);
      await sink.commitAll([firstBatch]);
      await sink.commitAll([{ stream: 'transfers', rows: new Map([tableRows(transfers, [transfer(5, { comment: 'c1' }), transfer(7)])]), checkpoint: '{"lt":"1000007"}' }]);
      expect((await sink.distinctText('transfers', 'comment')).sort()).toEqual(['c1', 'c3', 'c7']);
      await expect(sink.distinctText('nowhere', 'comment')).rejects.toThrow('Table nowhere is not open');
    });
  });

  it('keeps the checkpoint across reopen', async () => {
    const path = await sut.place();
    const sink = await sut.open(path);
    expect(await sink.readCheckpoint('transfers')).toBeUndefined();
    await sink.commitAll([firstBatch]);
    expect(await sink.readCheckpoint('transfers')).toBe('{"lt":"1000003"}');
    await sink.close();
    const again = await sut.open(path);
    try {
      expect(await again.readCheckpoint('transfers')).toBe('{"lt":"1000003"}');
      expect(await sut.rows(again, path, transfers)).toHaveLength(3);
    } finally {
      await again.close();
    }
  });

  it('replays idempotently: the same commit twice leaves the same rows, no duplicates', async () => {
    await withSink(async (sink, path) => {
      await sink.commitAll([firstBatch]);
      const once = [await sut.rows(sink, path, transfers), await sut.rows(sink, path, actions)];
      await sink.commitAll([firstBatch]);
      expect([await sut.rows(sink, path, transfers), await sut.rows(sink, path, actions)]).toEqual(once);
      expect(once[0]).toEqual(byHash(firstBatch.rows.get('transfers')!));
      expect(once[1]).toHaveLength(3);
    });
  });

  it('upserts by primary key, the last row of a key in a batch winning', async () => {
    await withSink(async (sink, path) => {
      await sink.commitAll([firstBatch]);
      const rows = [transfer(1, { comment: 'first' }), transfer(1, { comment: 'second' })];
      await sink.commitAll([{ stream: 'transfers', rows: new Map([tableRows(transfers, rows)]), checkpoint: '2' }]);
      const stored = await sut.rows(sink, path, transfers);
      expect(stored).toHaveLength(3);
      expect(stored.find((row) => row.tx_hash === hashOf(1))?.comment).toBe('second');
    });
  });

  it('upserts keys that overlap an earlier commit, keeping the earlier keys that do not', async () => {
    await withSink(async (sink, path) => {
      const rows = (ns: number[], comment: string): TransferRow[] => ns.map((n) => transfer(n, { comment }));
      await sink.commitAll([{ stream: 't', rows: new Map([tableRows(transfers, rows([1, 2, 3, 4], 'old'))]), checkpoint: '1' }]);
      await sink.commitAll([{ stream: 't', rows: new Map([tableRows(transfers, rows([3, 4, 5, 6], 'new'))]), checkpoint: '2' }]);
      const stored = await sut.rows(sink, path, transfers);
      expect(stored.map((row) => [row.tx_hash, row.comment])).toEqual(
        byHash([...rows([1, 2], 'old'), ...rows([3, 4, 5, 6], 'new')]).map((row) => [row.tx_hash, row.comment]),
      );
    });
  });

  it('replaces by trace: old action ids of a re-sent trace disappear, other traces stay, also for a trace that lost all its actions (after reopen)', async () => {
    const path = await sut.place();
    const sink = await sut.open(path);
    await sink.commitAll([firstBatch]);
    await sink.commitAll([{ stream: 'actions', rows: new Map([tableRows(actions, [action(1, 'c', { type: 'swap' })])]), checkpoint: '3' }]);
    expect((await sut.rows(sink, path, actions)).map((row) => [row.trace_id, row.action_id])).toEqual([
      [hashOf(1), 'c'],
      [hashOf(2), 'a'],
    ]);
    await sink.close();
    const again = await sut.open(path);
    try {
      await again.commitAll([{
        stream: 'actions',
        rows: new Map(),
        replace: [{ table: 'actions', column: 'trace_id', values: [hashOf(2)] }],
        checkpoint: '4',
      }]);
      expect((await sut.rows(again, path, actions)).map((row) => row.action_id)).toEqual(['c']);
    } finally {
      await again.close();
    }
  });

  it('replaces keys and traces whatever their distance in lt from the rest of the batch', async () => {
    await withSink(async (sink, path) => {
      await sink.commitAll([firstBatch]);
      const far = { trace_end_lt: 9_000_000_000n };
      await sink.commitAll([{
        stream: 'actions',
        rows: new Map([
          tableRows(transfers, [transfer(1, { comment: 'again' }), transfer(9, { lt: MAX_LT })]),
          tableRows(actions, [action(7, 'x', far)]),
        ]),
        replace: [{ table: 'actions', column: 'trace_id', values: [hashOf(1)] }],
        checkpoint: '5',
      }]);
      const stored = await sut.rows(sink, path, transfers);
      expect(stored).toHaveLength(4);
      expect(stored.find((row) => row.tx_hash === hashOf(1))?.comment).toBe('again');
      expect((await sut.rows(sink, path, actions)).map((row) => [row.trace_id, row.action_id])).toEqual([
        [hashOf(2), 'a'],
        [hashOf(7), 'x'],
      ]);
    });
  });

  it('keeps one row of a key listed at a second position once swept: the row read last, wherever the other lies, after a kill too', async () => {
    const path = await sut.place();
    const commit = (rows: TransferRow[], checkpoint: string): StreamCommit => ({ stream: 'transfers', rows: new Map([tableRows(transfers, rows)]), checkpoint });
    const stored = async (sink: Sink): Promise<[string, bigint, string | null][]> =>
      (await sut.rows(sink, path, transfers)).map((row) => [row.tx_hash, row.lt, row.comment] as [string, bigint, string | null]).sort((a, b) => Number(a[1] - b[1]));
    let sink = await sut.open(path, [transfers]);
    try {
      await sink.commitAll([commit([transfer(1), transfer(4)], '1')]);
      expect(await sink.sweepMovedKeys()).toEqual(new Map([['transfers', 0]]));
      // Transfer 1 again, a day later and 9e9 lt further: outside this commit's range, as a second row until the sweep.
      await sink.commitAll([commit([day2(1, { lt: 9_000_000_000n, comment: 'moved' })], '2')]);
      expect(await stored(sink)).toHaveLength(3);
      expect(await sink.sweepMovedKeys()).toEqual(new Map([['transfers', 1]]));
      expect(await stored(sink)).toEqual([[hashOf(4), 1_000_004n, null], [hashOf(1), 9_000_000_000n, 'moved']]);
      // Two commits of one run list transfer 5 at two lts; the process dies before its sweep.
      await sink.commitAll([commit([transfer(5, { lt: 2_000_000_000n })], '3')]);
      await sink.commitAll([commit([transfer(5, { lt: 3_000_000_000n, comment: 'last' })], '4')]);
      await sink.close();
      sink = await sut.open(path, [transfers]);
      expect(await stored(sink)).toHaveLength(4);
      expect(await sink.sweepMovedKeys()).toEqual(new Map([['transfers', 1]]));
      // Transfer 1 read back at its first lt: the last read wins, also below the stored one.
      await sink.commitAll([commit([transfer(1, { comment: 'back' })], '5')]);
      expect(await sink.sweepMovedKeys()).toEqual(new Map([['transfers', 1]]));
      expect(await sink.sweepMovedKeys()).toEqual(new Map());
      expect(await stored(sink)).toEqual([
        [hashOf(1), 1_000_001n, 'back'],
        [hashOf(4), 1_000_004n, null],
        [hashOf(5), 3_000_000_000n, 'last'],
      ]);
    } finally {
      await sink.close();
    }
  });

  it('records the range commits wrote until it is marked checked, across a sweep and a kill, and reads what is committed', async () => {
    const path = await sut.place();
    const commit = (rows: TransferRow[], checkpoint: string): StreamCommit => ({ stream: 'transfers', rows: new Map([tableRows(transfers, rows)]), checkpoint });
    const ranges = (sink: Sink): [string, bigint, bigint][] => [...sink.uncheckedRanges()].map(([table, range]) => [table, range.min, range.max]);
    const committed = (sink: Sink): Promise<unknown[][]> =>
      sink.readCommitted(async (connection) => (await connection.runAndReadAll('SELECT tx_hash, lt FROM transfers ORDER BY lt')).getRows());
    let sink = await sut.open(path, [transfers]);
    try {
      expect(ranges(sink)).toEqual([]);
      await sink.commitAll([commit([transfer(1), transfer(4)], '1')]);
      await sink.commitAll([commit([transfer(2, { lt: 2_000_000_000n })], '2')]);
      expect(ranges(sink)).toEqual([['transfers', 1_000_001n, 2_000_000_000n]]);
      await sink.sweepMovedKeys();
      expect(ranges(sink)).toEqual([['transfers', 1_000_001n, 2_000_000_000n]]);
      // The process dies before its checks: the next one finds the range.
      await sink.close();
      sink = await sut.open(path, [transfers]);
      expect(ranges(sink)).toEqual([['transfers', 1_000_001n, 2_000_000_000n]]);
      expect(await committed(sink)).toEqual([[hashOf(1), 1_000_001n], [hashOf(4), 1_000_004n], [hashOf(2), 2_000_000_000n]]);
      await sink.markChecked();
      expect(ranges(sink)).toEqual([]);
      await sink.commitAll([commit([transfer(5)], '3')]);
      expect(ranges(sink)).toEqual([['transfers', 1_000_005n, 1_000_005n]]);
      await sink.close();
      sink = await sut.open(path, [transfers]);
      expect(ranges(sink)).toEqual([['transfers', 1_000_005n, 1_000_005n]]);
    } finally {
      await sink.close();
    }
  });

  it('commits several batches as one, equal to committing them one after another, or none of them', async () => {
    const later: StreamCommit = {
      stream: 'transfers',
      rows: new Map([tableRows(transfers, [transfer(1, { comment: 'later' }), day2(4)]), tableRows(actions, [action(1, 'c')])]),
      checkpoint: '{"lt":"1000004"}',
    };
    const other: StreamCommit = { stream: 'actions', rows: new Map([tableRows(actions, [action(3, 'a')])]), checkpoint: '{"lt":"7"}' };
    const state = async (sink: Sink, path: string): Promise<unknown[]> => [
      await sut.rows(sink, path, transfers),
      await sut.rows(sink, path, actions),
      await sink.readCheckpoint('transfers'),
      await sink.readCheckpoint('actions'),
    ];
    const oneByOne = await withSink(async (sink, path) => {
      for (const batch of [firstBatch, later, other]) await sink.commitAll([batch]);
      return state(sink, path);
    });
    await withSink(async (sink, path) => {
      await sink.commitAll([firstBatch, later, other]);
      expect(await state(sink, path)).toEqual(oneByOne);
      const bad: StreamCommit = { stream: 'actions', rows: new Map([tableRows(actions, [action(9, 'a', { trace_end_lt: -1n })])]), checkpoint: 'never' };
      await expect(sink.commitAll([{ ...other, checkpoint: '{"lt":"8"}' }, bad])).rejects.toThrow(RowValueError);
      expect(await state(sink, path)).toEqual(oneByOne);
    });
    expect(oneByOne[0]).toHaveLength(4);
    expect((oneByOne[1] as { action_id: string }[]).map((row) => row.action_id).sort()).toEqual(['a', 'a', 'c']);
    expect(oneByOne[3]).toBe('{"lt":"7"}');
  });

  it('says per table how many rows took the place of a row of the same key, stored or earlier in the group', async () => {
    await withSink(async (sink) => {
      expect(await sink.commitAll([firstBatch])).toEqual(new Map([['transfers', 0], ['actions', 0]]));
      const resent: StreamCommit = {
        stream: 'transfers',
        // Transfer 1 is stored; trace 1 is re-sent with its action a (stored), without b, and with a new c.
        rows: new Map([tableRows(transfers, [transfer(1, { comment: 'again' }), transfer(4)]), tableRows(actions, [action(1, 'a'), action(1, 'c')])]),
        checkpoint: '{"lt":"1000004"}',
      };
      // Transfer 4 again, after the commit above in the same group; transfer 5 is new.
      const later: StreamCommit = { stream: 'transfers', rows: new Map([tableRows(transfers, [transfer(4, { comment: 'later' }), transfer(5)])]), checkpoint: '{"lt":"1000005"}' };
      expect(await sink.commitAll([resent, later])).toEqual(new Map([['transfers', 2], ['actions', 1]]));
      // Trace 2 re-sent twice in one group, then a trace dropped with no rows left: nothing of it takes a stored row's place but a.
      const twice: StreamCommit = { stream: 'actions', rows: new Map([tableRows(actions, [action(2, 'a'), action(2, 'd')])]), checkpoint: '6' };
      const dropped: StreamCommit = { stream: 'actions', rows: new Map(), replace: [{ table: 'actions', column: 'trace_id', values: [hashOf(1)] }], checkpoint: '7' };
      expect(await sink.commitAll([twice, twice, dropped])).toEqual(new Map([['actions', 3]]));
      expect(await sink.commitAll([firstBatch])).toEqual(new Map([['transfers', 3], ['actions', 1]]));
    });
  });

  it.each([
    { column: 'trace_end_lt', bad: { trace_end_lt: -1n }, message: /Table actions, row 1 \(trace_id=".*", action_id="b"\), column trace_end_lt: expected a logical time from 0 to 2\^63-1, got -1n/ },
    { column: 'trace_end_lt ≥ 2^63', bad: { trace_end_lt: 2n ** 63n }, message: /column trace_end_lt: expected a logical time from 0 to 2\^63-1, got 9223372036854775808n/ },
    { column: 'details', bad: { details: '{not json' }, message: /Table actions, row 1 .*column details: expected a string holding valid JSON/ },
  ])('is atomic: a row violating its kind midway ($column) leaves neither rows nor checkpoint', async ({ bad: overrides, message }) => {
    await withSink(async (sink, path) => {
      const bad: StreamCommit = {
        stream: 'transfers',
        rows: new Map([tableRows(transfers, [transfer(1)]), tableRows(actions, [action(1, 'a'), action(1, 'b', overrides)])]),
        checkpoint: 'never',
      };
      await expect(sink.commitAll([bad])).rejects.toThrow(RowValueError);
      await expect(sink.commitAll([bad])).rejects.toThrow(message);
      expect(await sut.rows(sink, path, transfers)).toEqual([]);
      expect(await sink.readCheckpoint('transfers')).toBeUndefined();
      await sink.commitAll([firstBatch]);
      expect(await sut.rows(sink, path, transfers)).toHaveLength(3);
    });
  });

  it('refuses an amount of 10^38 instead of truncating it', async () => {
    await withSink(async (sink, path) => {
      const batch = { stream: 's', rows: new Map([tableRows(transfers, [transfer(1, { amount: 10n ** 38n })])]), checkpoint: 'x' };
      await expect(sink.commitAll([batch])).rejects.toThrow(/column amount: expected a bigint with at most 38 digits/);
      expect(await sut.rows(sink, path, transfers)).toEqual([]);
    });
  });

  it('rolls back the rows when the checkpoint itself is invalid', async () => {
    await withSink(async (sink, path) => {
      const batch = { ...firstBatch, checkpoint: 42 as unknown as string };
      await expect(sink.commitAll([batch])).rejects.toThrow(/Table _etl_checkpoints.*column position: expected a string.*, got 42/);
      expect(await sut.rows(sink, path, transfers)).toEqual([]);
    });
  });

  it('stores rejects once per distinct item and runs by id', async () => {
    await withSink(async (sink, path) => {
      const reject = { endpoint: '/api/v3/actions', params: '{"limit":1000}', raw: '{"x":1}', reason: 'expected …' };
      await sink.commitAll([{ ...firstBatch, rejects: [reject, reject] }]);
      await sink.commitAll([{ ...firstBatch, rejects: [reject] }]);
      expect(await sut.rows(sink, path, etlRejects)).toEqual([
        { ...reject, stream: 'transfers', reject_id: expect.stringMatching(/^[0-9a-f]{64}$/), seen_at: NOW },
      ]);
      const run = {
        run_id: 'r1', command: 'sync', started_at: NOW, ended_at: null, status: 'running',
        rows: '{}', rows_replaced: null, requests: '{}', retries: 0, error: null, tip_seqno: null, tip_time: null,
      };
      await sink.recordRun(run);
      const ended = { ...run, ended_at: NOW + 5, status: 'ok', rows: '{"transfers":3}', rows_replaced: '{"transfers":0}', tip_seqno: 50_000_120, tip_time: NOW - 60 };
      await sink.recordRun(ended);
      expect(await sut.rows(sink, path, etlRuns)).toEqual([ended]);
    });
  });

  it('fails a second writer process fast with LockedError naming the file and the holder PID', async () => {
    const path = await sut.place();
    const holder = await holdDuckDBFile(sut.lockFile(path));
    try {
      const error = await sut.open(path, [transfers]).then(() => undefined, (err: unknown) => err);
      expect(error).toBeInstanceOf(LockedError);
      expect((error as LockedError).exitCode).toBe(3);
      expect((error as Error).message).toContain(`${sut.lockFile(path)} is locked by process ${holder.pid}`);
    } finally {
      await holder.release();
    }
  });

  it('detects schema drift against the columns an earlier open created, naming the table and the column', async () => {
    const path = await sut.place();
    const drifted = defineTable({ ...transfers, columns: { ...transfers.columns, amount: int64 } });
    await (await sut.open(path, [drifted])).close();
    const error = await sut.open(path, [transfers]).then(() => undefined, (err: unknown) => err);
    expect(error).toBeInstanceOf(SchemaDriftError);
    expect((error as Error).message).toContain('Table transfers in');
    expect((error as Error).message).toContain('column amount is BIGINT NOT NULL, expected DECIMAL(38,0) NOT NULL');
  });

  it('refuses a warehouse written by another schema version', async () => {
    const path = await sut.place();
    await (await sut.open(path, [transfers], 0)).close();
    await expect(sut.open(path, [transfers], 1)).rejects.toThrow(SchemaVersionError);
    await expect(sut.open(path, [transfers], 1)).rejects.toThrow(/has schema version 0, this chain-etl writes version 1/);
  });

  it('refuses rows for a table it was not opened with', async () => {
    await withSink(async (sink) => {
      await expect(sink.commitAll([{ stream: 's', rows: new Map([['nope', []]]), checkpoint: 'x' }])).rejects.toThrow(/table nope, which was not opened/);
    });
  });
});
