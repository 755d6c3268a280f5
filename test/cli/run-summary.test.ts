/**
 * What a person at a terminal sees of a run: the summary's lines, the ETA and the duration format. Without a terminal the summary is not written (test/integration/cli.test.ts runs
 * the binary for that).
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { SmoothedEta } from '../../src/cli/eta.js';
import { formatSeconds } from '../../src/cli/duration.js';
import { reportRun, runSummaryLines } from '../../src/cli/run-summary.js';
import type { RunSummary } from '../../src/run/execute-run.js';

const SUMMARY: RunSummary = {
  rows: { transactions: 52_340, actions: 12, validator_events: 0 },
  replaced: { transactions: 0, actions: 4_790, validator_events: 0 },
  pages: { transactions: 61, actions: 7, validator_events: 1 },
  requests: 75,
  rejects: 0,
  tipSeqno: 1995,
  seconds: 41.2,
};

describe('the summary at the end of a run', () => {
  it('names the command, duration, new and replaced rows, requests and tip, then each stream', () => {
    expect(runSummaryLines('sync', SUMMARY)).toEqual([
      'sync done in 42s: 52,352 new rows and 4,790 replaced from 75 requests; settled tip: masterchain block 1995',
      '  transactions         52,340 new          0 replaced      61 pages',
      '  actions                  12 new      4,790 replaced       7 pages',
      '  validator_events          0 new          0 replaced       1 pages',
    ]);
  });

  it('says where rejected items went', () => {
    expect(runSummaryLines('backfill', { ...SUMMARY, rejects: 3 }).at(-1)).toBe('  3 item(s) failed validation and are kept in _etl_rejects: chain-etl status shows them');
  });

  it('goes to the terminal only; the JSON line only at log level info', () => {
    const written: string[] = [];
    const tty = new Writable({ write: (chunk: Buffer, _encoding, callback) => (written.push(chunk.toString()), callback()) });
    const logged: string[] = [];
    const logger = (level: 'warn' | 'info') => pino({ level, base: undefined }, { write: (line: string) => logged.push(line) });
    reportRun(logger('warn'), 'sync', SUMMARY, undefined);
    expect([written, logged]).toEqual([[], []]);
    reportRun(logger('info'), 'sync', SUMMARY, tty);
    expect(written.join('')).toBe(`${runSummaryLines('sync', SUMMARY).join('\n')}\n`);
    expect(logged.map((line) => JSON.parse(line) as Record<string, unknown>)).toMatchObject([{ msg: 'sync done', rows: SUMMARY.rows, replaced: SUMMARY.replaced, requests: 75, rejects: 0, tipSeqno: 1995 }]);
  });
});

describe('the ETA', () => {
  it('gives none before the warm-up, and none while nothing moved', () => {
    const eta = new SmoothedEta(20, 2);
    eta.observe(1, 0.1);
    expect(eta.secondsLeft()).toBeUndefined();
    const still = new SmoothedEta(20, 2);
    still.observe(3, 0);
    expect(still.secondsLeft()).toBeUndefined();
  });

  it('is the time left at a steady pace', () => {
    const eta = new SmoothedEta(20, 2);
    for (let second = 1; second <= 10; second++) eta.observe(second, second / 100);
    expect(eta.secondsLeft()).toBeCloseTo(90, 6);
  });

  it('follows a lasting change of pace within its time constant, where done/elapsed lags behind', () => {
    const eta = new SmoothedEta(20, 2);
    let done = 0;
    for (let second = 1; second <= 20; second++) eta.observe(second, (done += 0.02));
    for (let second = 21; second <= 60; second++) eta.observe(second, (done += 0.005));
    // At the new pace 80 s are left; the average since the start says 40 s.
    const sinceStart = (60 / done) * (1 - done);
    expect(sinceStart).toBeCloseTo(40, 6);
    expect(eta.secondsLeft()).toBeGreaterThan(55);
    expect(eta.secondsLeft()).toBeLessThan(80);
  });

  it('says 0 when the job is done', () => {
    const eta = new SmoothedEta();
    eta.observe(0.5, 1);
    expect(eta.secondsLeft()).toBe(0);
  });
});

describe('durations', () => {
  it.each([
    [0.2, '1s'],
    [59.4, '1m00s'],
    [119.5, '2m00s'],
    [277, '4m37s'],
    [7500, '2h05m'],
  ])('%d s reads %s', (seconds, text) => {
    expect(formatSeconds(seconds)).toBe(text);
  });
});
