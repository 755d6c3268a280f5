/**
 * The stream tables end to end: devnet truth → items → rows → DuckDB sink → read back unchanged,
 * and the generated views work over the loaded data.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnyTable } from '../../src/core/table.js';
import { buildDevnetApi } from '../../src/devnet/index.js';
import { truthRows } from '../../src/devnet/truth.js';
import { readRows } from '../../src/load/engine/read.js';
import { DuckDBSink } from '../../src/load/duckdb/sink.js';
import type { Row } from '../../src/core/table.js';
import { dataTables, streams } from '../../src/streams/index.js';
import { renderSchemaFiles } from '../../src/streams/schema-files.js';
import { truthDatasetOf } from '../support/truth-dataset.js';
import { runStream } from './rows.js';

function byKey(table: AnyTable, rows: readonly Row[]): Row[] {
  const key = (row: Row): string => JSON.stringify(table.primaryKey.map((column) => String(row[column])));
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

describe('stream rows in a DuckDB warehouse', () => {
  it('read back exactly as committed, and the generated views query them', async () => {
    const api = buildDevnetApi({ seed: 7, blocks: 120 });
    const dir = await mkdtemp(join(tmpdir(), 'chain-etl-streams-'));
    const sink = new DuckDBSink({ path: join(dir, 'warehouse.duckdb'), now: () => 1_700_000_000 });
    try {
      await sink.open(dataTables);
      const committed = new Map<string, Row[]>();
      for (const stream of streams) {
        const { rows, rejects } = runStream(stream, truthRows(api, truthDatasetOf(stream)));
        expect(rejects).toEqual([]);
        await sink.commitAll([{ stream: stream.name, rows, checkpoint: '{"position":"0"}' }]);
        for (const [table, tableRows] of rows) committed.set(table, tableRows);
      }
      for (const table of dataTables.filter((t) => committed.has(t.name))) {
        const back = await readRows(sink.connection, table);
        expect(byKey(table, back), table.name).toEqual(byKey(table, committed.get(table.name)!));
      }

      await sink.connection.run(renderSchemaFiles().get('warehouse.sql')!);
      const count = async (sql: string): Promise<unknown> => (await sink.connection.runAndReadAll(sql)).getRows()[0]![0];
      expect(await count('SELECT count(*) FROM jetton_transfers_readable')).toBe(BigInt(committed.get('jetton_transfers')!.length));
      expect(await count('SELECT count(*) FROM account_actions')).toBe(BigInt(committed.get('action_accounts')!.length));
      expect(await count('SELECT sum(transactions) FROM daily_transactions')).toBe(
        BigInt(committed.get('transactions')!.length),
      );
      const biggest = committed.get('jetton_transfers')!.reduce((max, row) => ((row.amount as bigint) > max ? (row.amount as bigint) : max), 0n);
      expect(await count('SELECT max(amount)::VARCHAR FROM jetton_transfers_readable')).toBe(biggest.toString());
    } finally {
      await sink.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
