import { describe, expect, it } from 'vitest';
import { POSITION_TIMES } from '../../src/cli/range-times.js';
import { streams, type StreamName } from '../../src/streams/index.js';

describe('POSITION_TIMES', () => {
  it("names, for every lt stream, its own table's position column (what the table clusters by) and a time column", () => {
    const lt = streams.filter((stream) => stream.axis === 'lt');
    expect(Object.keys(POSITION_TIMES).sort()).toEqual(lt.map((stream) => stream.name).sort());
    for (const stream of lt) {
      const where = POSITION_TIMES[stream.name as StreamName]!;
      expect(where.table, stream.name).toBe(stream.tables[0]);
      expect(where.position, stream.name).toBe(where.table.clusterBy);
      expect(where.table.columns[where.time]?.kind, stream.name).toBe('timestamptz');
    }
  });
});
