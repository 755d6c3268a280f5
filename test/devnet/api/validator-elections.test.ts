/**
 * GET /validators/elections as the validator_elections stream reads it, against the devnet truth:
 * order by election_id with sort=asc, utime bounds inclusive on election_id, participants listed with
 * return_participants; an open election unfinished with the stakes indexed so far, its election_id
 * beyond the indexed chain's time; and `devnet truth --dataset validator_elections` printing that
 * truth. (Desc order, filters and limit 101: validators.test.ts.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDevnetApi } from '../../../src/devnet/index.js';
import { truthRows } from '../../../src/devnet/truth.js';
import { runInProcess } from '../../support/cli-in-process.js';
import { callV3 } from '../../support/devnet-routes.js';
import type { Query } from '../../support/http.js';

type Election = Record<string, unknown>;

let api: ReturnType<typeof buildDevnetApi>;
let truth: Election[];
const elections = (query: Query): Election[] =>
  callV3<{ elections: Election[] }>(api, 'validators/elections', { return_participants: true, sort: 'asc', limit: 100, ...query }).elections;
const ids = (rows: readonly Election[]): unknown[] => rows.map((e) => e.election_id);

beforeAll(() => {
  api = buildDevnetApi({ seed: 7, blocks: 420 });
  truth = truthRows(api, 'validator_elections');
});

describe('GET /validators/elections against the truth', () => {
  it('serves every election of the truth with its participants, field for field, with sort=asc in election_id order', () => {
    expect(truth.length).toBe(6);
    expect(elections({})).toEqual(truth);
    expect(ids(truth)).toEqual([...ids(truth)].sort());
    expect(truth.every((e) => (e.participants as unknown[]).length === e.total_participants)).toBe(true);
  });

  it('bounds start_utime and end_utime inclusively on election_id', () => {
    const [, second, third, fourth] = ids(truth) as number[];
    expect(ids(elections({ start_utime: second!, end_utime: third! }))).toEqual([second, third]);
    expect(ids(elections({ start_utime: second! + 1, end_utime: fourth! - 1 }))).toEqual([third]);
  });

  it('shows the open election unfinished, with the stakes indexed so far, its election_id after the last indexed block time', () => {
    const open = truth.at(-1)!;
    expect(open).toMatchObject({ finished: false, failed: false });
    expect(open.total_participants).toBeLessThan(truth.at(-2)!.total_participants as number);
    expect(open.election_id).toBeGreaterThan(api.view.chain.utimes[api.view.indexedStep]!);
    // What the stream relies on: every election whose id the indexed chain's time has reached is finished.
    const reached = truth.filter((e) => (e.election_id as number) <= api.view.chain.utimes[api.view.indexedStep]!);
    expect(reached.length).toBeGreaterThan(1);
    expect(reached.map((e) => e.finished)).toEqual(reached.map(() => true));
  });
});

describe('chain-etl devnet truth --dataset validator_elections', () => {
  it('prints the truth as NDJSON', async () => {
    const { code, stdout } = await runInProcess(['devnet', 'truth', '--seed', '7', '--blocks', '420', '--dataset', 'validator_elections']);
    expect(code).toBe(0);
    expect(stdout).toBe(truth.map((row) => JSON.stringify(row)).join('\n') + '\n');
  });
});
