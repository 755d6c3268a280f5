import { describe, expect, it } from 'vitest';
import { positionTime } from '../../src/cli/range-times.js';
import { streams } from '../../src/streams/index.js';

describe('positionTime', () => {
  it("names, for every lt stream, its own table's position column (what the table clusters by) and a time column; none for a utime stream", () => {
    for (const stream of streams) {
      const where = positionTime(stream);
      if (stream.axis === 'utime') {
        expect(where, stream.name).toBeUndefined();
        continue;
      }
      expect(where?.table, stream.name).toBe(stream.tables[0]);
      expect(where?.position, stream.name).toBe(where?.table.clusterBy);
      expect(where?.table.columns[where.time]?.kind, stream.name).toBe('timestamptz');
    }
  });
});
