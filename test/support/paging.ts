/**
 * Paging-contract scenarios from the user's side: the CLI as a process against a devnet that pages
 * wrongly (src/devnet/http/paging-faults.ts), or against a purpose-built service whose positions
 * hold more items than a page, in a fresh order per request. Shared by test/integration and
 * test/chaos.
 */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parseItems } from '../../src/api/wire.js';
import type { StreamDefinition } from '../../src/core/stream.js';
import { buildDevnetApi, type Devnet } from '../../src/devnet/index.js';
import type { PagingFaults } from '../../src/devnet/http/paging-faults.js';
import { createDevnetServer, type DevnetServer } from '../../src/devnet/http/server.js';
import type { Handler } from '../../src/devnet/http/types.js';
import { devnetRoutes } from '../../src/devnet/api/routes.js';
import type { Row } from '../../src/core/table.js';
import { actionsStream } from '../../src/streams/actions.js';
import { jettonTransfersStream } from '../../src/streams/jetton-transfers.js';
import { transactionsStream } from '../../src/streams/transactions.js';
import { streams } from '../../src/streams/index.js';
import { callV3 } from './devnet-routes.js';
import { mcBlock, type McBlock, positionAt, tipPositionOf } from './chain-points.js';
import { runCli } from './cli.js';
import { type CliResult, describeResult, messageLines } from './cli-result.js';
import { expectedWarehouse } from './expected-rows.js';
import { describeDiff, diffRows, diffWarehouse, mismatch, NO_MISMATCH, tableNamed } from './row-diff.js';
import { seededRandom } from './seeded-random.js';
import { FIRST_MC, startTestDevnet } from './test-devnet.js';
import { KEY } from './test-key.js';
import { readWarehouse } from './warehouse-snapshot.js';
import type { SinkKind, Workspace } from './workspace.js';

export type PagingFault = keyof PagingFaults;

/** What a sync against each fault must end with: the truth, or exit 1 naming the violation. */
export const PAGING_OUTCOMES: Readonly<Record<PagingFault, RegExp | 'equal'>> = {
  descending: /items are not in ascending (lt|utime) order|it began at (lt|utime) \d+, but .* lies between/,
  beyondBounds: /item \S+ is at (lt|utime) \d+, outside the requested \d+\.\.\d+/,
  repeatPages: /item \S+ is at (lt|utime) \d+, outside the requested \d+\.\.\d+|its first item is at/,
  overLimit: /it sent 1001 items for limit 1000/,
  // The real service's behaviour for ties; transactions then lose their (lt, account) order.
  shuffleTies: 'equal',
  // Offset is a shortcut only: no devnet position holds more items than a page.
  ignoreOffset: 'equal',
};

const MESSAGE = /^chain-etl: \/api\/v3\/[a-z/]+\?start_(lt|utime)=\d+&end_(lt|utime)=\d+&limit=\d+&offset=\d+ broke the paging contract: .+; nothing of it was stored and the checkpoint stays before it: run again once the service pages correctly \(or point base_url at one that does\)$/;

/** Masterchain blocks the pipelines stay behind the head: items beyond a run's end exist. */
const LAG = 2;

/** The last block a sync with the pipelines below reaches. */
function settledTip(devnet: Devnet): McBlock {
  return mcBlock(devnet, devnet.view.indexedSeqno - LAG);
}

function pipeline(url: string, kind: SinkKind, sinkPath: string, streamNames?: readonly string[]): string {
  return [
    'network: mainnet',
    `base_url: ${url}`,
    'api_key_env: CHAIN_ETL_TEST_KEY',
    'rate: { rps: 500, concurrency: 4 }',
    'http: { retries: 1 }',
    `start: { mc_seqno: ${FIRST_MC} }`,
    `lag: { mc_blocks: ${LAG} }`,
    `streams: [${(streamNames ?? streams.map((stream) => stream.name)).join(', ')}]`,
    `sink: { kind: ${kind}, path: ${JSON.stringify(sinkPath)} }`,
    '',
  ].join('\n');
}

async function writePipeline(work: Workspace, name: string, text: string): Promise<string> {
  const path = join(work.dir, `${name}.yaml`);
  await writeFile(path, text);
  return path;
}

/**
 * A sync against a devnet with one paging fault on every list request, then (when it fails) a rerun
 * of the same warehouse against a healthy devnet of the same chain.
 */
export async function runPagingFault(work: Workspace, fault: PagingFault, kind: SinkKind, options: { seed: number; blocks: number }): Promise<void> {
  const label = `paging-${fault}-${kind}`;
  const faulty = await startTestDevnet({ ...options, faults: { paging: { [fault]: 1 } } });
  const healthy = await startTestDevnet(options);
  try {
    const sinkPath = work.sinkPath(kind, label);
    const result = await runCli(['sync', await writePipeline(work, label, pipeline(faulty.url, kind, sinkPath))], { cwd: work.dir, timeoutMs: 60_000 });
    const expected = PAGING_OUTCOMES[fault];
    const start = mcBlock(healthy, FIRST_MC);
    const all = expectedWarehouse(healthy, (stream) => ({ from: positionAt(start, stream), to: tipPositionOf(settledTip(healthy), stream) }));
    if (expected === 'equal') {
      expect(result.code, describeResult(result)).toBe(0);
    } else {
      expect(result.code, describeResult(result)).toBe(1);
      const lines = messageLines(result.stderr);
      expect(lines, describeResult(result)).toHaveLength(1);
      expect(lines[0]).toMatch(MESSAGE);
      expect(lines[0]).toMatch(expected);
      // Nothing wrong stored: every stored row is a row of the chain, and every row up to a checkpoint is stored.
      const partial = await readWarehouse(kind, sinkPath, { partial: true });
      for (const diff of diffWarehouse(all, partial.tables)) expect({ ...mismatch(diff), missing: 0 }, describeDiff(diff)).toEqual(NO_MISMATCH);
      const verified = expectedWarehouse(healthy, (stream) => ({ from: positionAt(start, stream), to: partial.checkpoints.get(stream.name) ?? positionAt(start, stream) - 1n }));
      for (const [table, rows] of verified) expect(diffRows(tableNamed(table), rows, partial.tables.get(table) ?? []).missing, table).toBe(0);
      for (const [stream, position] of partial.checkpoints) expect(position, stream).toBeLessThanOrEqual(settledTip(healthy).endLt);
      const rerun = await runCli(['sync', await writePipeline(work, `${label}-healthy`, pipeline(healthy.url, kind, sinkPath))], { cwd: work.dir, timeoutMs: 60_000 });
      expect(rerun.code, describeResult(rerun)).toBe(0);
    }
    const snapshot = await readWarehouse(kind, sinkPath);
    for (const diff of diffWarehouse(all, snapshot.tables)) expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);
  } finally {
    await faulty.close();
    await healthy.close();
  }
}

// ---------------------------------------------------------------------------------------------
// A service whose positions hold more items than a page


export interface CrowdedOptions {
  readonly seed: number;
  readonly blocks: number;
  /** Items at the crowded lt, of each stream. */
  readonly crowd: number;
  readonly ignoreOffset?: boolean;
  readonly stableTies?: boolean;
}

interface CrowdedService {
  readonly server: DevnetServer;
  /** The items each stream serves, as sent. */
  readonly items: ReadonlyMap<StreamDefinition, readonly Record<string, unknown>[]>;
}

/**
 * The devnet's chain endpoints, with `/transactions`, `/jetton/transfers` and `/actions` serving a few items
 * around one lt that holds `crowd` of each (more than a page), returned in a fresh random order per request (so
 * transactions break their (lt, account) order as well); `ignoreOffset` makes the lists ignore offset.
 */
export async function startCrowdedService(options: CrowdedOptions): Promise<CrowdedService> {
  const api = buildDevnetApi(options);
  const routes = devnetRoutes(api);
  const block = callV3<{ blocks: { start_lt: string }[] }>(api, 'blocks', { workchain: -1, shard: '8000000000000000', seqno: FIRST_MC + 5, limit: 1 });
  const crowdedLt = BigInt(block.blocks[0]!.start_lt) + 7n;
  const tx = callV3<{ transactions: Record<string, unknown>[] }>(api, 'transactions', { limit: 1, sort: 'asc' }).transactions[0]!;
  const transfer = callV3<{ jetton_transfers: Record<string, unknown>[] }>(api, 'jetton/transfers', { limit: 1, sort: 'asc' }).jetton_transfers[0]!;
  const action = callV3<{ actions: Record<string, unknown>[] }>(api, 'actions', { limit: 1, sort: 'asc', include_accounts: true }).actions[0]!;
  const digest = (text: string): Buffer => createHash('sha256').update(`${options.seed}:${text}`).digest();
  const lts = [crowdedLt - 3n, crowdedLt - 3n, crowdedLt + 2n, crowdedLt + 9n, ...Array.from({ length: options.crowd }, () => crowdedLt)];
  const transactions = lts.map((at, i) => ({ ...tx, hash: digest(`tx${i}`).toString('base64'), account: `0:${digest(`account${i}`).toString('hex').toUpperCase()}`, lt: String(at), in_msg: null, out_msgs: [] }));
  const transfers = lts.map((at, i) => ({ ...transfer, transaction_hash: digest(`transfer${i}`).toString('base64'), transaction_lt: String(at) }));
  // The crowded actions are one trace: split between two commits, its replacement would drop the first part.
  const actions = lts.map((at, i) => ({ ...action, action_id: digest(`action${i}`).toString('base64'), trace_id: digest(`trace${at}`).toString('base64'), trace_end_lt: String(at) }));
  const random = options.stableTies === true ? () => 0 : seededRandom(options.seed);
  const list =
    (key: string, items: readonly Record<string, unknown>[], field: string): Handler =>
    (req) => {
      const position = (item: Record<string, unknown>): bigint => BigInt(String(item[field]));
      const from = req.query.bigint('start_lt') ?? 0n;
      const to = req.query.bigint('end_lt') ?? 2n ** 63n;
      const limit = req.query.limit(10, 1000);
      const offset = options.ignoreOffset === true ? 0 : req.query.offset();
      const keyed = items.filter((item) => position(item) >= from && position(item) <= to).map((item) => ({ item, tie: random() }));
      keyed.sort((a, b) => (position(a.item) !== position(b.item) ? (position(a.item) < position(b.item) ? -1 : 1) : a.tie - b.tie));
      return { [key]: keyed.slice(offset, offset + limit).map((k) => k.item), address_book: {} };
    };
  const server = await createDevnetServer({
    routes: {
      v2: routes.v2,
      v3: {
        ...routes.v3,
        transactions: list('transactions', transactions, 'lt'),
        'jetton/transfers': list('jetton_transfers', transfers, 'transaction_lt'),
        actions: list('actions', actions, 'trace_end_lt'),
      },
    },
    keys: new Map([[KEY, 'mainnet']]),
    keyRps: 1000,
    random: seededRandom(options.seed + 1),
  });
  return {
    server,
    items: new Map<StreamDefinition, readonly Record<string, unknown>[]>([
      [transactionsStream as StreamDefinition, transactions],
      [jettonTransfersStream as StreamDefinition, transfers],
      [actionsStream as StreamDefinition, actions],
    ]),
  };
}

/** Rows per table of the items a crowded service serves, as each stream makes them. */
export function crowdedTruth(service: CrowdedService): Map<string, Row[]> {
  const rows = new Map<string, Row[]>();
  for (const [stream, items] of service.items) {
    const { ok, rejects } = parseItems(stream.item, items);
    if (rejects.length > 0) throw new Error(`${stream.name}: a crowded item does not parse: ${rejects[0]!.reason}`);
    for (const table of stream.tables) rows.set(table.name, []);
    for (const item of ok) for (const [table, tableRows] of stream.toRows(item)) rows.get(table)!.push(...tableRows);
  }
  return rows;
}

/** A sync of transactions, jetton transfers and actions against a crowded service. */
export async function runCrowded(work: Workspace, kind: SinkKind, options: CrowdedOptions): Promise<{ result: CliResult; truth: Map<string, Row[]>; sinkPath: string }> {
  const service = await startCrowdedService(options);
  try {
    const label = `crowded-${kind}${options.ignoreOffset === true ? '-no-offset' : ''}${options.stableTies === true ? '-stable' : ''}`;
    const sinkPath = work.sinkPath(kind, label);
    const path = await writePipeline(work, label, pipeline(service.server.url, kind, sinkPath, ['transactions', 'jetton_transfers', 'actions']));
    const result = await runCli(['sync', path], { cwd: work.dir, timeoutMs: 60_000 });
    return { result, truth: crowdedTruth(service), sinkPath };
  } finally {
    await service.server.close();
  }
}
