import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCheckpoint, encodeCheckpoint } from '../../src/core/checkpoint/record.js';
import { Coverage, type Range } from '../../src/core/checkpoint/coverage.js';
import { StreamProgress } from '../../src/core/checkpoint/stream-progress.js';

const range = fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: -1, max: 12 })).map(([from, length]): Range => ({ from: BigInt(from), to: BigInt(from + length) }));

/** The positions a list of ranges holds, as a set. */
const positions = (ranges: readonly Range[]): Set<number> => {
  const set = new Set<number>();
  for (const r of ranges) for (let p = Number(r.from); p <= Number(r.to); p += 1) set.add(p);
  return set;
};

describe('Coverage', () => {
  it('holds exactly the positions of the ranges added, as sorted, disjoint, non-adjacent ranges', () => {
    fc.assert(
      fc.property(fc.array(range, { maxLength: 12 }), (added) => {
        const coverage = new Coverage(added);
        expect(positions(coverage.ranges)).toEqual(positions(added));
        coverage.ranges.forEach((r, i) => {
          expect(r.from <= r.to).toBe(true);
          if (i > 0) expect(r.from > coverage.ranges[i - 1]!.to + 1n).toBe(true);
        });
      }),
    );
  });

  it('remove(range) leaves exactly the covered positions outside the range, as sorted, disjoint ranges', () => {
    fc.assert(
      fc.property(fc.array(range, { maxLength: 8 }), range, (added, removed) => {
        const coverage = new Coverage(added);
        const gone = positions([removed]);
        const kept = [...positions(coverage.ranges)].filter((p) => !gone.has(p));
        coverage.remove(removed);
        expect([...positions(coverage.ranges)].sort((a, b) => a - b)).toEqual(kept.sort((a, b) => a - b));
        coverage.ranges.forEach((r, i) => {
          expect(r.from <= r.to).toBe(true);
          if (i > 0) expect(r.from > coverage.ranges[i - 1]!.to + 1n).toBe(true);
        });
      }),
    );
  });

  it('gapsIn(range) are exactly the positions of the range not covered; holes are the gaps between the ranges', () => {
    fc.assert(
      fc.property(fc.array(range, { maxLength: 8 }), range, (added, asked) => {
        const coverage = new Coverage(added);
        const covered = positions(coverage.ranges);
        const wanted = [...positions([asked])].filter((p) => !covered.has(p));
        expect([...positions(coverage.gapsIn(asked))].sort((a, b) => a - b)).toEqual(wanted);
        const ranges = coverage.ranges;
        const between = ranges.length < 2 ? [] : [...positions([{ from: ranges[0]!.from, to: ranges.at(-1)!.to }])].filter((p) => !covered.has(p));
        expect([...positions(coverage.holes())].sort((a, b) => a - b)).toEqual(between);
      }),
    );
  });
});

describe('checkpoint records', () => {
  it('round-trip position, covered ranges and scope', () => {
    const scope = { network: 'mainnet', service: 'https://toncenter.com', anchor: { seqno: 7, rootHash: 'AA==' }, filters: { accounts: ['0:AB'] } };
    const record = { position: 99n, covered: new Coverage([{ from: 1n, to: 5n }, { from: 10n, to: 99n }]), scope };
    const decoded = decodeCheckpoint(encodeCheckpoint(record));
    expect(decoded.position).toBe(99n);
    expect(decoded.covered.ranges).toEqual(record.covered.ranges);
    expect(decoded.scope).toEqual(scope);
  });

  it('read a row of an earlier release as its position, with no known coverage or scope', () => {
    const decoded = decodeCheckpoint('{"position":"60000005000000"}');
    expect(decoded.position).toBe(60000005000000n);
    expect(decoded.covered.ranges).toEqual([]);
    expect(decoded.scope).toBeUndefined();
  });

  it('refuse unreadable rows with a message naming them', () => {
    expect(() => decodeCheckpoint('{"lt":"5"}')).toThrow('unreadable checkpoint "{\\"lt\\":\\"5\\"}": expected {"position":"<integer>",…}');
    expect(() => decodeCheckpoint('{"position":"5","covered":[["1"]]}')).toThrow('"covered" holds ["1"], expected ["<from>","<to>"]');
  });
});

describe('open items in a stream record', () => {
  const scope = { network: 'mainnet', service: 'https://toncenter.com', anchor: { seqno: 7, rootHash: 'AA==' }, filters: {} };
  const recordAfter = (progress: StreamProgress): bigint | undefined => decodeCheckpoint(progress.encode()).open;

  it('keep the earliest item still open at the tip; a run that reads again from it keeps only what it found open', () => {
    const first = new StreamProgress('cycles', scope, { position: 0n, covered: new Coverage() }, undefined);
    expect(first.beginRun(1000, { rereads: true, tracksOpen: true })).toBeUndefined();
    first.noteOpen([{ position: 100n, until: 900n }, { position: 200n, until: 1500n }, { position: 300n, until: 2000n }]);
    first.endRun();
    expect(recordAfter(first)).toBe(200n);

    const next = new StreamProgress('cycles', scope, decodeCheckpoint(first.encode()), first.encode());
    expect(next.beginRun(1600, { rereads: true, tracksOpen: true })).toBe(200n);
    // Until the run ends, a commit keeps the stored open item: a run that fails midway read it again only in part.
    next.noteOpen([{ position: 200n, until: 1500n }]);
    expect(recordAfter(next)).toBe(200n);
    next.noteOpen([{ position: 300n, until: 2000n }]);
    next.endRun();
    expect(next.changed).toBe(true);
    expect(recordAfter(next)).toBe(300n);
  });

  it('say "nothing open" as the position after the checkpoint; a record that does not say is read again from the start of its coverage', () => {
    const none = new StreamProgress('cycles', scope, { position: 0n, covered: new Coverage() }, undefined);
    none.beginRun(1000, { rereads: true, tracksOpen: true });
    none.cover(1n, 700n);
    none.noteOpen([{ position: 100n, until: 900n }]);
    none.endRun();
    expect(recordAfter(none)).toBe(701n);
    const earlier = encodeCheckpoint({ position: 700n, covered: new Coverage([{ from: 50n, to: 700n }]), scope });
    expect(new StreamProgress('cycles', scope, decodeCheckpoint(earlier), earlier).beginRun(1000, { rereads: true, tracksOpen: true })).toBe(50n);
  });

  it('stay when a run (a backfill) does not read the stream again from them', () => {
    const stored = encodeCheckpoint({ position: 500n, covered: new Coverage([{ from: 0n, to: 500n }]), open: 300n, scope });
    const backfill = new StreamProgress('cycles', scope, decodeCheckpoint(stored), stored);
    backfill.beginRun(5000, { rereads: false, tracksOpen: true });
    backfill.noteOpen([{ position: 400n, until: 6000n }]);
    backfill.endRun();
    expect(recordAfter(backfill)).toBe(300n);
  });
});
