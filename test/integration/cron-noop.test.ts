/**
 * A cron sync that finds nothing new (pipelines/cron-sync.yaml's shape: the four streams, rps 10,
 * the default lag and actions overlap, DuckDB) makes only the requests it needs, counted by the
 * devnet per endpoint: the head, the tip's blocks, and the actions overlap's pages, each once; the
 * other streams none. It starts no page worker (the overlap's second page is prepared in the main
 * thread), changes no row, and records its run as ok with those pages.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult } from '../support/cli-result.js';
import { KEY, KEY_ENV } from '../support/test-key.js';
import { readWarehouse } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type Workspace } from '../support/workspace.js';

const SEED = 5150;
/** Enough for an actions overlap of two pages. */
const BLOCKS = 400;

let devnet: Devnet;
let work: Workspace;
/** Requests the devnet answered, by path, since the last `take`. */
let byPath = new Map<string, number>();

const take = (): Record<string, number> => {
  const counted = Object.fromEntries([...byPath].sort(([a], [b]) => a.localeCompare(b)));
  byPath = new Map();
  return counted;
};

beforeAll(async () => {
  devnet = await startDevnet({
    seed: SEED,
    blocks: BLOCKS,
    keys: new Map([[KEY, 'mainnet']]),
    keyRps: 10,
    onRequest: ({ path }) => byPath.set(path, (byPath.get(path) ?? 0) + 1),
  });
  work = await makeWorkspace('cron-noop');
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

describe('a cron sync with nothing new', () => {
  it('asks for the head, the tip and the actions overlap once each, starts no page worker and changes no row', async () => {
    const sinkPath = join(work.dir, 'cron.duckdb');
    const pipeline = join(work.dir, 'cron.yaml');
    await writeFile(
      pipeline,
      [
        'network: mainnet',
        `base_url: ${devnet.url}`,
        `api_key_env: ${KEY_ENV}`,
        'rate: { rps: 10 }',
        'streams: [transactions, actions, jetton_transfers, validator_events]',
        `sink: { kind: duckdb, path: ${sinkPath} }`,
        '',
      ].join('\n'),
    );
    // The first sync records the checkpoints at the tip; the second loads the actions overlap below them.
    for (const _ of [1, 2]) {
      const result = await runCliInProcess(['sync', pipeline]);
      expect(result.code, describeResult(result)).toBe(0);
    }
    const before = await readWarehouse('duckdb', sinkPath, { partial: true });
    take();

    const workers: Worker[] = [];
    const onWorker = (worker: Worker): number => workers.push(worker);
    process.on('worker', onWorker);
    const noop = await runCliInProcess(['sync', pipeline]).finally(() => process.off('worker', onWorker));
    expect(noop.code, describeResult(noop)).toBe(0);
    const requests = take();

    const after = await readWarehouse('duckdb', sinkPath, { partial: true });
    const run = after.runs.find((r) => !before.runs.some((b) => b.run_id === r.run_id))!;
    expect(run.status).toBe('ok');
    const pages = JSON.parse(String(run.requests)) as Record<string, number>;
    // The overlap took more than one page: its rest was split off the scout.
    expect(pages['actions']).toBeGreaterThanOrEqual(2);
    expect(requests).toEqual({ '/api/v3/actions': pages['actions'], '/api/v3/blocks': 1, '/api/v3/masterchainInfo': 1 });
    expect(pages).toEqual({ actions: pages['actions'], jetton_transfers: 0, transactions: 0, validator_events: 0, total: 2 + pages['actions']! });
    expect(workers).toEqual([]);
    expect(after.tables).toEqual(before.tables);
    expect(after.checkpoints).toEqual(before.checkpoints);
  });
});
