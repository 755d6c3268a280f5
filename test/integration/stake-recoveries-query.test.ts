/**
 * docs/queries/stake-recoveries-by-cycle.sql against a warehouse synced from a devnet of three
 * cycles: every stake_recovered event (its election_id NULL, as the service sends it) is tied to the
 * cycle its stake was held for, the one the devnet's elector paid it for (stake plus 1/2000 reward).
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Devnet } from '../../src/devnet/index.js';
import { streamByName } from '../../src/streams/index.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult } from '../support/cli-result.js';
import { syncedBounds, truthItems } from '../support/expected-rows.js';
import { startTestDevnet } from '../support/test-devnet.js';
import { openWarehouse } from '../support/warehouse-reader.js';
import { readWarehouse } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type Workspace } from '../support/workspace.js';

const validatorEventsStream = streamByName('validator_events');
const QUERY = new URL('../../docs/queries/stake-recoveries-by-cycle.sql', import.meta.url);

let devnet: Devnet;
let work: Workspace;

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: 4242, blocks: 330 });
  work = await makeWorkspace('stake-recoveries');
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

describe('the stake recoveries by cycle query', () => {
  it('ties every recovered stake to the cycle it was held for, the reward being what came back above the stake', async () => {
    const sinkPath = work.sinkPath('duckdb');
    const pipeline = await work.pipeline({ url: devnet.url, kind: 'duckdb', sinkPath, streams: ['validator_events', 'validator_cycles'] });
    const result = await runCliInProcess(['sync', pipeline]);
    expect(result.code, describeResult(result)).toBe(0);

    // What the sync stored: up to its checkpoint (the newest block is beyond a sync's exclusive end).
    const stored = truthItems(devnet, validatorEventsStream, syncedBounds(devnet, await readWarehouse('duckdb', sinkPath, { tables: [] }))(validatorEventsStream));
    const recoveries = (stored as Record<string, unknown>[]).filter((e) => e.type === 'stake_recovered');
    expect(recoveries.length).toBeGreaterThan(3);
    expect(recoveries.every((e) => e.election_id === undefined)).toBe(true);
    // The devnet's elector pays a stake elected in cycle c's election back from cycle c + 2 on: the
    // set it joined validated cycle c + 1, the last one that ended before the recovery.
    const cycles = devnet.truth('validator_cycles');
    const expected = recoveries.map((e) => {
      const held = cycles.filter((c) => (c.cycle_end as number) <= (e.utime as number)).at(-1)!;
      const member = (held.validators as Record<string, unknown>[]).find((v) => v.stake_holder_address === e.stake_holder_address)!;
      const stake = BigInt(member.stake as string);
      return { tx_time: e.utime as number, tx_hash: e.tx_hash as string, election_id: String(held.election_id), stake: String(stake), reward: String(stake / 2000n) };
    });
    // The query's order: by time, then by hash (byte order, as DuckDB compares text).
    expected.sort((a, b) => a.tx_time - b.tx_time || (a.tx_hash < b.tx_hash ? -1 : a.tx_hash > b.tx_hash ? 1 : 0));
    expect(new Set(expected.map((e) => e.election_id)).size).toBeGreaterThan(0);

    const reader = await openWarehouse('duckdb', sinkPath);
    try {
      const rows = await reader.query(await readFile(QUERY, 'utf8'));
      expect(rows.map((r) => ({ tx_hash: r.tx_hash, election_id: String(r.election_id), stake: String(r.stake), reward: String(r.reward) }))).toEqual(
        expected.map(({ tx_time: _, ...row }) => row),
      );
    } finally {
      reader.close();
    }
  });
});
