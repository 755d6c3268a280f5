/**
 * An election finishing between two syncs (docs/design.md §2): while it runs the service lists it
 * unfinished, its stakes still coming in, and the warehouse holds nothing of it; once the settled
 * tip's time reaches its id it is finished, and the next sync stores it final, exactly as the truth,
 * once. Against a devnet over HTTP, into DuckDB.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult } from '../support/cli-result.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { openWarehouse } from '../support/warehouse-reader.js';
import { makeWorkspace, type Workspace } from '../support/workspace.js';

type Row = Record<string, unknown>;

let devnet: TestDevnet;
let work: Workspace;
let pipeline: string;
let sinkPath: string;

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: 4242, blocks: 20 });
  work = await makeWorkspace('late-election');
  sinkPath = work.sinkPath('duckdb');
  pipeline = await work.pipeline({ url: devnet.url, kind: 'duckdb', sinkPath, streams: ['validator_elections'] });
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

/** Syncs, then reads the elections and their participants as stored. */
async function sync(): Promise<{ elections: Row[]; participants: Row[] }> {
  const result = await runCliInProcess(['sync', pipeline]);
  expect(result.code, describeResult(result)).toBe(0);
  const reader = await openWarehouse('duckdb', sinkPath);
  try {
    return {
      elections: await reader.query('SELECT election_id::VARCHAR AS election_id, finished, total_participants, total_stake::VARCHAR AS total_stake FROM validator_elections ORDER BY election_id'),
      participants: await reader.query('SELECT election_id::VARCHAR AS election_id, validator_pubkey, stake::VARCHAR AS stake FROM validator_election_participants ORDER BY election_id, validator_pubkey'),
    };
  } finally {
    reader.close();
  }
}

const served = (): Row[] => devnet.truth('validator_elections');
const stored = (election: Row): Row => ({
  election_id: String(election.election_id),
  finished: election.finished,
  total_participants: election.total_participants,
  total_stake: election.total_stake,
});
const storedStakes = (elections: readonly Row[]): Row[] =>
  elections
    .flatMap((e) => (e.participants as Row[]).map((p) => ({ election_id: String(e.election_id), validator_pubkey: p.validator_pubkey, stake: p.stake })))
    .sort((a, b) => (a.election_id === b.election_id ? String(a.validator_pubkey).localeCompare(String(b.validator_pubkey)) : String(a.election_id).localeCompare(String(b.election_id))));

describe('an election finishing between two syncs', () => {
  it('is not stored while it runs, and is stored final, once, after it finished', async () => {
    const [genesis, running] = served();
    expect(running).toMatchObject({ finished: false });
    const first = await sync();
    expect(first.elections).toEqual([stored(genesis!)]);
    expect(first.participants).toEqual(storedStakes([genesis!]));

    // Closed now, more stakes taken than at the first sync, but its id not reached yet.
    devnet.grow(40);
    const closed = served()[1]!;
    expect(closed).toMatchObject({ election_id: running!.election_id, finished: true });
    expect(closed.total_participants).toBeGreaterThan(running!.total_participants as number);
    expect((await sync()).elections).toEqual([stored(genesis!)]);

    // The chain's time passes its id: the next sync stores it as it is now, final.
    devnet.grow(200);
    const reached = served().filter((e) => (e.election_id as number) < devnet.view.chain.utimes[devnet.view.indexedStep]!);
    expect(reached.map((e) => e.election_id)).toContain(running!.election_id);
    const last = await sync();
    expect(last.elections).toEqual(reached.map(stored));
    expect(last.elections.filter((e) => e.election_id === String(running!.election_id))).toEqual([stored(closed)]);
    expect(last.participants).toEqual(storedStakes(reached));
  });
});
