import { afterEach, describe, expect, it } from 'vitest';
import type { StreamDefinition } from '../../src/core/stream.js';
import { PagePool } from '../../src/run/workers/page-pool.js';
import { validatorEventsStream } from '../../src/streams/validator-events.js';

const script = new URL('./heap-limit-page-worker.mjs', import.meta.url);
const pools: PagePool[] = [];

/** The old-generation limit, MB, a worker of a pool with these options runs under. */
async function workerHeapLimit(maxResponseMb?: number): Promise<string> {
  const pool = new PagePool({ size: 1, script, ...(maxResponseMb === undefined ? {} : { maxResponseMb }) });
  pools.push(pool);
  const prepared = await pool.prepare(validatorEventsStream as StreamDefinition, new TextEncoder().encode('{}'));
  return prepared.kind === 'not-a-list' ? prepared.shown : `unexpected ${prepared.kind}`;
}

describe('PagePool heap limit', () => {
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.close()));
  });

  it('runs each worker with room for 8 × the largest body, 512 MB for the default of 64 MB', async () => {
    expect(await workerHeapLimit()).toBe('512');
    expect(await workerHeapLimit(100)).toBe('800');
  });

  it('gives a small body limit the floor of 256 MB', async () => {
    expect(await workerHeapLimit(1)).toBe('256');
  });
});
