/**
 * What a checkpoint covers, from the user's side (the CLI in process, one refusal as the binary; both sinks): a changed filter,
 * network or chain is refused with exit 2 and nothing written; a backfill to the tip hands over to the
 * first sync without a hole; a start after the settled tip is refused; and late actions are re-scanned
 * from the previous checkpoint, whatever the time between syncs.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import type { Network } from '../../src/api/network.js';
import type { StreamDefinition } from '../../src/core/stream.js';
import { streams } from '../../src/streams/index.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { mcBlock, positionAt, tipBlock, tipPositionOf } from '../support/chain-points.js';
import { runCli } from '../support/cli.js';
import { describeResult, messageLines, type CliResult } from '../support/cli-result.js';
import { expectedStreamRows } from '../support/expected-rows.js';
import { NO_MISMATCH, describeDiff, diffSnapshots, diffWarehouse, mismatch } from '../support/row-diff.js';
import { FIRST_MC } from '../support/test-devnet.js';
import { KEY } from '../support/test-key.js';
import { readWarehouse, type Snapshot } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';

const SEED = 5150;
const BLOCKS = 60;

interface Spec {
  readonly url: string;
  readonly kind: SinkKind;
  readonly sinkPath: string;
  readonly network?: Network;
  /** YAML of `start`, e.g. `{ mc_seqno: 50000000 }`; none: the first sync starts at the settled tip. */
  readonly start?: string;
  /** YAML of `streams`. @default every stream */
  readonly streams?: string;
}

const pipelineYaml = (spec: Spec): string =>
  [
    `network: ${spec.network ?? 'mainnet'}`,
    `base_url: ${spec.url}`,
    'api_key_env: CHAIN_ETL_TEST_KEY',
    'rate: { rps: 500, concurrency: 4 }',
    'http: { retries: 1 }',
    ...(spec.start === undefined ? [] : [`start: ${spec.start}`]),
    'lag: { mc_blocks: 0 }',
    `streams: ${spec.streams ?? `[${streams.map((s) => s.name).join(', ')}]`}`,
    `sink: { kind: ${spec.kind}, path: ${JSON.stringify(spec.sinkPath)} }`,
    '',
  ].join('\n');

const devnetOf = (seed: number, options: { network?: Network; classifyDelay?: number; blocks?: number } = {}): Promise<Devnet> =>
  startDevnet({ seed, blocks: options.blocks ?? BLOCKS, network: options.network, keys: new Map([[KEY, options.network ?? 'mainnet']]), keyRps: 1000, classifyDelay: options.classifyDelay });

/** The truth of each stream over its covered ranges, table by table. */
function expectedOverCovered(devnet: Devnet, snapshot: Snapshot, of: readonly StreamDefinition[] = streams): Map<string, unknown[]> {
  const all = new Map<string, unknown[]>();
  for (const stream of of) {
    for (const range of snapshot.covered.get(stream.name) ?? []) {
      for (const [table, rows] of expectedStreamRows(devnet, stream, range)) all.set(table, [...(all.get(table) ?? []), ...rows]);
    }
  }
  return all;
}

function expectEqualsTruthOverCovered(devnet: Devnet, snapshot: Snapshot, of: readonly StreamDefinition[] = streams): void {
  const expected = expectedOverCovered(devnet, snapshot, of) as Map<string, never[]>;
  for (const diff of diffWarehouse(expected, snapshot.tables)) expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
}

/** The warehouse after a refused run is the one before it: rows and checkpoints. */
function expectUnchanged(before: Snapshot, after: Snapshot): void {
  for (const diff of diffSnapshots(before.tables, after.tables)) expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
  expect(after.checkpoints).toEqual(before.checkpoints);
  expect(after.covered).toEqual(before.covered);
}

function expectRefused(result: CliResult, message: RegExp): void {
  expect(result.code, describeResult(result)).toBe(2);
  const lines = messageLines(result.stderr);
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(message);
}

let work: Workspace;
let devnet: Devnet;

beforeAll(async () => {
  work = await makeWorkspace('coverage');
  devnet = await devnetOf(SEED);
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

describe.each<SinkKind>(['duckdb', 'parquet'])('what a checkpoint covers, %s', (kind) => {
  let counter = 0;
  const pipeline = async (spec: Omit<Spec, 'kind' | 'sinkPath'>, sinkPath: string): Promise<string> => {
    const path = join(work.dir, `${kind}-${(counter += 1)}.yaml`);
    await writeFile(path, pipelineYaml({ ...spec, kind, sinkPath }));
    return path;
  };
  const run = (...args: string[]): Promise<CliResult> => runCliInProcess(args);
  /** The binary, for the one refusal whose exit code and whole stderr are those of the process. */
  const spawned = (...args: string[]): Promise<CliResult> => runCli(args, { cwd: work.dir });

  it('a changed filter is refused with exit 2, naming the old and the new filters, and nothing is written', async () => {
    const sinkPath = work.sinkPath(kind, 'filters');
    const account = mostActiveAccount(devnet);
    const start = `{ mc_seqno: ${FIRST_MC} }`;
    const filtered = await pipeline({ url: devnet.url, start, streams: `{ transactions: { accounts: [${account}] }, validator_events: }` }, sinkPath);
    const first = await run('sync', filtered);
    expect(first.code, describeResult(first)).toBe(0);
    const before = await readWarehouse(kind, sinkPath, { glob: false, partial: true });
    expect(before.tables.get('transactions')!.length).toBeGreaterThan(0);
    expect(new Set(before.tables.get('transactions')!.map((row) => row.account))).toEqual(new Set([account]));

    const widened = await pipeline({ url: devnet.url, start, streams: '{ transactions: , validator_events: }' }, sinkPath);
    expectRefused(await spawned('sync', widened), new RegExp(`^chain-etl: transactions: the warehouse holds the rows of \\{ accounts: \\[${account}\\] \\} .*asks for no filter \\(everything\\).*restore the filters, or sync into another warehouse`));
    expectRefused(await run('backfill', widened, '--from', `mc:${FIRST_MC}`), /^chain-etl: transactions: the warehouse holds the rows of/);
    expectUnchanged(before, await readWarehouse(kind, sinkPath, { glob: false, partial: true }));

    // The same filters, in another order of keys, are the same scope.
    const again = await run('sync', await pipeline({ url: devnet.url, start, streams: `{ validator_events: , transactions: { accounts: [${account}] } }` }, sinkPath));
    expect(again.code, describeResult(again)).toBe(0);
  });

  it('a warehouse holds one network: a testnet pipeline into a mainnet warehouse is refused', async () => {
    const sinkPath = work.sinkPath(kind, 'networks');
    const first = await run('sync', await pipeline({ url: devnet.url, start: `{ mc_seqno: ${FIRST_MC} }`, streams: '[validator_events]' }, sinkPath));
    expect(first.code, describeResult(first)).toBe(0);
    const before = await readWarehouse(kind, sinkPath, { glob: false, partial: true });
    const testnet = await devnetOf(SEED + 1, { network: 'testnet' });
    try {
      // Another stream too: the network is the warehouse's, not one stream's.
      const other = await pipeline({ url: testnet.url, network: 'testnet', start: `{ mc_seqno: ${FIRST_MC} }`, streams: '[jetton_transfers]' }, sinkPath);
      expectRefused(await run('sync', other), /^chain-etl: this warehouse holds mainnet data \(stream validator_events\), and the pipeline reads testnet: one warehouse holds one network; sync into another warehouse/);
    } finally {
      await testnet.close();
    }
    expectUnchanged(before, await readWarehouse(kind, sinkPath, { glob: false, partial: true }));
  });

  it('another chain behind a new base_url is refused; the same chain at another address is accepted', async () => {
    const sinkPath = work.sinkPath(kind, 'chains');
    const spec = { start: `{ mc_seqno: ${FIRST_MC} }`, streams: '[transactions]' };
    const first = await run('sync', await pipeline({ ...spec, url: devnet.url }, sinkPath));
    expect(first.code, describeResult(first)).toBe(0);
    const before = await readWarehouse(kind, sinkPath, { glob: false, partial: true });
    const other = await devnetOf(SEED + 2);
    const same = await devnetOf(SEED);
    try {
      expectRefused(await run('sync', await pipeline({ ...spec, url: other.url }, sinkPath)), /^chain-etl: the service at http:\/\/127\.0\.0\.1:\d+ serves another chain than the one this warehouse was loaded from .*masterchain block \d+ has root hash \S+ in the warehouse's chain, and the service has root hash \S+ there; point base_url at a service of the warehouse's chain/);
      expectUnchanged(before, await readWarehouse(kind, sinkPath, { glob: false, partial: true }));
      same.grow(5);
      const moved = await run('sync', await pipeline({ ...spec, url: same.url }, sinkPath));
      expect(moved.code, describeResult(moved)).toBe(0);
      const after = await readWarehouse(kind, sinkPath, { glob: false, partial: true });
      expect(after.covered.get('transactions')).toEqual([{ from: positionAt(mcBlock(same, FIRST_MC), streams[0]!), to: tipBlock(same).endLt }]);
      expectEqualsTruthOverCovered(same, after, [streams[0]!]);
    } finally {
      await other.close();
      await same.close();
    }
  });

  it('a backfill to the tip hands over to the first sync without start: no hole, one covered range', async () => {
    const chain = await devnetOf(SEED + 3);
    try {
      const sinkPath = work.sinkPath(kind, 'handoff');
      const cron = await pipeline({ url: chain.url }, sinkPath);
      const from = FIRST_MC + 10;
      const backfill = await run('backfill', cron, '--from', `mc:${from}`);
      expect(backfill.code, describeResult(backfill)).toBe(0);
      chain.grow(30);
      const sync = await run('sync', cron);
      expect(sync.code, describeResult(sync)).toBe(0);
      const snapshot = await readWarehouse(kind, sinkPath);
      for (const stream of streams) {
        // The actions re-scan reaches 150 blocks below the backfill's end: back to the chain's first block here.
        const start = mcBlock(chain, stream.rescansOverlap ? FIRST_MC : from);
        expect(snapshot.covered.get(stream.name), stream.name).toEqual([{ from: positionAt(start, stream), to: tipPositionOf(tipBlock(chain), stream) }]);
      }
      expectEqualsTruthOverCovered(chain, snapshot);
      // Rows of the blocks grown between the two commands are there.
      const grown = snapshot.tables.get('transactions')!.filter((row) => (row.mc_block_seqno as number) > FIRST_MC + BLOCKS - 1);
      expect(grown.length).toBeGreaterThan(0);

      // A backfill over a covered range has nothing to fetch; one over a gap fills it.
      const covered = await run('backfill', cron, '--from', `mc:${from}`, '--to', `mc:${from + 20}`);
      expect(covered.code, describeResult(covered)).toBe(0);
      const older = await run('backfill', cron, '--from', `mc:${FIRST_MC}`, '--to', `mc:${from}`);
      expect(older.code, describeResult(older)).toBe(0);
      const filled = await readWarehouse(kind, sinkPath, { glob: false, partial: true });
      for (const stream of streams) {
        expect(filled.covered.get(stream.name), stream.name).toEqual([{ from: positionAt(mcBlock(chain, FIRST_MC), stream), to: tipPositionOf(tipBlock(chain), stream) }]);
      }
      expectEqualsTruthOverCovered(chain, filled);
    } finally {
      await chain.close();
    }
  });

  it('an earlier start fills the range below what is covered', async () => {
    const sinkPath = work.sinkPath(kind, 'earlier');
    const later = await run('sync', await pipeline({ url: devnet.url, start: `{ mc_seqno: ${FIRST_MC + 30} }`, streams: '[transactions, validator_events]' }, sinkPath));
    expect(later.code, describeResult(later)).toBe(0);
    const earlier = await run('sync', await pipeline({ url: devnet.url, start: `{ mc_seqno: ${FIRST_MC + 10} }`, streams: '[transactions, validator_events]' }, sinkPath));
    expect(earlier.code, describeResult(earlier)).toBe(0);
    const snapshot = await readWarehouse(kind, sinkPath, { glob: false, partial: true });
    const synced = streams.filter((s) => s.name === 'transactions' || s.name === 'validator_events');
    for (const stream of synced) {
      expect(snapshot.covered.get(stream.name), stream.name).toEqual([{ from: positionAt(mcBlock(devnet, FIRST_MC + 10), stream), to: tipPositionOf(tipBlock(devnet), stream) }]);
    }
    expectEqualsTruthOverCovered(devnet, snapshot, synced);
  });

  it('a start after the settled tip is refused like a --from after it, and nothing is written', async () => {
    const sinkPath = work.sinkPath(kind, 'future');
    const tip = tipBlock(devnet);
    const starts = [`{ utime: ${new Date((tip.utime + 3600) * 1000).toISOString()} }`, `{ mc_seqno: ${tip.seqno + 5} }`, `{ lt: ${tip.endLt + 1n} }`];
    for (const start of starts) {
      expectRefused(await run('sync', await pipeline({ url: devnet.url, start }, sinkPath)), /^chain-etl: start \{ .+ \} is after the settled tip \(masterchain block \d+, lt \d+, .+\): the chain has no settled data there yet; pick an earlier start, or leave start out/);
    }
    const cron = await pipeline({ url: devnet.url }, sinkPath);
    expectRefused(await run('backfill', cron, '--from', `lt:${tip.endLt + 1n}`), /^chain-etl: --from lt:\d+ is after the settled tip .*pick an earlier --from$/);
    expectRefused(await run('backfill', cron, '--from', `mc:${FIRST_MC}`, '--to', `mc:${tip.seqno + 2}`), /^chain-etl: --to mc:\d+ is after the settled tip .*leave --to out to backfill up to the settled tip$/);
    const snapshot = await readWarehouse(kind, sinkPath, { glob: false, partial: true });
    expect([...snapshot.checkpoints.keys()]).toEqual([]);
    expect(Object.fromEntries([...snapshot.tables].map(([table, rows]) => [table, rows.length]))).toEqual(Object.fromEntries([...snapshot.tables.keys()].map((table) => [table, 0])));
  });

  it('late actions: syncs 200 blocks apart, classification 8 blocks late, the overlap of 150 counted from the checkpoint loses none', async () => {
    const chain = await devnetOf(SEED + 4, { classifyDelay: 8, blocks: 40 });
    try {
      const sinkPath = work.sinkPath(kind, 'late');
      const actions = streams.find((s) => s.name === 'actions')!;
      const cron = await pipeline({ url: chain.url, start: `{ mc_seqno: ${FIRST_MC} }`, streams: '[actions]' }, sinkPath);
      expect((await run('sync', cron)).code).toBe(0);
      const first = await readWarehouse(kind, sinkPath, { glob: false, partial: true });
      chain.grow(200);
      // The case is real: actions below the first checkpoint became visible only after it.
      const late = expectedStreamRows(chain, actions, { from: 0n, to: first.checkpoints.get('actions')! }).get('actions')!.length - first.tables.get('actions')!.length;
      expect(late).toBeGreaterThan(0);
      const second = await run('sync', cron);
      expect(second.code, describeResult(second)).toBe(0);
      expectEqualsTruthOverCovered(chain, await readWarehouse(kind, sinkPath, { glob: false, partial: true }), [actions]);
    } finally {
      await chain.close();
    }
  });
});

/** The account with the most transactions in the devnet's chain, raw form. */
function mostActiveAccount(devnet: Devnet): string {
  const counts = new Map<string, number>();
  for (const tx of devnet.truth('transactions')) counts.set(String(tx.account), (counts.get(String(tx.account)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
}
