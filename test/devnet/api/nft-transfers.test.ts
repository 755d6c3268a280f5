/**
 * GET /nft/transfers as the `nft_transfers` stream reads it (API-NOTES §2 and §6.3), against the devnet
 * truth: ORDER BY tx_lt only with lt bounds inclusive, utime bounds (inclusive) on tx_now,
 * owner_address (old or new owner; the undocumented `address` read when it is absent), repeated
 * item_address, one collection_address; and `devnet truth --dataset nft_transfers` printing that truth.
 * (Ties reordered across requests, direction and limit 1001: nfts.test.ts.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDevnetApi } from '../../../src/devnet/index.js';
import { truthRows } from '../../../src/devnet/truth.js';
import { runInProcess } from '../../support/cli-in-process.js';
import { callV3 } from '../../support/devnet-routes.js';
import type { Query } from '../../support/http.js';

type Transfer = Record<string, unknown>;

let api: ReturnType<typeof buildDevnetApi>;
let truth: Transfer[];
const get = (query: Query): Transfer[] => callV3<{ nft_transfers: Transfer[] }>(api, 'nft/transfers', query).nft_transfers;
const lt = (t: Transfer): bigint => BigInt(t.transaction_lt as string);
const hashes = (transfers: readonly Transfer[]): string[] => transfers.map((t) => t.transaction_hash as string).sort();
/** The truth's order: tx_lt, ties by hash (the service leaves them random). */
const byLtThenHash = (transfers: readonly Transfer[]): Transfer[] =>
  [...transfers].sort((a, b) => (lt(a) < lt(b) ? -1 : lt(a) > lt(b) ? 1 : (a.transaction_hash as string) < (b.transaction_hash as string) ? -1 : 1));

beforeAll(() => {
  api = buildDevnetApi({ seed: 7, blocks: 400 });
  truth = truthRows(api, 'nft_transfers');
});

describe('GET /nft/transfers against the truth', () => {
  it('serves every transfer of the truth, field for field, with sort=asc in tx_lt order', () => {
    expect(truth.length).toBeGreaterThan(100);
    expect(truth.length).toBeLessThan(1000);
    const page = get({ sort: 'asc', limit: 1000 });
    expect(page.map(lt)).toEqual(truth.map(lt));
    expect(byLtThenHash(page)).toEqual(truth);
  });

  it('includes both lt bounds and nothing outside them', () => {
    const from = lt(truth[5]!);
    const to = lt(truth.at(-5)!);
    const page = get({ start_lt: String(from), end_lt: String(to), sort: 'asc', limit: 1000 });
    expect(hashes(page)).toEqual(hashes(truth.filter((t) => lt(t) >= from && lt(t) <= to)));
    expect([lt(page[0]!), lt(page.at(-1)!)]).toEqual([from, to]);
  });

  it('bounds tx_now by start_utime and end_utime, both inclusive, in its order', () => {
    const now = (t: Transfer): number => t.transaction_now as number;
    const [from, to] = [now(truth[10]!), now(truth.at(-10)!)];
    const page = get({ start_utime: from, end_utime: to, sort: 'desc', limit: 1000 });
    expect(hashes(page)).toEqual(hashes(truth.filter((t) => now(t) >= from && now(t) <= to)));
    expect(page.map(now)).toEqual(page.map(now).sort((a, b) => b - a));
  });

  it('filters by owner_address (old or new owner), and reads the single `address` without it', () => {
    const owners = [truth[0]!.old_owner as string, truth[1]!.new_owner as string];
    const theirs = truth.filter((t) => owners.includes(t.old_owner as string) || owners.includes(t.new_owner as string));
    expect(hashes(get({ owner_address: owners, limit: 1000 }))).toEqual(hashes(theirs));
    const one = owners[0]!;
    const hers = truth.filter((t) => t.old_owner === one || t.new_owner === one);
    expect(hashes(get({ address: one, limit: 1000 }))).toEqual(hashes(hers));
    expect(hers.length).toBeLessThan(theirs.length);
  });

  it('filters by repeated item_address and by one collection_address', () => {
    const items = [...new Set(truth.map((t) => t.nft_address as string))].slice(0, 2);
    expect(items).toHaveLength(2);
    expect(hashes(get({ item_address: items, limit: 1000 }))).toEqual(hashes(truth.filter((t) => items.includes(t.nft_address as string))));
    expect(hashes(get({ collection_address: truth[0]!.nft_collection as string, limit: 1000 }))).toEqual(hashes(truth));
    expect(get({ collection_address: truth[0]!.nft_address as string, limit: 1000 })).toEqual([]);
  });
});

describe('chain-etl devnet truth --dataset nft_transfers', () => {
  it('prints the truth as NDJSON', async () => {
    const { code, stdout } = await runInProcess(['devnet', 'truth', '--seed', '7', '--blocks', '400', '--dataset', 'nft_transfers']);
    expect(code).toBe(0);
    expect(stdout).toBe(truth.map((row) => JSON.stringify(row)).join('\n') + '\n');
  });
});
