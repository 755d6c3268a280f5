/**
 * The analysts' macros as any DuckDB runs them: `ton()` is exact (DECIMAL(38,9), never DOUBLE) from
 * one nanoton to the largest amount a DECIMAL(38,0) column holds, over literals and columns alike.
 */
import { describe, expect, it } from 'vitest';
import { definitionsSql } from '../../src/core/warehouse-views.js';
import { analystDefinitions } from '../../src/streams/analyst-views.js';
import { withDuckDB } from '../support/with-duckdb.js';

/** Rows of `sql` after the macros are defined, every value as DuckDB's text. */
function query(sql: string): Promise<unknown[][]> {
  return withDuckDB(':memory:', {}, async (connection) => {
    await connection.run(definitionsSql(analystDefinitions, new Set()));
    return (await connection.runAndReadAll(sql)).getRowsJson();
  });
}

describe('ton(nanoton)', () => {
  it('is exact and DECIMAL(38,9): one nanoton, amounts beyond 2^64 and the largest DECIMAL(38,0)', async () => {
    const rows = await query(`SELECT ton(n)::VARCHAR, typeof(ton(n)) FROM (VALUES
      (CAST(1 AS DECIMAL(38,0))), (CAST(18446744073709551617 AS DECIMAL(38,0))), (CAST('99999999999999999999999999999999999999' AS DECIMAL(38,0))), (NULL)) AS t(n)`);
    expect(rows).toEqual([
      ['0.000000001', 'DECIMAL(38,9)'],
      ['18446744073.709551617', 'DECIMAL(38,9)'],
      ['99999999999999999999999999999.999999999', 'DECIMAL(38,9)'],
      [null, 'DECIMAL(38,9)'],
    ]);
  });

  it('takes integers of any type, and a sum of it stays exact', async () => {
    const rows = await query(`SELECT ton(1), ton(18446744073709551615::UBIGINT)::VARCHAR, sum(ton(x))::VARCHAR, typeof(sum(ton(x)))
      FROM (VALUES (1::HUGEINT), (2::HUGEINT), (36893488147419103232::HUGEINT)) AS t(x)`);
    expect(rows).toEqual([['0.000000001', '18446744073.709551615', '36893488147.419103235', 'DECIMAL(38,9)']]);
  });
});
