/**
 * GET /validators/cycles as the validator_cycles stream reads it, against the devnet truth: order by
 * cycle start with sort=asc, utime bounds inclusive on cycle_start, validators listed with
 * return_validators (only a stake holder's under its filter), a first cycle at the first block; and `devnet truth --dataset
 * validator_cycles` printing that truth. (Desc order, weights and limit 101: validators.test.ts.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDevnetApi } from '../../../src/devnet/index.js';
import { truthRows } from '../../../src/devnet/truth.js';
import { runInProcess } from '../../support/cli-in-process.js';
import { callV3 } from '../../support/devnet-routes.js';
import type { Query } from '../../support/http.js';

type Cycle = Record<string, unknown>;

let api: ReturnType<typeof buildDevnetApi>;
let truth: Cycle[];
const cycles = (query: Query): Cycle[] => callV3<{ cycles: Cycle[] }>(api, 'validators/cycles', { return_validators: true, sort: 'asc', limit: 100, ...query }).cycles;
const starts = (rows: readonly Cycle[]): unknown[] => rows.map((c) => c.cycle_start);

beforeAll(() => {
  api = buildDevnetApi({ seed: 7, blocks: 400 });
  truth = truthRows(api, 'validator_cycles');
});

describe('GET /validators/cycles against the truth', () => {
  it('serves every cycle of the truth with its validators, field for field, with sort=asc in cycle_start order', () => {
    expect(truth.length).toBe(4);
    expect(truth.every((c) => (c.validators as unknown[]).length > 0)).toBe(true);
    expect(cycles({})).toEqual(truth);
    expect(starts(truth)).toEqual([...starts(truth)].sort());
  });

  it('starts the chain at a cycle start: the genesis set validates from the first block, its election finished before it', () => {
    const short = buildDevnetApi({ seed: 7, blocks: 20 });
    const [genesis, ...rest] = truthRows(short, 'validator_cycles');
    expect(rest).toEqual([]);
    expect(genesis).toMatchObject({ cycle_start: short.view.chain.utimes[0], election_id: short.view.chain.utimes[0], total: short.view.chain.population.validators.length });
    const election = callV3<{ elections: Cycle[] }>(short, 'validators/elections', { election_id: genesis!.election_id as number }).elections;
    expect(election).toMatchObject([{ finished: true, failed: false, total_participants: genesis!.total, total_stake: genesis!.total_stake }]);
  });

  it('bounds start_utime and end_utime inclusively on cycle_start', () => {
    const [first, second, third] = starts(truth) as number[];
    expect(starts(cycles({ start_utime: second!, end_utime: third! }))).toEqual([second, third]);
    expect(starts(cycles({ start_utime: first! + 1, end_utime: third! - 1 }))).toEqual([second]);
  });

  it('lists under stake_holder_address only that holder\'s validator, with the cycle totals unchanged', () => {
    const member = (truth[0]!.validators as Cycle[])[1]!;
    const served = cycles({ stake_holder_address: member.stake_holder_address as string });
    expect(served.length).toBeGreaterThan(0);
    for (const cycle of served) {
      const whole = truth.find((c) => c.cycle_start === cycle.cycle_start)!;
      expect(cycle).toEqual({ ...whole, validators: (whole.validators as Cycle[]).filter((v) => v.stake_holder_address === member.stake_holder_address) });
    }
  });
});

describe('chain-etl devnet truth --dataset validator_cycles', () => {
  it('prints the truth as NDJSON', async () => {
    const { code, stdout } = await runInProcess(['devnet', 'truth', '--seed', '7', '--blocks', '400', '--dataset', 'validator_cycles']);
    expect(code).toBe(0);
    expect(stdout).toBe(truth.map((row) => JSON.stringify(row)).join('\n') + '\n');
  });
});
