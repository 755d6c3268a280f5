import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import {
  AMOUNT_LIMIT,
  allKinds,
  amount,
  bool,
  date,
  hash,
  int32,
  int64,
  json,
  rawAddress,
  text,
  textList,
  timestamptz,
  logicalTime,
  uint64,
} from '../../src/core/column-kinds.js';
import { createTableSql } from '../../src/core/ddl.js';
import { defineTable } from '../../src/core/table.js';
import { appendRows } from '../../src/load/engine/append.js';
import { readRows } from '../../src/load/engine/read.js';

const HASH = Buffer.alloc(32, 7).toString('base64');
const ADDRESS = `-1:${'3'.repeat(64)}`;

describe('column kinds', () => {
  it.each([
    ['amount', amount, [0n, AMOUNT_LIMIT - 1n, -(AMOUNT_LIMIT - 1n), 2n ** 120n + 7n], [AMOUNT_LIMIT, -AMOUNT_LIMIT, 1, '1']],
    ['uint64', uint64, [0n, 2n ** 64n - 1n], [2n ** 64n, -1n, 5]],
    ['logicalTime', logicalTime, [0n, 2n ** 63n - 1n], [2n ** 63n, 2n ** 64n - 1n, -1n, 5]],
    ['int64', int64, [-(2n ** 63n), 2n ** 63n - 1n], [2n ** 63n, -(2n ** 63n) - 1n, 1]],
    ['int32', int32, [-(2 ** 31), 2 ** 31 - 1, 0], [2 ** 31, 1.5, 1n, Number.NaN]],
    ['timestamptz', timestamptz, [0, 1_700_000_000, -1], [1.5, 253_402_300_800, '1700000000']],
    ['date', date, ['2024-02-29', '0001-01-01', '9999-12-31'], ['2023-02-29', '0000-12-31', '2024-1-01', 19_000, null]],
    ['json', json, ['{"a":1}', '[]', 'null', '"s"'], ['{a:1}', '', 1]],
    ['textList', textList, [[], ['a', 'b']], [[1], 'a', [null]]],
    ['hash', hash, [HASH], [HASH.slice(0, 43), Buffer.alloc(31).toString('base64'), HASH.replace('=', '')]],
    ['rawAddress', rawAddress, [ADDRESS, `0:${'A'.repeat(64)}`], [`0:${'a'.repeat(64)}`, 'EQAAAA', `0:${'A'.repeat(63)}`]],
    ['text', text, ['', 'é'], [null, undefined, 1]],
    ['bool', bool, [true, false], [0, 'true', null]],
  ] as const)('%s accepts its values and names what it expected for others', (_name, kind, good, bad) => {
    for (const value of good) expect(kind.problem(value)).toBeUndefined();
    for (const value of bad) expect(kind.problem(value)).toMatch(/^expected .+, got .+/);
  });

  it('says what an out-of-range amount was, digit for digit', () => {
    expect(amount.problem(AMOUNT_LIMIT)).toBe(
      'expected a bigint with at most 38 digits (|v| < 10^38), got 100000000000000000000000000000000000000n',
    );
  });

  it('nullable() accepts null, keeps the doc, and is idempotent', () => {
    const kind = amount.doc('Value.').nullable();
    expect([kind.problem(null), kind.problem(1n), kind.isNullable, kind.description, kind.sqlType]).toEqual([
      undefined, undefined, true, 'Value.', 'DECIMAL(38,0)',
    ]);
    expect(kind.problem(undefined)).toMatch(/got undefined \(or null\)$/);
    expect(kind.nullable()).toBe(kind);
    expect(kind.doc('Other.').description).toBe('Other.');
    expect(amount.description).toBe('');
  });

  it('parses wire values into exact row values and refuses out-of-range ones', () => {
    expect(amount.wire.parse('1329227995784915872903807060280344583')).toBe(2n ** 120n + 7n);
    expect(uint64.wire.parse('18446744073709551615')).toBe(2n ** 64n - 1n);
    expect(uint64.wire.parse(42)).toBe(42n);
    expect(timestamptz.wire.parse(1_700_000_000)).toBe(1_700_000_000);
    expect(json.wire.parse({ a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
    expect(amount.nullable().wire.parse(null)).toBeNull();
    expect(() => amount.wire.parse('1'.repeat(39))).toThrow(/at most 38 digits/);
    expect(() => uint64.wire.parse('-1')).toThrow(/from 0 to 2\^64-1/);
    expect(uint64.wire.safeParse('1e3').error?.issues[0]?.message).toBe('expected an integer (JSON number or decimal string; no leading zeros, fraction, exponent or -0), got "1e3"');
    expect(() => hash.wire.parse('abc')).toThrow(/32-byte hash/);
  });

  it('round-trips every kind through a DuckDB appender exactly', async () => {
    const table = defineTable({
      name: 'all_kinds',
      doc: 'Every kind.',
      columns: {
        a_text: text, a_bool: bool, a_int32: int32, a_int64: int64, a_lt: logicalTime, a_uint64: uint64, a_amount: amount,
        a_ts: timestamptz, a_date: date, a_json: json, a_list: textList, a_hash: hash, a_address: rawAddress,
        a_null: amount.nullable(),
      },
      primaryKey: ['a_text'],
    });
    expect(Object.values(table.columns).slice(0, allKinds.length).map((kind) => kind.kind)).toEqual(allKinds.map((k) => k.kind));
    const rows = [
      {
        a_text: 'a', a_bool: true, a_int32: -(2 ** 31), a_int64: -(2n ** 63n), a_lt: 2n ** 63n - 1n, a_uint64: 2n ** 64n - 1n,
        a_amount: -(AMOUNT_LIMIT - 1n), a_ts: -62_135_596_800, a_date: '0001-01-01', a_json: '{"x":[1,2]}', a_list: [], a_hash: HASH,
        a_address: ADDRESS, a_null: null,
      },
      {
        a_text: 'b', a_bool: false, a_int32: 2 ** 31 - 1, a_int64: 2n ** 63n - 1n, a_lt: 0n, a_uint64: 0n,
        a_amount: 2n ** 120n + 7n, a_ts: 253_402_300_799, a_date: '9999-12-31', a_json: 'null', a_list: ['x', ''], a_hash: HASH,
        a_address: ADDRESS, a_null: AMOUNT_LIMIT - 1n,
      },
    ];
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      await connection.run(createTableSql(table));
      await appendRows(connection, { name: table.name }, table, rows);
      expect(await readRows(connection, table)).toEqual(rows);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
