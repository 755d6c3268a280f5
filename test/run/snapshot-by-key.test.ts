/**
 * The read by key of jetton_masters against a real HTTP server on 127.0.0.1 answering
 * `/jetton/masters?address=…`: the masters the transfers name and the table lacks are asked for in
 * batches of at most the page size and of a URL the service takes, sorted, each once; the rows join
 * the snapshot they are read for and commit with its record; an answer with more items than keys
 * asked for is a PagingContractError.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_QUERY_BYTES } from '../../src/api/url-limit.js';
import { V3Api } from '../../src/api/v3.js';
import { SnapshotRecord } from '../../src/core/checkpoint/snapshot-record.js';
import type { StreamScope } from '../../src/core/scope.js';
import { PagingContractError } from '../../src/extract/page-check.js';
import type { StreamCommit } from '../../src/load/sink.js';
import { PageBudget } from '../../src/run/page-budget.js';
import { keyBatches, readByKey, type KeyedRead } from '../../src/run/snapshot-by-key.js';
import type { SnapshotCounts, SnapshotRunContext } from '../../src/run/snapshot-job.js';
import { jettonMastersStream } from '../../src/streams/jetton-masters.js';
import { testClient } from '../api/helpers.js';
import { startMisbehavingServer, type MisbehavingServer } from '../support/misbehaving-server.js';

const SCOPE: StreamScope = { network: 'testnet', service: 'http://127.0.0.1', filters: {} };
const LAST = 1_800_000_000;
const address = (i: number): string => `0:${i.toString(16).toUpperCase().padStart(64, '0')}`;
const master = (raw: string): Record<string, unknown> => ({
  address: raw,
  total_supply: '1000',
  mintable: true,
  admin_address: null,
  jetton_content: {},
  jetton_wallet_code_hash: null,
  code_hash: null,
  data_hash: null,
  last_transaction_lt: '7',
});

let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Answers each request with a master per address asked for, plus `extra` more. */
async function serve(extra = 0): Promise<V3Api> {
  server = await startMisbehavingServer();
  server.behave((request) => {
    const asked = new URL(request.url, 'http://x').searchParams.getAll('address');
    const items = [...asked, ...Array.from({ length: extra }, (_, i) => address(900 + i))].map(master);
    return { kind: 'reply', status: 200, body: JSON.stringify({ jetton_masters: items, address_book: {} }) };
  });
  return new V3Api(testClient({ baseUrl: server.origin }));
}

/** Reads by key with the transfers naming `named` and the table holding `held`; returns the commits and the requests' addresses. */
async function read(api: V3Api, named: readonly string[], held: readonly string[], pageLimit: number) {
  const commits: StreamCommit[] = [];
  const ctx: SnapshotRunContext = {
    api,
    pageLimit,
    strict: false,
    signal: new AbortController().signal,
    budget: new PageBudget(2),
    submit: async (prepare) => void commits.push(prepare()),
  };
  const sink = { distinctText: async (table: string) => [...(table === 'jetton_masters' ? held : named)] };
  const record = new SnapshotRecord('jetton_masters', SCOPE, { position: BigInt(LAST) });
  const keyed: KeyedRead = { stream: jettonMastersStream, namedBy: [{ table: 'jetton_transfers', column: 'jetton_master' }], record, time: LAST };
  const counts: SnapshotCounts = { rows: 0, pages: 0, rejects: 0 };
  await readByKey(ctx, sink, keyed, counts);
  const asked = server!.seen.map((seen) => new URL(seen.url, 'http://x').searchParams);
  return { commits, counts, record, addresses: asked.map((query) => query.getAll('address')), limits: asked.map((query) => Number(query.get('limit'))) };
}

describe('keyBatches', () => {
  it('cuts keys into batches of at most the given count and of MAX_QUERY_BYTES of query, in order', () => {
    const masterchain = Array.from({ length: 200 }, (_, i) => `-1:${i.toString(16).toUpperCase().padStart(64, '0')}`);
    const batches = keyBatches(masterchain, 'address', 1000);
    // address=-1%3A…64 hex…& is 78 bytes: 91 of them fit.
    expect(batches.map((batch) => batch.length)).toEqual([91, 91, 18]);
    for (const batch of batches) expect(new URLSearchParams(batch.map((key): [string, string] => ['address', key])).toString().length).toBeLessThanOrEqual(MAX_QUERY_BYTES);
    expect(batches.flat()).toEqual(masterchain);
    expect(keyBatches(masterchain, 'address', 50).map((batch) => batch.length)).toEqual([50, 50, 50, 50]);
    expect(keyBatches([], 'address', 50)).toEqual([]);
  });
});

describe('readByKey', () => {
  it('asks for the named masters the table lacks, sorted, in batches of the page size, into the last snapshot', async () => {
    const api = await serve();
    const named = [5, 3, 1, 4, 2, 6].map(address);
    const { commits, counts, record, addresses, limits } = await read(api, named, [address(6)], 2);
    expect(addresses).toEqual([[address(1), address(2)], [address(3), address(4)], [address(5)]]);
    expect(limits).toEqual([2, 2, 1]);
    expect(counts).toEqual({ rows: 5, pages: 3, rejects: 0 });
    const rows = commits.flatMap((commit) => commit.rows.get('jetton_masters') ?? []);
    expect(rows.map((row) => [row.jetton_master, row.snapshot_time])).toEqual([1, 2, 3, 4, 5].map((i) => [address(i), LAST]));
    // The rows join the last complete snapshot: the record is committed as it was, nothing replaced.
    for (const commit of commits) expect([commit.checkpoint, commit.replace]).toEqual([record.encode(), undefined]);
  });

  it('asks nothing when the table holds every named master', async () => {
    const api = await serve();
    const { commits, addresses } = await read(api, [address(1), address(2)], [address(2), address(1), address(3)], 1000);
    expect([commits, addresses]).toEqual([[], []]);
  });

  it('keeps each request\'s URL short enough for the service: 1,030 raw addresses go 93 to a request, each asked once', async () => {
    const api = await serve();
    const named = Array.from({ length: 1030 }, (_, i) => address(i + 1));
    const { addresses, counts } = await read(api, named, [], 1000);
    expect(addresses.map((batch) => batch.length)).toEqual([...Array(11).fill(93), 7]);
    expect(addresses.flat()).toEqual(named);
    expect(counts.rows).toBe(1030);
    for (const seen of server!.seen) expect(new URL(seen.url, 'http://x').search.length).toBeLessThan(8 * 1024);
  });

  it('an answer with more items than the keys asked for is a PagingContractError naming the endpoint', async () => {
    const api = await serve(1);
    const failure = await read(api, [address(1)], [], 1000).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(PagingContractError);
    expect((failure as Error).message).toBe('/api/v3/jetton/masters sent 2 items for 1 address asked for: more than one item per key');
  });
});
