/**
 * The devnet is a function of its seed and flags (docs/design.md §6): same seed → byte-identical
 * answers, including the seeded tie order of jetton transfers; the CLI prints the same truth and
 * serves it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { buildDevnetApi, startDevnet, type Devnet } from '../../src/devnet/index.js';
import { truthRows } from '../../src/devnet/truth.js';
import { FIRST_MC_SEQNO } from '../../src/devnet/chain/constants.js';
import { DevnetClient, type Query } from '../support/http.js';
import { PROJECT_ROOT } from '../support/build.js';
import { runCli } from '../support/cli.js';
import type { CliResult } from '../support/cli-result.js';
import { startDevnetChild } from '../support/devnet-child.js';

const KEY = 'determinism-key';
const OPTIONS = { blocks: 200, keys: new Map([[KEY, 'mainnet' as const]]), keyRps: 100_000, indexerLag: 2 } as const;

const devnets: Devnet[] = [];

async function devnet(seed: number): Promise<DevnetClient> {
  const d = await startDevnet({ ...OPTIONS, seed });
  devnets.push(d);
  return new DevnetClient(d.url, KEY);
}

afterAll(async () => {
  await Promise.all(devnets.map((d) => d.close()));
});

/** An lt with at least two jetton transfers on a seed's chain (ties come back in the tie RNG's order). */
function tiedJettonLt(seed: number): string {
  const api = buildDevnetApi({ ...OPTIONS, seed });
  const counts = new Map<string, number>();
  for (const r of truthRows(api, 'jetton_transfers')) counts.set(r.transaction_lt as string, (counts.get(r.transaction_lt as string) ?? 0) + 1);
  const lt = [...counts].find(([, n]) => n >= 3)?.[0] ?? [...counts].find(([, n]) => n >= 2)?.[0];
  if (lt === undefined) throw new Error(`seed ${seed} has no lt with two jetton transfers`);
  return lt;
}

const REQUESTS: readonly (readonly ['v2' | 'v3', string, Query])[] = [
  ['v3', 'masterchainInfo', {}],
  ['v3', 'blocks', { sort: 'asc', limit: 50, offset: 100 }],
  ['v3', 'transactions', { sort: 'asc', limit: 300 }],
  ['v3', 'transactions', { sort: 'desc', limit: 100, offset: 50 }],
  ['v3', 'transactionsByMasterchainBlock', { seqno: FIRST_MC_SEQNO + 120, limit: 1000 }],
  ['v3', 'messages', { limit: 200 }],
  ['v3', 'actions', { sort: 'asc', limit: 200, include_accounts: true }],
  ['v3', 'traces', { limit: 20, include_actions: true }],
  ['v3', 'jetton/transfers', { sort: 'asc', limit: 100 }],
  ['v3', 'jetton/burns', { sort: 'asc', limit: 50 }],
  ['v3', 'nft/transfers', { sort: 'asc', limit: 50 }],
  ['v3', 'validators/events', { limit: 100 }],
  ['v2', 'getMasterchainInfo', {}],
];

async function texts(client: DevnetClient, requests: readonly (readonly ['v2' | 'v3', string, Query])[]): Promise<string[]> {
  const out: string[] = [];
  for (const [version, endpoint, query] of requests) {
    const reply = await client.get(version, endpoint, query);
    expect(reply.status, `${endpoint}: ${reply.text.slice(0, 200)}`).toBe(200);
    // v2's `@extra` carries the wall clock and a request counter, as on the real gateway.
    out.push(version === 'v2' ? JSON.stringify({ ...(reply.body as object), '@extra': null }) : reply.text);
  }
  return out;
}

describe('determinism', () => {
  it('answers byte for byte the same on two devnets with the same seed and flags', async () => {
    const [a, b] = [await devnet(11), await devnet(11)];
    const first = await texts(a, REQUESTS);
    expect(await texts(b, REQUESTS)).toEqual(first);
    expect(first.every((text) => text.length > 20)).toBe(true);
  });

  it('repeats the random tie order of jetton transfers for the same request sequence', async () => {
    const lt = tiedJettonLt(11);
    const tiePage: readonly ['v3', string, Query] = ['v3', 'jetton/transfers', { start_lt: lt, end_lt: lt, limit: 10, sort: 'asc' }];
    const sequence = Array.from({ length: 12 }, () => tiePage);
    const [a, b] = [await devnet(11), await devnet(11)];
    const fromA = await texts(a, sequence);
    expect(new Set(fromA).size).toBeGreaterThanOrEqual(2); // the order does change between requests…
    expect(await texts(b, sequence)).toEqual(fromA); // …in the same way on both devnets
  });

  it('a stall moves the blocks from it on in time and nothing else: the same gaps after it, the same lts', () => {
    const chain = (stall?: { step: number; until: number }) => buildDevnetApi({ seed: 11, blocks: 30, stall }).generator.chain;
    const [plain, stalled] = [chain(), chain({ step: 10, until: Date.UTC(2026, 0, 3, 23, 58) / 1000 })];
    const gaps = (utimes: readonly number[]) => utimes.slice(11).map((utime, i) => utime - utimes[10 + i]!);
    expect(stalled.utimes.slice(0, 10)).toEqual(plain.utimes.slice(0, 10));
    expect(stalled.utimes[10]).toBe(Date.UTC(2026, 0, 3, 23, 58) / 1000);
    expect(gaps(stalled.utimes)).toEqual(gaps(plain.utimes));
    expect(stalled.txs.map((tx) => tx.lt)).toEqual(plain.txs.map((tx) => tx.lt));
    expect(() => chain({ step: 10, until: plain.utimes[9]! })).toThrow(/must end after the time of the block before it/);
  });

  it('answers differently for a different seed', async () => {
    const [a, b] = [await devnet(11), await devnet(12)];
    const fromA = await texts(a, REQUESTS);
    const fromB = await texts(b, REQUESTS);
    // Every answer differs, block hashes included (they come from the seed too).
    REQUESTS.forEach(([, endpoint], i) => expect(fromB[i], endpoint).not.toBe(fromA[i]));
  });
});

/** The CLI's devnets: a chain is generated in the child and again in the test to compare. */
const CLI_BLOCKS = 40;

describe('chain-etl devnet (CLI)', () => {
  it('prints `devnet truth` as NDJSON equal to buildDevnetApi truth', async () => {
    const { code, stdout } = await runCli(['devnet', 'truth', '--seed', '7', '--blocks', String(CLI_BLOCKS), '--dataset', 'transactions'], { cwd: PROJECT_ROOT });
    expect(code).toBe(0);
    const rows = truthRows(buildDevnetApi({ seed: 7, blocks: CLI_BLOCKS }), 'transactions');
    expect(rows.length).toBeGreaterThan(500);
    expect(stdout).toBe(rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`serves on the port it prints and exits 0 on ${signal}`, async () => {
      const child = await startDevnetChild(['--seed', '7', '--blocks', String(CLI_BLOCKS)], { cwd: PROJECT_ROOT });
      let ended: CliResult;
      try {
        const firstLine = child.stdout().split('\n')[0]!;
        const transactions = buildDevnetApi({ seed: 7, blocks: CLI_BLOCKS }).generator.chain.txs.length;
        expect(firstLine).toBe(`devnet listening on http://127.0.0.1:${child.port} (seed 7, ${CLI_BLOCKS} masterchain blocks, ${transactions} transactions, network mainnet)`);
        const reply = await new DevnetClient(child.url).v3<{ last: { seqno: number } }>('masterchainInfo');
        expect(reply.status).toBe(200);
        expect(reply.body.last.seqno).toBe(FIRST_MC_SEQNO + CLI_BLOCKS - 1);
      } finally {
        ended = await child.stop(signal);
      }
      expect({ code: ended.code, signal: ended.signal }).toEqual({ code: 0, signal: null });
      expect(ended.stderr).toBe('');
    });
  }
});
