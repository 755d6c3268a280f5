import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { recordingListener, replayingListener, type Listener, type RecordingStore } from '../../bench/replay-listener.js';

/** An upstream whose every answer differs (a counter), so a replayed answer is told from a fresh one. */
async function countingUpstream(): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    const body = Buffer.from(`{"n":${hits},"url":${JSON.stringify(req.url)},"key":${JSON.stringify(req.headers['x-api-key'] ?? null)},"é":"\\u00e9 é"}`);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function get(listener: Listener, path: string): Promise<{ status: number; body: Buffer; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${listener.url}${path}`, { headers: { 'X-API-Key': 'K' } });
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()), ms: performance.now() - started };
}

describe('replay listener', () => {
  it('replays recorded answers byte for byte with the latency, refuses beyond the rate, and forwards what it never saw', async () => {
    const upstream = await countingUpstream();
    open.push(upstream);
    const store: RecordingStore = new Map();
    const log: [number, string, boolean][] = [];
    const events = { onRequest: (_at: number, _done: number, status: number, path: string, replayed: boolean) => void log.push([status, path, replayed]) };
    const recorder = await recordingListener(upstream.url, store, events);
    open.push(recorder);
    const recorded = await get(recorder, '/api/v3/transactions?limit=2&sort=asc');
    expect(upstream.hits()).toBe(1);

    const replayer = await replayingListener(upstream.url, store, { keyRps: 1, latencyMs: 150 }, events);
    open.push(replayer);
    // The key is no part of the request: asked with it in the query, the recording still answers.
    const replayed = await get(replayer, '/api/v3/transactions?limit=2&sort=asc&api_key=K');
    expect(replayed.status).toBe(200);
    expect(replayed.body.equals(recorded.body)).toBe(true);
    expect(replayed.ms).toBeGreaterThanOrEqual(145);
    expect(upstream.hits()).toBe(1);

    const refused = await get(replayer, '/api/v3/transactions?limit=2&sort=asc');
    expect([refused.status, refused.body.toString()]).toEqual([429, '{"code":429,"error":"Ratelimit exceeded"}']);

    await new Promise((resolve) => setTimeout(resolve, 1000));
    const unseen = await get(replayer, '/api/v3/blocks?limit=1');
    expect([unseen.status, upstream.hits(), store.size]).toEqual([200, 2, 2]);
    expect(log.map(([status, path, replay]) => `${status} ${path} ${replay}`)).toEqual([
      '200 /api/v3/transactions false',
      '200 /api/v3/transactions true',
      '429 /api/v3/transactions true',
      '200 /api/v3/blocks false',
    ]);
  });
});
