/**
 * What only DuckDBSink has: key indexes on bookkeeping tables alone, files an earlier build created,
 * schema drift in a table created by hand. The contract both sinks hold is in sink-contract.test.ts.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SchemaDriftError } from '../../src/core/schema-errors.js';
import type { AnyTable } from '../../src/core/table.js';
import { readRows } from '../../src/load/engine/read.js';
import { DuckDBSink } from '../../src/load/duckdb/sink.js';
import { byHash } from './read-back.js';
import { actions, firstBatch, transfers } from './tables.js';
import { useTempDir } from './temp-dir.js';

const tempDir = useTempDir('duckdb-sink');
const NOW = 1_700_000_000;

async function openSink(path: string, tables: readonly AnyTable[] = [transfers, actions]): Promise<DuckDBSink> {
  const sink = new DuckDBSink({ path, now: () => NOW });
  await sink.open(tables);
  return sink;
}

/** A DuckDB file in which `ddl` created the transfers table, as an earlier build or a user would have. */
async function fileWith(ddl: string): Promise<string> {
  const path = join(await tempDir(), 'warehouse.duckdb');
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  await connection.run(ddl);
  connection.closeSync();
  instance.closeSync();
  return path;
}

describe('DuckDBSink', () => {
  it('indexes the keys of bookkeeping tables only; data tables stay unique by delete-then-insert', async () => {
    const sink = await openSink(join(await tempDir(), 'warehouse.duckdb'));
    try {
      const indexed = await sink.connection.runAndReadAll(
        "SELECT table_name FROM duckdb_constraints() WHERE constraint_type = 'PRIMARY KEY' AND database_name = current_database() ORDER BY 1",
      );
      expect(indexed.getRows().map(([name]) => name)).toEqual(['_etl_checkpoints', '_etl_meta', '_etl_rejects', '_etl_runs']);
      await sink.commitAll([firstBatch]);
      await sink.commitAll([firstBatch]);
      const keys = await sink.connection.runAndReadAll('SELECT count(*), count(DISTINCT tx_hash) FROM transfers');
      expect(keys.getRows()).toEqual([[3n, 3n]]);
    } finally {
      await sink.close();
    }
  });

  it('keeps writing a warehouse whose data tables an earlier build created with PRIMARY KEY', async () => {
    const path = await fileWith(`CREATE TABLE transfers (tx_hash VARCHAR NOT NULL, lt UBIGINT NOT NULL, utime TIMESTAMPTZ NOT NULL,
      source VARCHAR, amount DECIMAL(38,0) NOT NULL, comment VARCHAR, PRIMARY KEY (tx_hash))`);
    const sink = await openSink(path, [transfers]);
    try {
      const batch = { ...firstBatch, rows: new Map([...firstBatch.rows].filter(([table]) => table === 'transfers')) };
      await sink.commitAll([batch]);
      await sink.commitAll([batch]);
      expect(await readRows(sink.connection, transfers)).toEqual(byHash(batch.rows.get('transfers')!));
    } finally {
      await sink.close();
    }
  });

  it('detects schema drift before appending, naming the table and the columns', async () => {
    const path = await fileWith(`CREATE TABLE transfers (tx_hash VARCHAR PRIMARY KEY, lt UBIGINT NOT NULL, utime TIMESTAMPTZ NOT NULL,
      amount HUGEINT NOT NULL, source VARCHAR, comment VARCHAR, memo VARCHAR)`);
    const error = await new DuckDBSink({ path }).open([transfers]).then(() => undefined, (err: unknown) => err);
    expect(error).toBeInstanceOf(SchemaDriftError);
    expect((error as Error).message).toMatch(/^Table transfers in .*warehouse\.duckdb does not match its definition/);
    expect((error as Error).message).toContain('column amount is HUGEINT NOT NULL, expected DECIMAL(38,0) NOT NULL');
    expect((error as Error).message).toContain('column memo (VARCHAR) is not in the definition');
  });

  it('detects columns in another order', async () => {
    const path = await fileWith(`CREATE TABLE transfers (tx_hash VARCHAR PRIMARY KEY, lt UBIGINT NOT NULL, utime TIMESTAMPTZ NOT NULL,
      amount DECIMAL(38,0) NOT NULL, source VARCHAR, comment VARCHAR)`);
    await expect(new DuckDBSink({ path }).open([transfers])).rejects.toThrow(
      /columns are in order \(tx_hash, lt, utime, amount, source, comment\), expected \(tx_hash, lt, utime, source, amount, comment\)/,
    );
  });
});
