import { describe, expect, expectTypeOf, it } from 'vitest';
import { amount, date, int32, text, timestamptz, uint64 } from '../../src/core/column-kinds.js';
import { TableDefinitionError } from '../../src/core/schema-errors.js';
import { defineTable, type AnyTable, type RowOf } from '../../src/core/table.js';
import { isUtcDay, utcDay } from '../../src/core/utc-day.js';

const transfers = defineTable({
  name: 'transfers',
  doc: 'Transfers.',
  columns: {
    tx_hash: text,
    lt: uint64,
    utime: timestamptz,
    amount: amount,
    comment: text.nullable(),
    n: int32,
  },
  primaryKey: ['tx_hash'],
  partitionBy: (row) => utcDay(row.utime),
  clusterBy: 'lt',
});

describe('defineTable', () => {
  it('derives the row type from the columns', () => {
    expectTypeOf<RowOf<typeof transfers>>().toEqualTypeOf<{
      readonly tx_hash: string;
      readonly lt: bigint;
      readonly utime: number;
      readonly amount: bigint;
      readonly comment: string | null;
      readonly n: number;
    }>();
    const row: RowOf<typeof transfers> = { tx_hash: 'h', lt: 1n, utime: 0, amount: 2n ** 120n, comment: null, n: 1 };
    // @ts-expect-error lt is a bigint, never a number
    const wrong: RowOf<typeof transfers> = { ...row, lt: 1 };
    const generic: AnyTable = transfers;
    expect([transfers.columnNames, generic.partitionBy?.(row), wrong.n]).toEqual([
      ['tx_hash', 'lt', 'utime', 'amount', 'comment', 'n'],
      '1970-01-01',
      1,
    ]);
  });

  it('only accepts key columns that exist, in the type and at run time', () => {
    expect(() =>
      defineTable({
        name: 't',
        doc: '',
        columns: { a: text },
        // @ts-expect-error b is not a column
        primaryKey: ['b'],
      }),
    ).toThrow(/primary key column b is not a column/);
  });

  it.each([
    ['Bad', { a: text }, ['a'], {}, /lower snake case/],
    ['t', { A: text }, ['A'], {}, /column "A" must be lower snake case/],
    ['t', { a: text.nullable() }, ['a'], {}, /primary key column a must not be nullable/],
    ['t', { a: text }, [], {}, /at least one column/],
    ['t', { a: text }, ['a', 'a'], {}, /repeats a column/],
    ['t', { a: text }, ['a'], { replaceBy: 'b' }, /replaceBy column b is not a column/],
    ['t', { a: text }, ['a'], { clusterBy: 'a' }, /clusterBy column a must be a non-null int32, int64, logicalTime or uint64, got text/],
    ['t', { a: text, date: text }, ['a'], { partitionBy: () => '2024-01-01' }, /cannot have a column named date/],
    ['t', { a: text, at: timestamptz, block_date: date }, ['a'], {}, /a table with block_date declares dayOf, the column it is the UTC day of/],
    ['t', { a: text, at: timestamptz }, ['a'], { dayOf: 'at' }, /dayOf needs a block_date column/],
    ['t', { a: text, block_date: date }, ['a'], { dayOf: 'at' }, /dayOf column at is not a column/],
  ])('refuses table %s with a clear TableDefinitionError', (name, columns, primaryKey, extra, message) => {
    const define = () => defineTable({ name, doc: '', columns, primaryKey, ...extra } as never);
    expect(define).toThrow(TableDefinitionError);
    expect(define).toThrow(message);
  });
});

describe('utcDay', () => {
  it('gives the UTC day of unix seconds, before 1970 too', () => {
    expect([utcDay(1_704_067_199), utcDay(1_704_067_200), utcDay(-1)]).toEqual(['2023-12-31', '2024-01-01', '1969-12-31']);
    expect([isUtcDay('2024-01-01'), isUtcDay('2024-1-1'), isUtcDay(undefined)]).toEqual([true, false, false]);
  });
});
