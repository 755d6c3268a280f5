import { describe, expect, it } from 'vitest';
import { AMOUNT_LIMIT, amount, bool, date, hash, int32, int64, json, rawAddress, text, textList, timestamptz, uint64 } from '../../src/core/column-kinds.js';
import { createTableSql } from '../../src/core/ddl.js';
import { defineTable, type Row } from '../../src/core/table.js';
import { appendRows, appendValues } from '../../src/load/engine/append.js';
import { readRows } from '../../src/load/engine/read.js';
import { withDuckDB } from '../support/with-duckdb.js';

const HASH = Buffer.alloc(32, 9).toString('base64');
const ADDRESS = `0:${'AB'.repeat(32)}`;

/** Every kind, nullable, so that each column also holds NULLs. */
const table = defineTable({
  name: 'every_kind',
  doc: 'Every kind, nullable.',
  columns: {
    n: int32,
    a_text: text.nullable(), a_bool: bool.nullable(), a_int32: int32.nullable(), a_int64: int64.nullable(),
    a_uint64: uint64.nullable(), a_amount: amount.nullable(), a_ts: timestamptz.nullable(), a_date: date.nullable(),
    a_json: json.nullable(), a_list: textList.nullable(), a_hash: hash.nullable(), a_address: rawAddress.nullable(),
  },
  primaryKey: ['n'],
});

const TEXTS = ['', 'short', 'exactly12chr', 'thirteen char', 'é ü 🎉 \u0000 nul inside', 'x'.repeat(5000)];
const AMOUNTS = [0n, -1n, 2n ** 64n, 2n ** 120n + 7n, AMOUNT_LIMIT - 1n, -(AMOUNT_LIMIT - 1n)];
const DAYS = ['0001-01-01', '1970-01-01', '2024-02-29', '9999-12-31'];

/** Row `n`: values cycling through edge cases, one column NULL in turn (and all NULL every 13th row). */
function rowOf(n: number): Row {
  const row: Record<string, unknown> = {
    n,
    a_text: TEXTS[n % TEXTS.length],
    a_bool: n % 2 === 0,
    a_int32: n % 3 === 0 ? -(2 ** 31) : 2 ** 31 - 1 - n,
    a_int64: n % 2 === 0 ? -(2n ** 63n) + BigInt(n) : 2n ** 63n - 1n - BigInt(n),
    a_uint64: 2n ** 64n - 1n - BigInt(n),
    a_amount: AMOUNTS[n % AMOUNTS.length],
    a_ts: n % 2 === 0 ? -62_135_596_800 + n : 253_402_300_799 - n,
    a_date: DAYS[n % DAYS.length],
    a_json: `{"n":${n},"s":"${TEXTS[n % 4]}"}`,
    a_list: n % 4 === 0 ? [] : TEXTS.slice(0, n % TEXTS.length),
    a_hash: HASH,
    a_address: ADDRESS,
  };
  const columns = table.columnNames.slice(1);
  if (n % 13 === 0) for (const column of columns) row[column] = null;
  else row[columns[n % columns.length]!] = null;
  return row;
}

describe('appendRows', () => {
  it('round-trips every kind exactly over thousands of rows, NULLs in every column included', async () => {
    // More than DuckDB's vector size (2048) twice over: the appender flushes several chunks.
    const rows = Array.from({ length: 2 * 2048 + 77 }, (_, n) => rowOf(n));
    const back = await withDuckDB(':memory:', {}, async (connection) => {
      await connection.run(createTableSql(table));
      await appendRows(connection, { name: table.name }, table, rows);
      return readRows(connection, table);
    });
    expect(back.length).toBe(rows.length);
    expect([...back].sort((a, b) => (a.n as number) - (b.n as number))).toEqual(rows);
  });

  it('appends trailing columns after the table columns, and single-column values', async () => {
    const pair = defineTable({ name: 'pair', doc: 'A pair.', columns: { k: uint64, v: amount.nullable() }, primaryKey: ['k'] });
    const rows = [{ k: 1n, v: 2n ** 100n }, { k: 2n, v: null }];
    await withDuckDB(':memory:', {}, async (connection) => {
      await connection.run(`CREATE TABLE pair (k UBIGINT, v DECIMAL(38,0), day VARCHAR)`);
      await appendRows(connection, { name: 'pair' }, pair, rows, [{ kind: text.nullable(), value: (row) => (row['v'] === null ? null : `day ${String(row['k'])}`) }]);
      const stored = await connection.runAndReadAll('SELECT k::VARCHAR, v::VARCHAR, day FROM pair ORDER BY k');
      expect(stored.getRows()).toEqual([['1', String(2n ** 100n), 'day 1'], ['2', null, null]]);
      await connection.run('CREATE TABLE lts (v UBIGINT)');
      await appendValues(connection, { name: 'lts' }, uint64, [0n, 2n ** 64n - 1n]);
      expect((await connection.runAndReadAll('SELECT v::VARCHAR FROM lts ORDER BY v')).getRows()).toEqual([['0'], ['18446744073709551615']]);
    });
  });

  it('refuses a table whose column count differs, appending nothing', async () => {
    const pair = defineTable({ name: 'pair', doc: 'A pair.', columns: { k: uint64, v: amount }, primaryKey: ['k'] });
    await withDuckDB(':memory:', {}, async (connection) => {
      await connection.run('CREATE TABLE pair (k UBIGINT)');
      await expect(appendRows(connection, { name: 'pair' }, pair, [{ k: 1n, v: 1n }])).rejects.toThrow('Table pair has 1 columns, expected 2');
      expect((await connection.runAndReadAll('SELECT count(*)::INTEGER FROM pair')).getRows()).toEqual([[0]]);
    });
  });
});
