import { beforeAll, describe, expect, it } from 'vitest';
import { buildDevnetApi } from '../../../src/devnet/index.js';
import { callV3 } from '../../support/devnet-routes.js';
import { apiErrorOf } from '../../support/api-error.js';
import type { Query } from '../../support/http.js';

type Row = Record<string, unknown>;

let api: ReturnType<typeof buildDevnetApi>;
const get = (endpoint: string, query: Query = {}): Row => callV3<Row>(api, endpoint, query);
const events = (query: Query = {}): Row[] => get('validators/events', query).events as Row[];
const elections = (query: Query = {}): Row[] => get('validators/elections', query).elections as Row[];
const cycles = (query: Query = {}): Row[] => get('validators/cycles', query).cycles as Row[];

beforeAll(() => {
  api = buildDevnetApi({ seed: 7, blocks: 400 });
});

describe('GET /validators/events', () => {
  it('orders by (tx_now, tx_lt) in the sort direction, default limit 10', () => {
    const chain = api.view.chain;
    const all = chain.validatorEvents.map((e) => chain.tx(e.tx).hash);
    expect(events().map((e) => e.tx_hash)).toEqual(all.slice(-10).reverse());
    const asc = events({ sort: 'asc', limit: 1000 });
    expect(asc.map((e) => e.tx_hash)).toEqual(all);
    const keys = asc.map((e) => [e.utime as number, Number(e.tx_lt)]);
    expect(keys).toEqual([...keys].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!));
  });

  it('filters utime inclusively, echoes the bounds, and has no lt filter', () => {
    const all = events({ sort: 'asc', limit: 1000 });
    const from = all[5]!.utime as number;
    const to = all[20]!.utime as number;
    const body = get('validators/events', { start_utime: from, end_utime: to, sort: 'asc', limit: 1000 });
    expect(body).toMatchObject({ start_utime: from, end_utime: to });
    const rows = body.events as Row[];
    expect(rows.map((e) => e.tx_hash)).toEqual(all.filter((e) => (e.utime as number) >= from && (e.utime as number) <= to).map((e) => e.tx_hash));
    expect(events({ start_lt: all[30]!.tx_lt as string, limit: 1000 })).toHaveLength(all.length);
  });

  it('filters by stake holder, ADNL (hex or base64), pubkey and type', () => {
    const accepted = events({ type: 'stake_accepted', sort: 'asc', limit: 1000 });
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.every((e) => e.type === 'stake_accepted')).toBe(true);
    const first = accepted[0]!;
    const holder = events({ stake_holder_address: first.stake_holder_address as string, limit: 1000 });
    expect(holder.every((e) => e.stake_holder_address === first.stake_holder_address)).toBe(true);
    const adnl = first.adnl_addr as string;
    const base64url = Buffer.from(adnl, 'hex').toString('base64url');
    expect(events({ adnl_address: base64url, limit: 1000 }).map((e) => e.tx_hash)).toEqual(events({ adnl_address: adnl.toLowerCase(), limit: 1000 }).map((e) => e.tx_hash));
    expect(events({ adnl_address: adnl, limit: 1000 }).every((e) => e.adnl_addr === adnl)).toBe(true);
    expect(events({ validator_pubkey: first.validator_pubkey as string, limit: 1000 }).every((e) => e.validator_pubkey === first.validator_pubkey)).toBe(true);
  });

  it('rejects stake_holder_address together with adnl_address, a bad type and limit 1001', () => {
    const first = events({ type: 'stake_accepted', limit: 1 })[0]!;
    const both = apiErrorOf(() => events({ stake_holder_address: first.stake_holder_address as string, adnl_address: first.adnl_addr as string }));
    expect(both.status).toBe(422);
    expect(both.message).toMatch(/stake_holder_address.*adnl_address/);
    expect(apiErrorOf(() => events({ type: 'stake_lost' })).status).toBe(422);
    expect(apiErrorOf(() => events({ limit: 1001 })).message).toBe('limit is not allowed: 1001 > 1000');
  });
});

describe('GET /validators/elections', () => {
  it('lists indexed elections by election_id desc with their totals', () => {
    const chain = api.view.chain;
    const rows = elections();
    expect(rows.map((e) => e.election_id)).toEqual(chain.elections.map((e) => e.electionId).reverse());
    const e0 = chain.elections[0]!;
    const row = rows.at(-1)!;
    expect(row).toMatchObject({
      election_id: e0.electionId,
      elect_close: e0.electClose,
      total_participants: e0.participants.length,
      total_stake: e0.participants.reduce((s, p) => s + p.stake, 0n).toString(),
      finished: true,
      failed: false,
    });
    expect(row).not.toHaveProperty('participants');
  });

  it('returns participants by stake desc, only matching ones under a filter', () => {
    const rows = elections({ return_participants: true, sort: 'asc' });
    const participants = rows[0]!.participants as Row[];
    expect(participants).toHaveLength(rows[0]!.total_participants as number);
    const stakes = participants.map((p) => BigInt(p.stake as string));
    expect(stakes.every((s, i) => i === 0 || stakes[i - 1]! >= s)).toBe(true);
    const holder = participants[3]!.stake_holder_address as string;
    const filtered = elections({ return_participants: true, stake_holder_address: holder });
    expect(filtered.length).toBeGreaterThan(0);
    for (const e of filtered) expect((e.participants as Row[]).map((p) => p.stake_holder_address)).toEqual([holder]);
  });

  it('compares start_utime/end_utime to election_id, and filters election_id and finished', () => {
    const ids = elections({ sort: 'asc' }).map((e) => e.election_id as number);
    expect(elections({ start_utime: ids[1], end_utime: ids[2], sort: 'asc' }).map((e) => e.election_id)).toEqual([ids[1], ids[2]]);
    expect(elections({ election_id: ids[0] }).map((e) => e.election_id)).toEqual([ids[0]]);
    expect(elections({ finished: false })).toEqual([]);
  });

  it('caps limit at 100 with return_participants', () => {
    expect(elections({ return_participants: true, limit: 100 }).length).toBeGreaterThan(0);
    expect(elections({ limit: 101 }).length).toBeGreaterThan(0);
    const err = apiErrorOf(() => elections({ return_participants: true, limit: 101 }));
    expect(err.status).toBe(422);
    expect(err.message).toBe('limit is not allowed: 101 > 100');
  });

  it('shows only what a lagging indexer has seen: open elections unfinished, later stakes missing', () => {
    const lagging = buildDevnetApi({ seed: 7, blocks: 400, indexerLag: 80 });
    const chain = lagging.view.chain;
    const indexed = lagging.view.indexedSeqno;
    const rows = callV3<{ elections: Row[] }>(lagging, 'validators/elections', { return_participants: true }).elections;
    const expected = chain.elections.filter((e) => e.openedMc <= indexed);
    expect(rows.map((e) => e.election_id)).toEqual(expected.map((e) => e.electionId).reverse());
    const open = expected.find((e) => e.closesMc > indexed)!;
    const row = rows.find((e) => e.election_id === open.electionId)!;
    expect(row.finished).toBe(false);
    const seen = chain.validatorEvents.filter((e) => e.type === 'stake_accepted' && e.electionId === open.electionId && chain.tx(e.tx).mcSeqno <= indexed);
    expect(row.total_participants).toBe(seen.length);
    expect(seen.length).toBeLessThan(open.participants.length);
  });
});

describe('GET /validators/cycles', () => {
  it('lists cycles whose start is indexed, cycle_start = utime of the start block, order desc', () => {
    const chain = api.view.chain;
    const started = chain.elections.filter((e) => e.cycleStartMc <= api.view.indexedSeqno);
    const rows = cycles();
    expect(rows.map((c) => c.cycle_start)).toEqual(started.map((e) => chain.utimes[chain.stepOfSeqno(e.cycleStartMc)]).reverse());
    expect(rows.map((c) => c.election_id)).toEqual(started.map((e) => e.electionId).reverse());
    expect(rows.length).toBeLessThan(chain.elections.length);
    const first = rows.at(-1)!;
    expect(first).toMatchObject({ total: started[0]!.participants.length, main: started[0]!.participants.length });
    expect(cycles({ start_utime: first.cycle_start as number, end_utime: first.cycle_start as number }).map((c) => c.election_id)).toEqual([first.election_id]);
    expect(cycles({ cycle_start: first.cycle_start as number }).map((c) => c.election_id)).toEqual([first.election_id]);
  });

  it('returns validators indexed by stake with weights summing to total_weight; limit ≤ 100', () => {
    const cycle = cycles({ return_validators: true, limit: 1 })[0]!;
    const validators = cycle.validators as Row[];
    expect(validators.map((v) => v.validator_index)).toEqual(validators.map((_, i) => i));
    expect(validators.reduce((s, v) => s + BigInt(v.weight as string), 0n).toString()).toBe(cycle.total_weight);
    expect(validators[0]!.stake).toBe(cycle.max_stake);
    expect(validators.at(-1)!.stake).toBe(cycle.min_stake);
    expect(apiErrorOf(() => cycles({ return_validators: true, limit: 101 })).message).toBe('limit is not allowed: 101 > 100');
  });
});
