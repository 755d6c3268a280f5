import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { etlRejects, etlRuns } from '../../src/core/bookkeeping.js';
import { LockedError } from '../../src/core/errors.js';
import { RowValueError, SchemaDriftError, SchemaVersionError } from '../../src/core/schema-errors.js';
import { readRows } from '../../src/load/duckdb-read.js';
import { DuckDBSink } from '../../src/load/duckdb-sink.js';
import { tableRows } from '../../src/core/stream.js';
import type { StreamCommit } from '../../src/load/sink.js';
import { holdDuckDBFile } from '../support/lock-holder.js';
import { BIG, MAX_LT, action, actions, hashOf, transfer, transfers } from './tables.js';
import { useTempDir } from './temp-dir.js';

const tempDir = useTempDir('duckdb-sink');

/** Rows in DuckDB's VARCHAR order (byte order), as `readRows` returns them. */
function byHash<T extends Readonly<Record<string, unknown>>>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => (String(a['tx_hash']) < String(b['tx_hash']) ? -1 : 1));
}
const NOW = 1_700_000_000;

async function openSink(path: string): Promise<DuckDBSink> {
  const sink = new DuckDBSink({ path, now: () => NOW });
  await sink.open([transfers, actions]);
  return sink;
}

async function withSink<T>(use: (sink: DuckDBSink, path: string) => Promise<T>): Promise<T> {
  const path = join(await tempDir(), 'warehouse.duckdb');
  const sink = await openSink(path);
  try {
    return await use(sink, path);
  } finally {
    await sink.close();
  }
}

const firstBatch: StreamCommit = {
  stream: 'transfers',
  rows: new Map([
    tableRows(transfers, [
      transfer(1),
      transfer(2, { lt: MAX_LT, amount: -(10n ** 38n - 1n) }),
      transfer(3, { amount: 10n ** 38n - 1n, source: null }),
    ]),
    tableRows(actions, [action(1, 'a'), action(1, 'b', { accounts: [] }), action(2, 'a')]),
  ]),
  checkpoint: '{"lt":"1000003"}',
};

describe('DuckDBSink', () => {
  it('reads back exactly what it committed, bigints beyond 2^100 included', async () => {
    await withSink(async (sink) => {
      await sink.commitAll([firstBatch]);
      expect(await readRows(sink.connection, transfers)).toEqual(
        byHash(firstBatch.rows.get('transfers')!),
      );
      const amounts = await sink.connection.runAndReadAll('SELECT amount::VARCHAR FROM transfers ORDER BY lt');
      expect(amounts.getRows().map(([v]) => v)).toEqual([String(BIG + 1n), String(10n ** 38n - 1n), String(-(10n ** 38n - 1n))]);
      expect(await readRows(sink.connection, actions)).toHaveLength(3);
      expect(await sink.readCheckpoint('transfers')).toBe('{"lt":"1000003"}');
      expect(await sink.readCheckpoint('other')).toBeUndefined();
    });
  });

  it('keeps the checkpoint across reopen', async () => {
    const path = join(await tempDir(), 'warehouse.duckdb');
    const sink = await openSink(path);
    await sink.commitAll([firstBatch]);
    await sink.close();
    const again = await openSink(path);
    try {
      expect(await again.readCheckpoint('transfers')).toBe('{"lt":"1000003"}');
      expect(await readRows(again.connection, transfers)).toHaveLength(3);
    } finally {
      await again.close();
    }
  });

  it('replays idempotently: the same commit twice leaves the same rows', async () => {
    await withSink(async (sink) => {
      await sink.commitAll([firstBatch]);
      const once = [await readRows(sink.connection, transfers), await readRows(sink.connection, actions)];
      await sink.commitAll([firstBatch]);
      expect([await readRows(sink.connection, transfers), await readRows(sink.connection, actions)]).toEqual(once);
    });
  });

  it('upserts by primary key, the last row of a key in a batch winning', async () => {
    await withSink(async (sink) => {
      await sink.commitAll([firstBatch]);
      const rows = [transfer(1, { comment: 'first' }), transfer(1, { comment: 'second' })];
      await sink.commitAll([{ stream: 'transfers', rows: new Map([tableRows(transfers, rows)]), checkpoint: '2' }]);
      const stored = await readRows(sink.connection, transfers);
      expect(stored).toHaveLength(3);
      expect(stored.find((row) => row.tx_hash === hashOf(1))?.comment).toBe('second');
    });
  });

  it('indexes the keys of bookkeeping tables only; data tables stay unique by delete-then-insert', async () => {
    await withSink(async (sink) => {
      const indexed = await sink.connection.runAndReadAll(
        "SELECT table_name FROM duckdb_constraints() WHERE constraint_type = 'PRIMARY KEY' AND database_name = current_database() ORDER BY 1",
      );
      expect(indexed.getRows().map(([name]) => name)).toEqual(['_etl_checkpoints', '_etl_meta', '_etl_rejects', '_etl_runs']);
      await sink.commitAll([firstBatch]);
      await sink.commitAll([firstBatch]);
      const keys = await sink.connection.runAndReadAll('SELECT count(*), count(DISTINCT tx_hash) FROM transfers');
      expect(keys.getRows()).toEqual([[3n, 3n]]);
    });
  });

  it('keeps writing a warehouse whose data tables an earlier build created with PRIMARY KEY', async () => {
    const path = join(await tempDir(), 'warehouse.duckdb');
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    await connection.run(`CREATE TABLE transfers (tx_hash VARCHAR NOT NULL, lt UBIGINT NOT NULL, utime TIMESTAMPTZ NOT NULL,
      source VARCHAR, amount DECIMAL(38,0) NOT NULL, comment VARCHAR, PRIMARY KEY (tx_hash))`);
    connection.closeSync();
    instance.closeSync();
    const sink = new DuckDBSink({ path, now: () => NOW });
    await sink.open([transfers]);
    try {
      const batch = { ...firstBatch, rows: new Map([...firstBatch.rows].filter(([table]) => table === 'transfers')) };
      await sink.commitAll([batch]);
      await sink.commitAll([batch]);
      expect(await readRows(sink.connection, transfers)).toEqual(byHash(batch.rows.get('transfers')!));
    } finally {
      await sink.close();
    }
  });

  it('replaces by trace: old action ids of a re-sent trace disappear, other traces stay', async () => {
    await withSink(async (sink) => {
      await sink.commitAll([firstBatch]);
      await sink.commitAll([{
        stream: 'actions',
        rows: new Map([tableRows(actions, [action(1, 'c', { type: 'swap' })])]),
        checkpoint: '3',
      }]);
      const ids = (await readRows(sink.connection, actions)).map((row) => [row.trace_id, row.action_id]);
      expect(ids).toEqual([
        [hashOf(1), 'c'],
        [hashOf(2), 'a'],
      ]);
      await sink.commitAll([{
        stream: 'actions',
        rows: new Map(),
        replace: [{ table: 'actions', column: 'trace_id', values: [hashOf(2)] }],
        checkpoint: '4',
      }]);
      expect((await readRows(sink.connection, actions)).map((row) => row.action_id)).toEqual(['c']);
    });
  });

  it('replaces keys and traces whatever their distance in lt from the rest of the batch', async () => {
    await withSink(async (sink) => {
      await sink.commitAll([firstBatch]);
      const far = { trace_end_lt: 9_000_000_000n };
      await sink.commitAll([{
        stream: 'actions',
        rows: new Map([
          tableRows(transfers, [transfer(1, { comment: 'again' }), transfer(9, { lt: 2n ** 63n })]),
          tableRows(actions, [action(7, 'x', far)]),
        ]),
        replace: [{ table: 'actions', column: 'trace_id', values: [hashOf(1)] }],
        checkpoint: '5',
      }]);
      const stored = await readRows(sink.connection, transfers);
      expect(stored).toHaveLength(4);
      expect(stored.find((row) => row.tx_hash === hashOf(1))?.comment).toBe('again');
      expect((await readRows(sink.connection, actions)).map((row) => [row.trace_id, row.action_id])).toEqual([
        [hashOf(2), 'a'],
        [hashOf(7), 'x'],
      ]);
    });
  });

  it('commits several batches as one, equal to committing them one after another, or none of them', async () => {
    const later: StreamCommit = {
      stream: 'transfers',
      rows: new Map([tableRows(transfers, [transfer(1, { comment: 'later' }), transfer(4)]), tableRows(actions, [action(1, 'c')])]),
      checkpoint: '{"lt":"1000004"}',
    };
    const other: StreamCommit = { stream: 'actions', rows: new Map([tableRows(actions, [action(3, 'a')])]), checkpoint: '{"lt":"7"}' };
    const state = async (sink: DuckDBSink): Promise<unknown> => [
      await readRows(sink.connection, transfers),
      await readRows(sink.connection, actions),
      await sink.readCheckpoint('transfers'),
      await sink.readCheckpoint('actions'),
    ];
    const oneByOne = await withSink(async (sink) => {
      for (const batch of [firstBatch, later, other]) await sink.commitAll([batch]);
      return state(sink);
    });
    await withSink(async (sink) => {
      await sink.commitAll([firstBatch, later, other]);
      expect(await state(sink)).toEqual(oneByOne);
      const bad: StreamCommit = { stream: 'actions', rows: new Map([tableRows(actions, [action(9, 'a', { trace_end_lt: -1n })])]), checkpoint: 'never' };
      await expect(sink.commitAll([{ ...other, checkpoint: '{"lt":"8"}' }, bad])).rejects.toThrow(RowValueError);
      expect(await state(sink)).toEqual(oneByOne);
    });
    expect((oneByOne as unknown[])[0]).toHaveLength(4);
    expect((oneByOne as unknown[])[3]).toBe('{"lt":"7"}');
  });

  it('is atomic: a row violating its kind midway leaves neither rows nor checkpoint', async () => {
    await withSink(async (sink) => {
      const bad: StreamCommit = {
        stream: 'transfers',
        rows: new Map([
          tableRows(transfers, [transfer(1)]),
          tableRows(actions, [action(1, 'a'), action(1, 'b', { trace_end_lt: -1n })]),
        ]),
        checkpoint: 'never',
      };
      await expect(sink.commitAll([bad])).rejects.toThrow(RowValueError);
      await expect(sink.commitAll([bad])).rejects.toThrow(
        /Table actions, row 1 \(trace_id=".*", action_id="b"\), column trace_end_lt: expected a bigint from 0 to 2\^64-1, got -1n/,
      );
      expect(await readRows(sink.connection, transfers)).toEqual([]);
      expect(await sink.readCheckpoint('transfers')).toBeUndefined();
      await sink.commitAll([firstBatch]);
      expect(await readRows(sink.connection, transfers)).toHaveLength(3);
    });
  });

  it('refuses an amount of 10^38 instead of truncating it', async () => {
    await withSink(async (sink) => {
      const batch = { stream: 's', rows: new Map([tableRows(transfers, [transfer(1, { amount: 10n ** 38n })])]), checkpoint: 'x' };
      await expect(sink.commitAll([batch])).rejects.toThrow(/column amount: expected a bigint with at most 38 digits/);
      expect(await readRows(sink.connection, transfers)).toEqual([]);
    });
  });

  it('rolls back the rows when the checkpoint itself is invalid', async () => {
    await withSink(async (sink) => {
      const batch = { ...firstBatch, checkpoint: 42 as unknown as string };
      await expect(sink.commitAll([batch])).rejects.toThrow(/Table _etl_checkpoints.*column position: expected a string.*, got 42/);
      expect(await readRows(sink.connection, transfers)).toEqual([]);
    });
  });

  it('stores rejects once per distinct item and runs by id', async () => {
    await withSink(async (sink) => {
      const reject = { endpoint: '/api/v3/actions', params: '{"limit":1000}', raw: '{"x":1}', reason: 'expected …' };
      const batch = { ...firstBatch, rejects: [reject, reject] };
      await sink.commitAll([batch]);
      await sink.commitAll([batch]);
      const rejects = await readRows(sink.connection, etlRejects);
      expect(rejects).toEqual([{ ...reject, stream: 'transfers', reject_id: expect.stringMatching(/^[0-9a-f]{64}$/), seen_at: NOW }]);
      const run = {
        run_id: 'r1', command: 'sync', started_at: NOW, ended_at: null, status: 'running',
        rows: '{}', requests: '{}', retries: 0, error: null,
      };
      await sink.recordRun(run);
      await sink.recordRun({ ...run, ended_at: NOW + 5, status: 'ok', rows: '{"transfers":3}' });
      expect(await readRows(sink.connection, etlRuns)).toEqual([{ ...run, ended_at: NOW + 5, status: 'ok', rows: '{"transfers":3}' }]);
    });
  });

  it('fails a second writer process fast with LockedError naming the file and the holder PID', async () => {
    const path = join(await tempDir(), 'warehouse.duckdb');
    const holder = await holdDuckDBFile(path);
    try {
      const sink = new DuckDBSink({ path });
      const error = await sink.open([transfers]).then(() => undefined, (err: unknown) => err);
      expect(error).toBeInstanceOf(LockedError);
      expect((error as LockedError).exitCode).toBe(3);
      expect((error as Error).message).toContain(path);
      expect((error as Error).message).toContain(`process ${holder.pid}`);
    } finally {
      await holder.release();
    }
  });

  it('detects schema drift before appending, naming the table and the columns', async () => {
    const path = join(await tempDir(), 'warehouse.duckdb');
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    await connection.run(`CREATE TABLE transfers (tx_hash VARCHAR PRIMARY KEY, lt UBIGINT NOT NULL, utime TIMESTAMPTZ NOT NULL,
      amount HUGEINT NOT NULL, source VARCHAR, comment VARCHAR, memo VARCHAR)`);
    connection.closeSync();
    instance.closeSync();
    const sink = new DuckDBSink({ path });
    const error = await sink.open([transfers]).then(() => undefined, (err: unknown) => err);
    expect(error).toBeInstanceOf(SchemaDriftError);
    expect((error as Error).message).toMatch(/^Table transfers in .*warehouse\.duckdb does not match its definition/);
    expect((error as Error).message).toContain('column amount is HUGEINT NOT NULL, expected DECIMAL(38,0) NOT NULL');
    expect((error as Error).message).toContain('column memo (VARCHAR) is not in the definition');
  });

  it('detects columns in another order', async () => {
    const path = join(await tempDir(), 'warehouse.duckdb');
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    await connection.run(`CREATE TABLE transfers (tx_hash VARCHAR PRIMARY KEY, lt UBIGINT NOT NULL, utime TIMESTAMPTZ NOT NULL,
      amount DECIMAL(38,0) NOT NULL, source VARCHAR, comment VARCHAR)`);
    connection.closeSync();
    instance.closeSync();
    await expect(new DuckDBSink({ path }).open([transfers])).rejects.toThrow(
      /columns are in order \(tx_hash, lt, utime, amount, source, comment\), expected \(tx_hash, lt, utime, source, amount, comment\)/,
    );
  });

  it('refuses a warehouse written by another schema version', async () => {
    const path = join(await tempDir(), 'warehouse.duckdb');
    const old = new DuckDBSink({ path, schemaVersion: 0 });
    await old.open([transfers]);
    await old.close();
    await expect(new DuckDBSink({ path, schemaVersion: 1 }).open([transfers])).rejects.toThrow(SchemaVersionError);
    await expect(new DuckDBSink({ path, schemaVersion: 1 }).open([transfers])).rejects.toThrow(
      /has schema version 0, this chain-etl writes version 1/,
    );
  });

  it('refuses rows for a table it was not opened with', async () => {
    await withSink(async (sink) => {
      await expect(
        sink.commitAll([{ stream: 's', rows: new Map([['nope', []]]), checkpoint: 'x' }]),
      ).rejects.toThrow(/table nope, which was not opened/);
    });
  });
});
