/** Which files a statement writes, as `query` and `sql` read the SQL text before running it (src/cli/warehouse-writes.ts). */
import { describe, expect, it } from 'vitest';
import { fileWrites } from '../../src/cli/warehouse-writes.js';

describe('fileWrites', () => {
  it.each([
    ['SELECT 1', []],
    ["COPY t FROM 'in.csv'", []],
    ['COPY FROM DATABASE a TO b', []],
    ["SELECT copy FROM t WHERE x = 'COPY (SELECT 1) TO ''a'''", []],
    ["COPY (SELECT ';' AS a) TO 'out.csv' (HEADER)", [{ statement: 'COPY … TO', target: 'out.csv' }]],
    ["copy t (a, b) to $$dollar's$$", [{ statement: 'COPY … TO', target: "dollar's" }]],
    ["COPY t TO E'a\\'b'", [{ statement: 'COPY … TO', target: "a'b" }]],
    ["-- COPY t TO 'no'\nPREPARE p AS COPY t TO 'yes'", [{ statement: 'COPY … TO', target: 'yes' }]],
    ["EXPORT DATABASE main TO 'dir' (FORMAT parquet)", [{ statement: 'EXPORT DATABASE', target: 'dir' }]],
    ['ATTACH DATABASE IF NOT EXISTS "x" AS y', [{ statement: 'ATTACH', target: undefined }]],
    ["SELECT 1; explain copy t to 'a'; attach 'b' (READ_ONLY)", [{ statement: 'COPY … TO', target: 'a' }, { statement: 'ATTACH', target: 'b' }]],
    ['COPY t TO', [{ statement: 'COPY … TO', target: undefined }]],
  ])('%s', (sql, writes) => {
    expect(fileWrites(sql)).toEqual(writes);
  });
});
