/**
 * `chain-etl verify` when the block headers it fetches for a pipeline of transactions alone cannot
 * be had (test/integration/verify.test.ts has them fetched): a proxy in front of the devnet fails
 * every `/blocks` request of the blocks stream (the masterchain lookups of the tip still answer).
 * The stored checks still run and pass; the one check left out is named, with why, and exit 0.
 */
import { appendFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult } from '../support/cli-result.js';
import type { MisbehavingServer } from '../support/misbehaving-server.js';
import { useProxiedDevnet } from '../support/proxied-devnet.js';
import type { Workspace } from '../support/workspace.js';

let work: Workspace;
let proxy: MisbehavingServer;
useProxiedDevnet('verify-headers', { seed: 7118, blocks: 30 }, (setup) => ({ work, proxy } = setup));

describe('verify without the block headers it wants', () => {
  it('runs the stored checks, names the check it left out and why, and exits 0', async () => {
    const sinkPath = work.sinkPath('duckdb', 'headers-down');
    const pipeline = await work.pipeline({ url: proxy.url, kind: 'duckdb', sinkPath, name: 'headers-down.yaml', streams: ['transactions'] });
    await appendFile(pipeline, 'http: { retries: 0 }\n');
    proxy.behave(() => ({ kind: 'proxy' }));
    const synced = await runCliInProcess(['sync', pipeline]);
    expect(synced.code, describeResult(synced)).toBe(0);

    proxy.behave((request) => {
      const url = new URL(request.url, proxy.origin);
      // The blocks stream asks for every workchain; the tip's lookups name the masterchain.
      if (url.pathname === '/api/v3/blocks' && !url.searchParams.has('workchain')) return { kind: 'reply', status: 500, body: '{"error":"timeout: context deadline exceeded"}' };
      return { kind: 'proxy' };
    });
    const result = await runCliInProcess(['verify', pipeline, '--log-level', 'silent']);
    expect(result.code, describeResult(result)).toBe(0);
    const [consistent, ...notes] = result.stdout.trimEnd().split('\n');
    expect(consistent).toMatch(/^consistent: \S+ \(checked: checkpoints of _etl_checkpoints 1, keys of transactions \d+, keys of messages \d+, transaction-links of transactions \d+\)$/);
    expect(notes).toEqual([expect.stringMatching(/^not checked: the blocks' transaction counts: the pipeline stores no blocks, and their headers come from the service \(the fetch failed: .*500.*\)$/)]);
  });
});
