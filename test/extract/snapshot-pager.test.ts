/**
 * The snapshot pager against a real HTTP server on 127.0.0.1 serving a list by offset: pages of 3
 * overlapping by one item read it whole; an item leaving the list before the offset while it is read
 * (the rest shifts back: one item would be skipped unseen) is noticed and the read begins again, and
 * a list that keeps shifting ends in a PagingContractError instead of an incomplete snapshot.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { V3Api } from '../../src/api/v3.js';
import { PagingContractError } from '../../src/extract/page-check.js';
import { snapshotPages, SNAPSHOT_PASSES } from '../../src/extract/snapshot-pager.js';
import { jettonWalletsStream } from '../../src/streams/jetton-wallets.js';
import { testClient } from '../api/helpers.js';
import { startMisbehavingServer, type MisbehavingServer } from '../support/misbehaving-server.js';

const LIMIT = 3;
const address = (i: number): string => `0:${i.toString(16).toUpperCase().padStart(64, '0')}`;
const wallet = (i: number): Record<string, unknown> => ({
  address: address(i),
  balance: String(i * 1000),
  owner: address(1000 + i),
  jetton: address(2000),
  last_transaction_lt: String(i),
  code_hash: null,
  data_hash: null,
});

let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Serves `list()` by offset and limit, as the service's stable order does; `list` may change between requests. */
async function serve(list: (request: number) => readonly number[]): Promise<V3Api> {
  server = await startMisbehavingServer();
  let requests = 0;
  server.behave((request) => {
    const query = new URL(request.url, 'http://x').searchParams;
    const offset = Number(query.get('offset'));
    const limit = Number(query.get('limit'));
    const items = list(requests++).slice(offset, offset + limit).map(wallet);
    return { kind: 'reply', status: 200, body: JSON.stringify({ jetton_wallets: items, address_book: {} }) };
  });
  return new V3Api(testClient({ baseUrl: server.origin }));
}

async function readAll(api: V3Api): Promise<{ keys: string[]; offsets: number[] }> {
  const keys: string[] = [];
  const offsets: number[] = [];
  for await (const page of snapshotPages(jettonWalletsStream, api, {}, { limit: LIMIT, time: 0 })) {
    offsets.push(page.request.offset);
    keys.push(...page.items.map((item) => item.key));
  }
  return { keys, offsets };
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

describe('snapshotPages', () => {
  it('reads a list in pages that overlap by one item, each item once, and sends no sort', async () => {
    const api = await serve(() => range(8));
    const { keys, offsets } = await readAll(api);
    expect(keys).toEqual(range(8).map(address));
    expect(offsets).toEqual([0, 2, 4, 6]);
    for (const seen of server!.seen) expect(new URL(seen.url, 'http://x').searchParams.has('sort')).toBe(false);
  });

  it('an item leaving the list before the offset while it is read: the read begins again and misses nothing', async () => {
    // Item 2 is destroyed after the first page: item 4 would move to offset 2 and be skipped by offset 3.
    const api = await serve((request) => (request === 0 ? range(8) : range(8).filter((i) => i !== 2)));
    const { keys, offsets } = await readAll(api);
    expect(offsets).toEqual([0, 0, 2, 4, 6]);
    expect(new Set(keys)).toEqual(new Set(range(8).filter((i) => i !== 2).concat(2).map(address)));
    // The second pass alone is the list as it is now, complete.
    expect(keys.slice(3)).toEqual(range(8).filter((i) => i !== 2).map(address));
  });

  it(`a list that shifts on every read: after ${SNAPSHOT_PASSES} passes a PagingContractError names the endpoint`, async () => {
    const api = await serve((request) => range(8).slice(request % 2 === 0 ? 0 : 1));
    const failure = await readAll(api).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(PagingContractError);
    expect((failure as Error).message).toMatch(/^\/api\/v3\/jetton\/wallets changed while it was read 3 times over \(last: the page at offset 2 does not begin with the last item of the page before it\): the snapshot is not stored complete; narrow the scope/);
  });
});
