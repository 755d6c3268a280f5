/**
 * `chain-etl verify` from the user's side, on warehouses of blocks, transactions and traces synced
 * from a devnet, both sinks: a synced warehouse is consistent (exit 0); a transaction deleted, one
 * stored twice (at a second lt) and one whose link to its previous transaction is broken are each
 * named (exit 1), by every check they break (the block's and the trace's counts too), with the
 * backfill that mends them, and running those backfills makes it consistent again. A checkpoint
 * past the newest block the service indexes is named too (not with `--offline`); `--from`/`--to`
 * check the rows of a range alone; a hole between covered ranges is named with the backfill that
 * fills it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCheckpoint, encodeCheckpoint } from '../../src/core/checkpoint/record.js';
import { Coverage } from '../../src/core/checkpoint/coverage.js';
import { tableRows } from '../../src/core/stream.js';
import type { Row, RowOf } from '../../src/core/table.js';
import { DuckDBSink } from '../../src/load/duckdb/sink.js';
import { readManifest, writeManifest } from '../../src/load/parquet/manifest.js';
import { ParquetSink } from '../../src/load/parquet/sink.js';
import type { Sink, StreamCommit } from '../../src/load/sink.js';
import { blocksStream } from '../../src/streams/blocks.js';
import { transactionsStream, transactionsTable } from '../../src/streams/transactions.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult, messageLines } from '../support/cli-result.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { readWarehouse } from '../support/warehouse-snapshot.js';
import { withDuckDB } from '../support/with-duckdb.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';

const STREAMS = ['blocks', 'transactions', 'traces'];

type TransactionRow = RowOf<typeof transactionsTable>;

let devnet: TestDevnet;
let work: Workspace;

beforeAll(async () => {
  [devnet, work] = await Promise.all([startTestDevnet({ seed: 7117, blocks: 40 }), makeWorkspace('verify')]);
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

/**
 * Commits `change` into the warehouse as another writer would: the checkpoint as stored, and no
 * record of the range it wrote, so no later sweep of moved keys takes its rows for rows read last
 * and no later run's checks look at them (verify's job here).
 */
async function tamper(kind: SinkKind, path: string, change: (checkpoint: string) => StreamCommit): Promise<void> {
  const sink: Sink = kind === 'duckdb' ? new DuckDBSink({ path }) : new ParquetSink({ path });
  await sink.open([...blocksStream.tables, ...transactionsStream.tables]);
  try {
    await sink.commitAll([change((await sink.readCheckpoint('transactions'))!)]);
  } finally {
    await sink.close();
  }
  if (kind === 'duckdb') {
    await withDuckDB(path, {}, (connection) => connection.run("DELETE FROM _etl_meta WHERE starts_with(key, 'unswept:') OR starts_with(key, 'unchecked:')"));
  } else {
    const manifest = (await readManifest(path))!;
    for (const entry of Object.values(manifest.tables)) {
      delete entry.unswept;
      delete entry.unchecked;
    }
    await writeManifest(path, manifest);
  }
}

async function verify(pipeline: string, ...flags: string[]): Promise<ReturnType<typeof runCliInProcess>> {
  return runCliInProcess(['verify', pipeline, ...flags]);
}

/** Runs every backfill the report names to mend what it found. */
async function mend(stdout: string): Promise<number> {
  const commands = [...stdout.matchAll(/; mend: chain-etl (.+)$/gm)].map((match) => match[1]!.split(' '));
  for (const args of commands) {
    const result = await runCliInProcess(args);
    expect(result.code, describeResult(result)).toBe(0);
  }
  return commands.length;
}

describe.each<SinkKind>(['duckdb', 'parquet'])('chain-etl verify over %s', (kind) => {
  it('passes a synced warehouse, names each tampering with its mend, and passes again once mended', async () => {
    const sinkPath = work.sinkPath(kind, 'verify');
    const pipeline = await work.pipeline({ url: devnet.url, kind, sinkPath, name: `verify-${kind}.yaml`, streams: STREAMS });
    const synced = await runCliInProcess(['sync', pipeline]);
    expect(synced.code, describeResult(synced)).toBe(0);

    const clean = await verify(pipeline, '--json');
    expect(clean.code, describeResult(clean)).toBe(0);
    const document = JSON.parse(clean.stdout) as { consistent: boolean; checks: { check: string; table: string; checked: number; found: number }[]; inconsistencies: unknown[] };
    expect(document.consistent).toBe(true);
    expect(document.inconsistencies).toEqual([]);
    expect(document.checks.map((check) => `${check.check}:${check.table}`).sort()).toEqual(
      ['block-transactions:blocks', 'checkpoints:_etl_checkpoints', 'keys:blocks', 'keys:messages', 'keys:traces', 'keys:transactions', 'masterchain-seqnos:blocks', 'trace-transactions:traces', 'transaction-links:transactions'],
    );
    for (const check of document.checks) expect(check.checked, check.check).toBeGreaterThan(0);

    // Stored a day later too: Parquet looks for the copy's key only in files of its day.
    const nextDay = (day: string): string => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    // Three transactions of accounts with a later stored transaction: one deleted, one stored again 1 lt earlier, one with a wrong link.
    const rows = (await readWarehouse(kind, sinkPath, { glob: false, tables: [transactionsTable] })).tables.get('transactions')!;
    const followed = rows.filter((row) => rows.some((next) => next['prev_tx_hash'] === row['tx_hash'])).sort((a, b) => Number((a['tx_lt'] as bigint) - (b['tx_lt'] as bigint)));
    const [deleted, doubled, relinked] = [followed[1]!, followed[Math.floor(followed.length / 2)]!, followed.at(-2)!];
    const next = (row: Row): Row => rows.find((candidate) => candidate['prev_tx_hash'] === row['tx_hash'])!;
    const at = (row: Row): string => `${String(row['block_workchain'])}:${String(row['block_shard'])}:${String(row['block_seqno'])}`;
    await tamper(kind, sinkPath, (checkpoint) => ({ stream: 'transactions', rows: new Map(), replace: [{ table: 'transactions', column: 'tx_hash', values: [deleted['tx_hash']] }], checkpoint }));
    await tamper(kind, sinkPath, (checkpoint) => ({ stream: 'transactions', rows: new Map([tableRows(transactionsTable, [{ ...doubled, tx_lt: (doubled['tx_lt'] as bigint) - 1n, block_date: nextDay(doubled['block_date'] as string) } as TransactionRow])]), checkpoint }));
    const wrong = 'A'.repeat(43) + '=';
    await tamper(kind, sinkPath, (checkpoint) => ({ stream: 'transactions', rows: new Map([tableRows(transactionsTable, [{ ...next(relinked), prev_tx_hash: wrong } as TransactionRow])]), checkpoint }));

    const found = await verify(pipeline);
    expect(found.code, describeResult(found)).toBe(1);
    expect(found.stderr).toMatch(/^chain-etl: verify found \d+ inconsistencies in .* \(listed above\)\n$/);
    const lines = found.stdout.trimEnd().split('\n');
    const expected = [
      `keys, transactions: key (${String(doubled['tx_hash'])}) is stored 2 times; mend: chain-etl backfill ${pipeline} --refetch --from lt:${(doubled['tx_lt'] as bigint) - 1n} --to lt:${(doubled['tx_lt'] as bigint) + 1n}`,
      `block-transactions, transactions: block ${at(deleted)} lists`,
      `block-transactions, transactions: block ${at(doubled)} lists`,
      `transaction-links, transactions: the transaction of ${String(next(deleted)['account'])} at lt ${next(deleted)['tx_lt']} follows ${String(deleted['tx_hash'])} at lt ${deleted['tx_lt']}, which is not stored`,
      `trace-transactions, transactions: trace ${String(deleted['trace_id'])} counts `,
      `trace-transactions, transactions: trace ${String(doubled['trace_id'])} counts `,
      `transaction-links, transactions: the transaction of ${String(relinked['account'])} at lt ${next(relinked)['tx_lt']} follows ${wrong} at lt ${relinked['tx_lt']}, but ${String(relinked['tx_hash'])} is stored there`,
    ];
    for (const line of expected) expect(lines.some((shown) => shown.startsWith(line)), `${line}\n in:\n${found.stdout}`).toBe(true);

    // --from/--to: the rows of that lt range alone, here the doubled transaction's two copies.
    const window = await verify(pipeline, '--from', `lt:${(doubled['tx_lt'] as bigint) - 1n}`, '--to', `lt:${(doubled['tx_lt'] as bigint) + 1n}`);
    expect(window.code, describeResult(window)).toBe(1);
    expect(window.stdout.trimEnd().split('\n').map((line) => line.split(':')[0])).toEqual(['keys, transactions', 'block-transactions, transactions', 'trace-transactions, transactions']);
    expect(window.stdout).toContain(`block ${at(doubled)} lists`);
    expect(window.stdout).toContain(`trace ${String(doubled['trace_id'])} counts`);
    const placed = await verify(pipeline, '--offline', '--from', '2026-01-01');
    expect([placed.code, messageLines(placed.stderr)]).toEqual([2, [expect.stringMatching(/^chain-etl: --from 2026-01-01 is placed on the chain by the service, which verify could not ask \(--offline\): give --from lt:<N>, or let verify ask the service$/)]]);

    expect(await mend(found.stdout)).toBe(lines.length);
    const mended = await verify(pipeline);
    expect([mended.code, mended.stdout], describeResult(mended)).toEqual([0, expect.stringMatching(/^consistent: [^\n]*\n$/)]);

    // Half a chain's day taken out of the transactions' coverage: no inconsistency, but named with the backfill that fills it.
    let hole = { from: 0n, to: 0n };
    await tamper(kind, sinkPath, (checkpoint) => {
      const stored = decodeCheckpoint(checkpoint);
      const [whole] = stored.covered.ranges;
      const middle = whole!.from + (whole!.to - whole!.from) / 2n;
      hole = { from: middle, to: middle + 1_000_000n };
      const covered = new Coverage([{ from: whole!.from, to: hole.from - 1n }, { from: hole.to + 1n, to: whole!.to }]);
      return { stream: 'transactions', rows: new Map(), checkpoint: encodeCheckpoint({ ...stored, covered }) };
    });
    const holed = await verify(pipeline, '--offline');
    const fill = `chain-etl backfill ${pipeline} --from lt:${hole.from} --to lt:${hole.to + 1n}`;
    expect([holed.code, holed.stdout.split('\n').slice(1, 2)], describeResult(holed)).toEqual([
      0,
      [`not covered: transactions lt ${hole.from}..${hole.to} lies between covered ranges, so no check looked at it; fill it: ${fill}`],
    ]);
    const filled = await runCliInProcess(fill.split(' ').slice(1));
    expect(filled.code, describeResult(filled)).toBe(0);
    expect((await verify(pipeline, '--offline')).stdout).not.toContain('not covered:');

    // A checkpoint 10^12 lt past the chain, as a glitched tip would have left it: named, with nothing to mend it by range.
    await tamper(kind, sinkPath, (checkpoint) => {
      const stored = decodeCheckpoint(checkpoint);
      return { stream: 'transactions', rows: new Map(), checkpoint: encodeCheckpoint({ ...stored, position: stored.position + 10n ** 12n }) };
    });
    const ahead = await verify(pipeline, '--json');
    expect(ahead.code, describeResult(ahead)).toBe(1);
    const report = JSON.parse(ahead.stdout) as { head: { seqno: number } | null; inconsistencies: { check: string; detail: string; mend: string | null }[] };
    expect(report.head?.seqno).toBe(devnet.view.indexedSeqno);
    expect(report.inconsistencies).toEqual([{
      check: 'checkpoints',
      table: '_etl_checkpoints',
      detail: expect.stringMatching(/^transactions's checkpoint \(lt \d+\) lies past the newest block the service indexes, masterchain block \d+ \(.+\): .*load this service into a new warehouse \(--out\)$/),
      mend: null,
    }]);
    const offline = await verify(pipeline, '--offline');
    expect([offline.code, offline.stdout.split('\n').slice(1)], describeResult(offline)).toEqual([0, ['not checked: the checkpoints against the newest block the service indexes (offline)', '']]);
  });

  it('fetches the block headers a pipeline of transactions alone needs, and names a loss no link shows', async () => {
    const sinkPath = work.sinkPath(kind, 'headers');
    const pipeline = await work.pipeline({ url: devnet.url, kind, sinkPath, name: `headers-${kind}.yaml`, streams: ['transactions'] });
    const synced = await runCliInProcess(['sync', pipeline]);
    expect(synced.code, describeResult(synced)).toBe(0);
    const clean = await verify(pipeline, '--json');
    expect(clean.code, describeResult(clean)).toBe(0);
    const document = JSON.parse(clean.stdout) as { checks: { check: string; checked: number }[]; block_headers: { blocks: number; requests: number } | null };
    expect(document.checks.map((check) => check.check).sort()).toEqual(['block-transactions', 'checkpoints', 'keys', 'keys', 'transaction-links']);
    const blockCheck = document.checks.find((check) => check.check === 'block-transactions')!;
    expect(blockCheck.checked).toBeGreaterThan(0);
    expect(document.block_headers!.blocks).toBeGreaterThanOrEqual(blockCheck.checked);
    expect(document.block_headers!.requests).toBeGreaterThan(0);

    // An account's last transaction: no later one names it, so only its block's count shows it gone.
    const rows = (await readWarehouse(kind, sinkPath, { glob: false, tables: [transactionsTable] })).tables.get('transactions')!;
    const last = rows.filter((row) => !rows.some((next) => next['prev_tx_hash'] === row['tx_hash'])).sort((a, b) => Number((a['tx_lt'] as bigint) - (b['tx_lt'] as bigint)))[0]!;
    await tamper(kind, sinkPath, (checkpoint) => ({ stream: 'transactions', rows: new Map(), replace: [{ table: 'transactions', column: 'tx_hash', values: [last['tx_hash']] }], checkpoint }));
    const found = await verify(pipeline);
    expect(found.code, describeResult(found)).toBe(1);
    const block = `${String(last['block_workchain'])}:${String(last['block_shard'])}:${String(last['block_seqno'])}`;
    expect(found.stdout).toMatch(new RegExp(`^block-transactions, transactions: block ${block} lists (\\d+) transactions, \\d+ are stored; mend: chain-etl backfill \\S+ --refetch --from lt:\\d+ --to lt:\\d+\n$`));
    const offline = await verify(pipeline, '--offline');
    expect([offline.code, offline.stdout.split('\n').slice(1)], describeResult(offline)).toEqual([
      0,
      [
        'not checked: the checkpoints against the newest block the service indexes (offline)',
        "not checked: the blocks' transaction counts: the pipeline stores no blocks, and their headers come from the service (offline)",
        '',
      ],
    ]);

    expect(await mend(found.stdout)).toBe(1);
    const mended = await verify(pipeline);
    expect([mended.code, mended.stdout], describeResult(mended)).toEqual([0, expect.stringMatching(/^consistent: .*block-transactions of blocks \d+ \(headers fetched from the service: \d+ blocks in \d+ requests\)/)]);
  });
});
