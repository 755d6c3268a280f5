/**
 * One bad value costs one row, from the user's side (issue 10, class 5): the CLI in process (runCli) against
 * a devnet whose `badValues` fault sends, for 5% of the items (the same ones on every request), an
 * integer beyond 2^53 as a JSON number, a fraction where unix seconds belong, or a lone surrogate in
 * a text value or a JSON key; and for 5% of the address-book entries a wrong type or a lone
 * surrogate. For both sinks: exit 0, the big integers stored exactly, exactly the other poisoned
 * items and entries in `_etl_rejects` with a reason naming the field and the value, every other row
 * equal to the truth, every table readable (the JSON through DuckDB's JSON functions), and a later
 * sync works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseItems } from '../../src/api/wire.js';
import { parseJson } from '../../src/core/exact-json.js';
import type { StreamDefinition } from '../../src/core/stream.js';
import { itemIdentity } from '../../src/devnet/http/fault-transforms.js';
import { BIG_INTEGER, entryPoison, poisonItem, withRawNumbers, type ItemPoison } from '../../src/devnet/http/value-faults.js';
import type { Row } from '../../src/core/table.js';
import { streams } from '../../src/streams/index.js';
import { addressProblems } from '../support/address-check.js';
import type { Bounds } from '../support/chain-points.js';
import { describeResult } from '../support/cli-result.js';
import { syncedBounds, truthItems } from '../support/expected-rows.js';
import { NO_MISMATCH, describeDiff, diffWarehouse, mismatch } from '../support/row-diff.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { openWarehouse } from '../support/warehouse-reader.js';
import { readWarehouse, type Snapshot } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';
import { strictSyncFailure } from '../support/strict-sync.js';
import { runCliInProcess } from '../support/cli-in-process.js';

const FRACTION = 0.05;

let devnet: TestDevnet;
let work: Workspace;

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: 7373, blocks: 60, faults: { badValues: FRACTION } });
  work = await makeWorkspace('bad-values');
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

interface Served {
  readonly identity: string;
  readonly poison: ItemPoison | undefined;
  /** Rows of the item as served, when it parses. */
  readonly rows: ReadonlyMap<string, readonly Row[]> | undefined;
  /** Why it is rejected, when it does not. */
  readonly reason: string | undefined;
}

/** Each truth item of the stream in its bounds, as the devnet serves it and as the ETL must take it. */
function servedItems(stream: StreamDefinition, bounds: Bounds): Served[] {
  return truthItems(devnet, stream, bounds).map((raw) => {
    const { poison, item } = poisonItem(raw, FRACTION);
    const { ok, rejects } = parseItems(stream.item, [parseJson(withRawNumbers(JSON.stringify(item)))]);
    return { identity: itemIdentity(raw)!, poison, rows: ok[0] === undefined ? undefined : stream.toRows(ok[0]), reason: rejects[0]?.reason };
  });
}

const REASON: Readonly<Record<Exclude<ItemPoison, 'bigInteger'>, RegExp>> = {
  fraction: /^(now|trace_end_utime|transaction_now|utime): expected an integer \(JSON number or decimal string; no leading zeros, fraction, exponent or -0\), got \d+\.5$/,
  loneSurrogate: /^[a-z_.]+: expected (keys of )?well-formed text, got .*\\ud800.* \(a lone surrogate U\+D800\)$/,
};

async function expectOneRowPerBadValue(kind: SinkKind, sinkPath: string): Promise<void> {
  const snapshot = await readWarehouse(kind, sinkPath, { glob: false });
  const boundsOf = syncedBounds(devnet, snapshot);
  const expected = new Map<string, Row[]>();
  const poisons = new Map<ItemPoison, number>();
  for (const stream of streams) {
    const served = servedItems(stream, boundsOf(stream));
    for (const table of stream.tables) expected.set(table.name, []);
    for (const item of served) {
      if (item.poison !== undefined) poisons.set(item.poison, (poisons.get(item.poison) ?? 0) + 1);
      if (item.poison === undefined || item.poison === 'bigInteger') expect(item.rows, `${stream.name} ${item.identity} parses`).toBeDefined();
      else expect(item.reason, `${stream.name} ${item.identity}`).toMatch(REASON[item.poison]);
      for (const [table, rows] of item.rows ?? []) expected.get(table)!.push(...rows);
    }
    const rejected = snapshot.rejectRows.filter((row) => row.stream === stream.name && itemIdentity(JSON.parse(row.raw)) !== undefined);
    const expectedRejects = served.filter((item) => item.reason !== undefined).map((item) => `${item.identity} ${item.reason}`);
    expect(rejected.map((row) => `${itemIdentity(JSON.parse(row.raw))} ${row.reason}`).sort(), `${stream.name}: the poisoned items, once each`).toEqual(expectedRejects.sort());
  }
  expect([...poisons.keys()].sort(), 'every poison is in the synced range').toEqual(['bigInteger', 'fraction', 'loneSurrogate']);
  for (const diff of diffWarehouse(expected, snapshot.tables)) expect(mismatch(diff), describeDiff(diff)).toEqual(NO_MISMATCH);

  const big = BigInt(BIG_INTEGER);
  const transactions = snapshot.tables.get('transactions')!;
  expect(transactions.filter((row) => row.compute_gas_used === big).length, 'gas_used 9007199254740993 stored exactly').toBeGreaterThan(0);
  expect(transactions.some((row) => row.compute_gas_used === big - 1n)).toBe(false);

  const addresses = snapshot.tables.get('addresses')!;
  expect(addressProblems(devnet, addresses)).toEqual([]);
  expect(addresses.filter((row) => entryPoison(String(row.address), FRACTION) !== undefined)).toEqual([]);
  expect(addresses.length, 'the rest of each book is stored').toBeGreaterThan(50);
  const bookRejects = snapshot.rejectRows.filter((row) => 'entry' in (JSON.parse(row.raw) as object));
  const rejectedAddresses = new Set(bookRejects.map((row) => (JSON.parse(row.raw) as { address: string }).address));
  expect(rejectedAddresses.size, 'bad book entries are rejected').toBeGreaterThan(0);
  for (const row of bookRejects) {
    const { address } = JSON.parse(row.raw) as { address: string };
    const poison = entryPoison(address, FRACTION);
    expect(poison, address).toBeDefined();
    expect(row.reason).toEqual(
      poison === 'wrongType'
        ? 'entry.interfaces: Invalid input: expected array, received number'
        : expect.stringMatching(/^entry\.user_friendly: expected well-formed text, got ".*\\ud800" \(a lone surrogate U\+D800\)$/),
    );
  }

  // Every table reads back through DuckDB, the JSON through its JSON functions; the big integer deep in details is its text.
  const reader = await openWarehouse(kind, sinkPath);
  try {
    const [details] = await reader.query(
      `SELECT count(json_keys(details)) AS objects, count(*) FILTER (WHERE details->'x_devnet'->'deep'->>0 = '${BIG_INTEGER}') AS exact FROM ${reader.relation('actions')}`,
    );
    expect(Number(details!.objects)).toBeGreaterThan(100);
    expect(Number(details!.exact)).toBe(poisonedActions(snapshot, 'bigInteger'));
  } finally {
    reader.close();
  }
}

function poisonedActions(snapshot: Snapshot, poison: ItemPoison): number {
  const actions = streams.find((stream) => stream.name === 'actions')!;
  return truthItems(devnet, actions, syncedBounds(devnet, snapshot)(actions)).filter((raw) => poisonItem(raw, FRACTION).poison === poison).length;
}

describe.each<SinkKind>(['duckdb', 'parquet'])('bad values into %s', (kind) => {
  it('each bad value costs its own row only, the tables stay readable, and a later sync works', async () => {
    const sinkPath = work.sinkPath(kind, 'bad-values');
    const pipeline = await work.pipeline({ url: devnet.url, kind, sinkPath, name: `bad-values-${kind}.yaml` });
    const first = await runCliInProcess(['sync', pipeline]);
    expect(first.code, describeResult(first)).toBe(0);
    await expectOneRowPerBadValue(kind, sinkPath);

    devnet.grow(5);
    const second = await runCliInProcess(['sync', pipeline]);
    expect(second.code, describeResult(second)).toBe(0);
    await expectOneRowPerBadValue(kind, sinkPath);

    const status = await runCliInProcess(['status', pipeline, '--json']);
    expect(status.code, describeResult(status)).toBe(0);
    expect((JSON.parse(status.stdout) as { rejects: number }).rejects).toBe((await readWarehouse(kind, sinkPath, { glob: false })).rejects);
  });
});

describe('sync --strict with bad values', () => {
  it('exits 1 on the first bad value, naming the field and the value', async () => {
    const { line } = await strictSyncFailure(devnet, work);
    expect(line).toMatch(
      /^chain-etl: \d+ item\(s\) from \/api\/v3\/[a-z/]+ failed validation \(first: [a-z_.]+: (Invalid input: )?expected (an integer|well-formed text|keys of well-formed text|array).*, (got|received) .+\); run without --strict to keep them in _etl_rejects and load the rest$/,
    );
  });
});
