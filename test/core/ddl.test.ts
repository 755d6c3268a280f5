import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { bookkeepingTables, etlRuns } from '../../src/core/bookkeeping.js';
import { amount, hash, json, rawAddress, text, textList, timestamptz, uint64 } from '../../src/core/column-kinds.js';
import { commentsSql, createTableSql } from '../../src/core/ddl.js';
import { defineTable } from '../../src/core/table.js';
import { utcDay } from '../../src/core/utc-day.js';

const transfers = defineTable({
  name: 'jetton_transfers',
  doc: "One jetton transfer; it's keyed by its transaction.",
  columns: {
    transaction_hash: hash.doc('Hash of the transaction.'),
    transaction_lt: uint64.doc('Logical time of the transaction.'),
    transaction_now: timestamptz.doc('Block time.'),
    source: rawAddress.nullable().doc('Sender wallet owner.'),
    amount: amount.doc('Amount in jetton units.'),
    forward_payload: json.nullable(),
    accounts: textList.doc('Accounts involved.'),
    type: text.doc('A reserved word as a column name.'),
  },
  primaryKey: ['transaction_hash'],
  partitionBy: (row) => utcDay(row.transaction_now),
  clusterBy: 'transaction_lt',
});

describe('createTableSql', () => {
  it('renders the DDL golden, constraints and quoting included', () => {
    expect(createTableSql(transfers)).toBe(`-- Key ("transaction_hash"): unique, kept so by chain-etl's delete-then-insert; no index.
CREATE TABLE IF NOT EXISTS "jetton_transfers" (
  "transaction_hash" VARCHAR NOT NULL,
  "transaction_lt" UBIGINT NOT NULL,
  "transaction_now" TIMESTAMPTZ NOT NULL,
  "source" VARCHAR,
  "amount" DECIMAL(38,0) NOT NULL,
  "forward_payload" JSON,
  "accounts" VARCHAR[] NOT NULL,
  "type" VARCHAR NOT NULL
);`);
  });

  it('declares PRIMARY KEY only for a table with keyIndex', () => {
    expect(createTableSql(etlRuns)).toContain('  "tip_time" TIMESTAMPTZ,\n  PRIMARY KEY ("run_id")\n);');
    expect(createTableSql(etlRuns)).not.toContain('-- Key');
  });

  it('renders staging tables without constraints, with extra columns', () => {
    expect(
      createTableSql(etlRuns, { name: '__stage', temporary: true, constraints: false, extraColumns: [['__date', 'VARCHAR']] }),
    ).toBe(`CREATE TEMP TABLE IF NOT EXISTS "__stage" (
  "run_id" VARCHAR,
  "command" VARCHAR,
  "started_at" TIMESTAMPTZ,
  "ended_at" TIMESTAMPTZ,
  "status" VARCHAR,
  "rows" JSON,
  "rows_replaced" JSON,
  "requests" JSON,
  "retries" INTEGER,
  "error" VARCHAR,
  "tip_seqno" INTEGER,
  "tip_time" TIMESTAMPTZ,
  "__date" VARCHAR
);`);
  });

  it('renders COMMENT ON statements with escaped quotes, falling back to the kind doc', () => {
    const sql = commentsSql(transfers);
    expect(sql.split('\n')[0]).toBe(`COMMENT ON TABLE "jetton_transfers" IS 'One jetton transfer; it''s keyed by its transaction.';`);
    expect(sql).toContain(`COMMENT ON COLUMN "jetton_transfers"."forward_payload" IS 'JSON text;`);
  });

  it('produces DDL that DuckDB accepts, with the documented types and comments', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      for (const table of [...bookkeepingTables, transfers]) {
        await connection.run(createTableSql(table));
        await connection.run(commentsSql(table));
      }
      const reader = await connection.runAndReadAll(
        `SELECT column_name, data_type, comment FROM duckdb_columns() WHERE table_name = 'jetton_transfers' ORDER BY column_index`,
      );
      expect(reader.getRows().slice(0, 5)).toEqual([
        ['transaction_hash', 'VARCHAR', 'Hash of the transaction.'],
        ['transaction_lt', 'UBIGINT', 'Logical time of the transaction.'],
        ['transaction_now', 'TIMESTAMP WITH TIME ZONE', 'Block time.'],
        ['source', 'VARCHAR', 'Sender wallet owner.'],
        ['amount', 'DECIMAL(38,0)', 'Amount in jetton units.'],
      ]);
      const tables = await connection.runAndReadAll(`SELECT table_name FROM duckdb_tables() ORDER BY table_name`);
      expect(tables.getRows().flat()).toEqual(['_etl_checkpoints', '_etl_meta', '_etl_rejects', '_etl_runs', 'jetton_transfers']);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
