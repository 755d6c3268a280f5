/**
 * A 429 asking for a long wait, from the user's side: a Retry-After longer than the client waits
 * (an hour; a number of seconds past Node's timer range) ends the sync at once with one line saying
 * when to run again, no Node warning, and the warehouse free for the next run.
 */
import { describe, expect, it } from 'vitest';
import type { Devnet } from '../../src/devnet/index.js';
import { runCli } from '../support/cli.js';
import { describeResult } from '../support/cli-result.js';
import type { MisbehavingServer } from '../support/misbehaving-server.js';
import { useProxiedDevnet } from '../support/proxied-devnet.js';
import type { Workspace } from '../support/workspace.js';

let work: Workspace;
let devnet: Devnet;
let proxy: MisbehavingServer;
useProxiedDevnet('retry-after', { seed: 31, blocks: 20 }, (setup) => ({ work, devnet, proxy } = setup));

describe('a Retry-After longer than the client waits', () => {
  for (const seconds of ['3600', '99999999999']) {
    it(`Retry-After: ${seconds}: exit 1 at once with one line saying when to run again, nothing else on stderr; the next sync passes`, async () => {
      const sinkPath = work.sinkPath('duckdb', `wait-${seconds}`);
      const pipeline = await work.pipeline({ url: proxy.url, kind: 'duckdb', sinkPath, name: `wait-${seconds}.yaml`, streams: ['transactions'] });
      proxy.behave((request) =>
        request.url.startsWith('/api/v3/transactions')
          ? { kind: 'reply', status: 429, body: '{"error":"Ratelimit exceed"}', headers: { 'retry-after': seconds, 'content-type': 'application/json' } }
          : { kind: 'proxy' },
      );
      const refused = await runCli(['sync', pipeline], { cwd: work.dir, timeoutMs: 30_000 });
      expect(refused.code, describeResult(refused)).toBe(1);
      expect(refused.stderr).toMatch(
        new RegExp(
          `^chain-etl: GET /api/v3/transactions: HTTP 429 asks to wait ${seconds} s \\(Retry-After: ${seconds}\\), longer than the 120 s chain-etl waits while it holds the warehouse: ` +
            'run again after \\d{4,}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC\\n$',
        ),
      );
      proxy.behave(() => ({ kind: 'proxy' }));
      const next = await runCli(['sync', pipeline], { cwd: work.dir });
      expect(next.code, describeResult(next)).toBe(0);
      expect(next.stderr).toBe('');
    });
  }
});
