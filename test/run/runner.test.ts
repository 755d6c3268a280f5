/**
 * The runner in process against a fake API: the real HTTP client, v3 client, stream and DuckDB sink,
 * with `fetch` answering from a list of validator events (no server, no process). Events lie 600 s
 * apart from BASE; pages hold 10, so a full page keeps 9 and the next starts at its last position.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http-client.js';
import { V3Api } from '../../src/api/v3.js';
import { decodeCheckpoint } from '../../src/core/checkpoint/record.js';
import { Coverage } from '../../src/core/checkpoint/coverage.js';
import { StreamProgress } from '../../src/core/checkpoint/stream-progress.js';
import { readRows } from '../../src/load/engine/read.js';
import { DuckDBSink } from '../../src/load/duckdb/sink.js';
import type { Sink, StreamCommit } from '../../src/load/sink.js';
import { runJobs } from '../../src/run/runner.js';
import { PageWorkerError } from '../../src/run/workers/page-pool.js';
import { addressesTable } from '../../src/transform/address-book.js';
import { validatorEventsStream, validatorEventsTable } from '../../src/streams/validator-events.js';
import { useTempDir } from '../load/temp-dir.js';

const BASE = 1_700_000_000;
const SPACING = 600;
const EVENTS = 100;
const LAST = BASE + (EVENTS - 1) * SPACING;
const PAGE_LIMIT = 10;

/** Event `i`, at BASE + 600 i; its tx_lt is `i + 1`. */
function event(i: number): Record<string, unknown> {
  return {
    tx_hash: Buffer.alloc(32, i + 1).toString('base64'),
    tx_lt: String(i + 1),
    utime: BASE + i * SPACING,
    type: 'stake_accepted',
    stake_holder_address: `-1:${'3'.repeat(64)}`,
    validator_pubkey: null,
    adnl_addr: null,
    amount: '1000000000',
  };
}

const events = Array.from({ length: EVENTS }, (_, i) => event(i));

/** What the runner did, in order: `fetch <start_utime − BASE>` and `committed <checkpoint − BASE>`. */
type Log = string[];

/** A v3 client whose `fetch` serves `/validators/events` from `served`; `failAt` answers HTTP 500 for that start; `limits` gets each request's limit. */
function fakeApi(log: Log, failAt?: number, limits: number[] = [], served = events): V3Api {
  const fetch = async (input: string | URL | Request): Promise<Response> => {
    const query = new URL(input instanceof Request ? input.url : input).searchParams;
    const start = Number(query.get('start_utime'));
    const end = Number(query.get('end_utime'));
    const offset = Number(query.get('offset') ?? 0);
    log.push(`fetch ${start - BASE}`);
    limits.push(Number(query.get('limit')));
    if (start === failAt) return new Response('{"error":"injected"}', { status: 500 });
    const page = served.filter((e) => (e.utime as number) >= start && (e.utime as number) <= end).slice(offset, offset + Number(query.get('limit')));
    return new Response(JSON.stringify({ events: page }), { headers: { 'content-type': 'application/json' } });
  };
  return new V3Api(new ApiClient({ baseUrl: 'http://fake.invalid', rps: 10_000, concurrency: 4, maxRetries: 0, fetch }));
}

const tempDir = useTempDir('runner');
const opened: DuckDBSink[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((sink) => sink.close()));
});

/**
 * A real DuckDB sink that logs each commit's checkpoint once durable, and keeps the commits; `delayMs` before each;
 * `failing`: the call of commitAll (1 for the first) that throws, as a full disk would, storing nothing.
 */
async function recordingSink(log: Log, commits: StreamCommit[], delayMs = 0, failing?: number): Promise<{ sink: Sink; duckdb: DuckDBSink }> {
  let calls = 0;
  const duckdb = new DuckDBSink({ path: join(await tempDir(), 'warehouse.duckdb') });
  await duckdb.open([validatorEventsTable, addressesTable]);
  opened.push(duckdb);
  const sink: Sink = {
    open: (tables) => duckdb.open(tables),
    readCheckpoint: (stream) => duckdb.readCheckpoint(stream),
    readCheckpoints: () => duckdb.readCheckpoints(),
    distinctText: (table, column) => duckdb.distinctText(table, column),
    recordRun: (run) => duckdb.recordRun(run),
    sweepMovedKeys: () => duckdb.sweepMovedKeys(),
    uncheckedRanges: () => duckdb.uncheckedRanges(),
    markChecked: () => duckdb.markChecked(),
    readCommitted: (read) => duckdb.readCommitted(read),
    close: () => duckdb.close(),
    commitAll: async (group) => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      calls += 1;
      if (calls === failing) throw new Error('injected: no space left on device');
      const replaced = await duckdb.commitAll(group);
      for (const commit of group) {
        commits.push(commit);
        log.push(`committed ${Number(decodeCheckpoint(commit.checkpoint).position) - BASE}`);
      }
      return replaced;
    },
  };
  return { sink, duckdb };
}

/**
 * Runs one job over [BASE, BASE + `to`] (all events by default); `failAt` and `to` are offsets from BASE;
 * `broken`: the index of an event sent with an amount that is not a number; `workers`: page workers;
 * `also`: another job of the stream over [BASE + also.from, BASE + also.to], as a backfill's gaps.
 */
async function run(options: {
  concurrency: number;
  to?: number;
  failAt?: number;
  commitDelayMs?: number;
  failCommit?: number;
  maxPageLimit?: number;
  broken?: number;
  workers?: number;
  workerScript?: URL;
  also?: { from: number; to: number };
}) {
  const log: Log = [];
  const limits: number[] = [];
  const commits: StreamCommit[] = [];
  const { sink, duckdb } = await recordingSink(log, commits, options.commitDelayMs, options.failCommit);
  const progress = new StreamProgress('validator_events', { network: 'testnet', service: 'http://fake.invalid', filters: {} }, { position: BigInt(BASE - 1), covered: new Coverage() }, undefined);
  const stream = options.maxPageLimit === undefined ? validatorEventsStream : { ...validatorEventsStream, maxPageLimit: options.maxPageLimit };
  const job = { stream, filters: {}, progress, from: BigInt(BASE), to: BigInt(BASE + (options.to ?? LAST - BASE)) };
  const jobs = options.also === undefined ? [job] : [job, { ...job, from: BigInt(BASE + options.also.from), to: BigInt(BASE + options.also.to) }];
  const served = events.map((e, i) => (i === options.broken ? { ...e, amount: 'a lot' } : e));
  const api = fakeApi(log, options.failAt === undefined ? undefined : BASE + options.failAt, limits, served);
  const outcome = runJobs(
    { api, sink, concurrency: options.concurrency, pageLimit: PAGE_LIMIT, workers: options.workers, workerScript: options.workerScript },
    { jobs, progress: [progress] },
  ).then(
    (results) => results.get('validator_events'),
    (error: unknown) => error,
  );
  const result = await outcome;
  const checkpoint = await duckdb.readCheckpoint('validator_events');
  // A run whose first commit failed stored none: its covered ranges are empty.
  const stored = checkpoint === undefined ? { position: undefined, covered: new Coverage() } : decodeCheckpoint(checkpoint);
  const rows = (await readRows(duckdb.connection, validatorEventsTable)).map((row) => Number(row.tx_lt) - 1).sort((a, b) => a - b);
  const rejects = (await duckdb.connection.runAndReadAll('SELECT raw, reason FROM _etl_rejects')).getRowObjectsJson();
  return { log, limits, commits, result, stored, rows, rejects };
}

/** Event indexes 0..n−1. */
const firstEvents = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe('runJobs against a fake API', () => {
  it('reads a range its first page holds whole with one request', async () => {
    const { log, stored, rows } = await run({ concurrency: 2, to: 5 * SPACING });
    expect(log).toEqual(['fetch 0', 'committed 3000']);
    expect(rows).toEqual(firstEvents(6));
    expect(stored.covered.ranges).toEqual([{ from: BigInt(BASE), to: BigInt(BASE + 3000) }]);
  });

  it('splits the rest after the scout into windows by density, and stores every event once with the checkpoint at the end', async () => {
    const { log, result, stored, rows } = await run({ concurrency: 2 });
    const requests = log.filter((line) => line.startsWith('fetch')).map((line) => Number(line.split(' ')[1])).sort((a, b) => a - b);
    // The scout reads one page: events 0–8 (event 9's position is read again after it). The rest is
    // split by that page's density, 9 events over 5,400 s spread over the 54,001 s left: min(8
    // windows at concurrency 2, 10 pages), 6,751 s each. A full page continues at its last position.
    const windows = [[5400, 12150], [12151, 18901], [18902, 25652], [25653, 32403], [32404, 39154], [39155, 45905], [45906, 52656], [52657, 59400]];
    const expected = [0, ...windows.flatMap(([from, to]) => requestsOf(from!, to!))].sort((a, b) => a - b);
    expect(requests).toEqual(expected);
    expect(rows).toEqual(firstEvents(EVENTS));
    expect(stored.position).toBe(BigInt(LAST));
    expect(stored.covered.ranges).toEqual([{ from: BigInt(BASE), to: BigInt(LAST) }]);
    expect(result).toMatchObject({ rows: EVENTS, rejects: 0, checkpoint: BigInt(LAST) });
  });

  it('never stores a checkpoint past an event not yet committed, while windows commit out of order', async () => {
    const { commits } = await run({ concurrency: 4 });
    const committed = new Set<number>();
    let ahead = 0;
    for (const commit of commits) {
      for (const row of commit.rows.get('validator_events') ?? []) committed.add(Number(row['tx_lt']) - 1);
      const position = Number(decodeCheckpoint(commit.checkpoint).position);
      const covered = events.filter((e) => (e.utime as number) <= position).map((e) => Number(e.tx_lt) - 1);
      expect(covered.filter((i) => !committed.has(i)), `checkpoint ${position - BASE}`).toEqual([]);
      if (committed.size > covered.length) ahead += 1;
    }
    // Windows did finish out of order: some commits held events past their checkpoint.
    expect(ahead).toBeGreaterThan(0);
  });

  it('requests a window\'s next page while its last page commits, and no further', async () => {
    const { log } = await run({ concurrency: 1, commitDelayMs: 30 });
    expect(log.slice(0, 12)).toEqual([
      'fetch 0',
      'committed 5399',
      // One window for the rest at concurrency 1; its second page is requested before its first commits.
      'fetch 5400',
      'fetch 10800',
      'committed 10799',
      'fetch 16200',
      'committed 16199',
      'fetch 21600',
      'committed 21599',
      'fetch 27000',
      'committed 26999',
      'fetch 32400',
    ]);
  });

  it("requests the rest of a range while the scout's page commits", async () => {
    const { log } = await run({ concurrency: 2, commitDelayMs: 30 });
    expect(log.slice(0, 2)).toEqual(['fetch 0', 'fetch 5400']);
    expect(log.indexOf('committed 5399')).toBeGreaterThan(1);
  });

  it('asks a stream whose service serves smaller pages (maxPageLimit) for those, and still reads every event', async () => {
    const { limits, rows, stored } = await run({ concurrency: 2, maxPageLimit: 4 });
    expect(new Set(limits)).toEqual(new Set([4]));
    expect(rows).toEqual(firstEvents(EVENTS));
    expect(stored.position).toBe(BigInt(LAST));
  });

  it('leaves the checkpoint at the last committed page when a window fails midway', async () => {
    const { log, result, stored, rows } = await run({ concurrency: 1, failAt: 16200, commitDelayMs: 30 });
    expect(result).toBeInstanceOf(Error);
    expect((result as Error).message).toMatch(/HTTP 500/);
    expect(log).toEqual(['fetch 0', 'committed 5399', 'fetch 5400', 'fetch 10800', 'committed 10799', 'fetch 16200', 'committed 16199']);
    expect(stored.position).toBe(BigInt(BASE + 16199));
    expect(stored.covered.ranges).toEqual([{ from: BigInt(BASE), to: BigInt(BASE + 16199) }]);
    expect(rows).toEqual(firstEvents(27));
  });

  it('after a failed commit nothing more commits: whichever commit fails, the stored checkpoint covers only stored events', async () => {
    let waitedBehindTheFailure = 0;
    let failing = 1;
    for (; ; failing += 1) {
      const { result, stored, rows, log } = await run({ concurrency: 4, commitDelayMs: 5, failCommit: failing });
      const covered = events.map((_, i) => i).filter((i) => stored.covered.ranges.some((r) => BigInt(events[i]!.utime as number) >= r.from && BigInt(events[i]!.utime as number) <= r.to));
      expect(covered.filter((i) => !rows.includes(i)), `commit ${failing}: covered events not stored`).toEqual([]);
      // Past the run's last commit, nothing fails.
      if (!(result instanceof Error)) break;
      expect(result.message, `commit ${failing}`).toBe('injected: no space left on device');
      if (log.filter((line) => line.startsWith('fetch')).length > log.filter((line) => line.startsWith('committed')).length + 1) waitedBehindTheFailure += 1;
    }
    expect(failing).toBeGreaterThan(5);
    // Pages were waiting behind some failed commit: the case a later group used to commit past it.
    expect(waitedBehindTheFailure).toBeGreaterThan(0);
  });
});

describe('runJobs with page workers (they prepare the pages after the scout)', () => {
  it('stores every event once, and an item that fails validation in a worker lands in _etl_rejects with its reason', async () => {
    const { result, stored, rows, rejects } = await run({ concurrency: 2, workers: 2, broken: 70 });
    expect(rows).toEqual(firstEvents(EVENTS).filter((i) => i !== 70));
    expect(stored.position).toBe(BigInt(LAST));
    expect(result).toMatchObject({ rows: EVENTS - 1, rejects: 1 });
    expect(rejects).toEqual([{ raw: JSON.stringify({ ...events[70], amount: 'a lot' }), reason: 'amount: expected an unsigned integer as a decimal string, got "a lot"' }]);
  });

  it('fails the run with a clear error when a worker dies, with nothing of its pages stored', async () => {
    const { result, stored, rows } = await run({ concurrency: 2, workers: 1, workerScript: new URL('./dying-page-worker.mjs', import.meta.url) });
    expect(result).toBeInstanceOf(PageWorkerError);
    expect((result as Error).message).toMatch(
      /^a page worker thread stopped \(it exited with code 3\) while preparing \/api\/v3\/validators\/events: the pages it held were not stored and the checkpoint stays before them; run again, or set workers: 0 in the pipeline file/,
    );
    // Only the scout's page, prepared in the main thread, is stored: events 0–8, the checkpoint after them.
    expect(rows).toEqual(firstEvents(9));
    expect(stored.position).toBe(BigInt(BASE + 5399));
  });

  it('prepares a rest of a few pages in the main thread: no worker starts (this one would die)', async () => {
    // The scout reads events 0–8 over 5,400 s; the 9,600 s left hold about 16 more: two pages.
    const { result, stored, rows } = await run({ concurrency: 2, to: 25 * SPACING, workers: 1, workerScript: new URL('./dying-page-worker.mjs', import.meta.url) });
    expect(result).toMatchObject({ rows: 26, rejects: 0 });
    expect(rows).toEqual(firstEvents(26));
    expect(stored.position).toBe(BigInt(BASE + 25 * SPACING));
  });

  it('counts the rests over the run: two jobs of a few pages each, six in all, start a worker', async () => {
    // Rests of about 2 and 4 pages (the second job: 9 events over its scout's 5,400 s, 18,600 s left).
    const { result } = await run({ concurrency: 2, to: 25 * SPACING, also: { from: 50 * SPACING, to: 90 * SPACING }, workers: 1, workerScript: new URL('./dying-page-worker.mjs', import.meta.url) });
    expect(result).toBeInstanceOf(PageWorkerError);
  });
});

/** The request starts of one window [from, to] (offsets from BASE) paged 10 at a time. */
function requestsOf(from: number, to: number): number[] {
  const starts: number[] = [];
  for (let start = from; ; ) {
    starts.push(start);
    const page = events.map((e) => (e.utime as number) - BASE).filter((u) => u >= start && u <= to).slice(0, PAGE_LIMIT);
    if (page.length < PAGE_LIMIT) return starts;
    start = page[page.length - 1]!;
  }
}
