import { afterEach, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { DevnetClient } from '../support/http.js';

const KEY = 'indexer-behaviour-key';
let devnet: Devnet | undefined;

async function start(opts: Parameters<typeof startDevnet>[0]): Promise<{ devnet: Devnet; client: DevnetClient }> {
  devnet = await startDevnet({ blocks: 200, keys: new Map([[KEY, 'mainnet']]), keyRps: 1000, ...opts });
  return { devnet, client: new DevnetClient(devnet.url, KEY) };
}

afterEach(async () => {
  await devnet?.close();
  devnet = undefined;
});

const lastSeqno = async (client: DevnetClient): Promise<number> => (await client.v3<{ last: { seqno: number } }>('masterchainInfo')).body.last.seqno;

describe('devnet indexer behaviour', () => {
  it('with a lagging replica, the indexed head moves backwards between requests', async () => {
    const { client } = await start({ replicaLag: 7 });
    const seen = [await lastSeqno(client), await lastSeqno(client), await lastSeqno(client), await lastSeqno(client)];
    expect(seen).toEqual([50_000_199, 50_000_192, 50_000_199, 50_000_192]);
    const counts = [];
    for (let i = 0; i < 2; i++) counts.push((await client.v3<{ transactions: unknown[] }>('transactions', { start_lt: '60000190000000', limit: 1000, sort: 'asc' })).body.transactions.length);
    expect(counts[0]).toBeGreaterThan(counts[1]!);
  });

  it('a stalled indexer keeps its head while the chain grows, then catches up', async () => {
    const { devnet, client } = await start({});
    devnet.stallIndexer();
    devnet.grow(5);
    expect(await lastSeqno(client)).toBe(50_000_199);
    expect((await client.get<{ result: { last: { seqno: number } } }>('v2', 'getMasterchainInfo')).body.result.last.seqno).toBe(50_000_204);
    devnet.resumeIndexer();
    expect(await lastSeqno(client)).toBe(50_000_204);
  });

  it('re-classifying a trace changes its actions\' type and action_id in responses and truth', async () => {
    const { devnet, client } = await start({});
    const before = devnet.truth('actions');
    const [traceId] = devnet.reclassify(1);
    const old = before.filter((a) => a.trace_id === traceId);
    expect(old.map((a) => a.type)).toEqual(['ton_transfer']);
    const now = (await client.v3<{ actions: Record<string, unknown>[] }>('actions', { trace_id: traceId, limit: 10 })).body.actions;
    expect(now.map((a) => a.type)).toEqual(['call_contract']);
    expect(now[0]!.action_id).not.toBe(old[0]!.action_id);
    const after = devnet.truth('actions');
    expect(after.length).toBe(before.length);
    expect(after.some((a) => a.action_id === old[0]!.action_id)).toBe(false);
  });
});
