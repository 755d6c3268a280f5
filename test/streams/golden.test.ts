/**
 * Golden tests: the real example responses (test/fixtures/examples) go through each stream's item
 * schema and toRows, and must give exactly the rows kept beside them in test/fixtures/golden.
 * Regenerate after a deliberate change with `UPDATE_GOLDEN=1 npx vitest run test/streams/golden.test.ts`,
 * then review the diff by eye.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { StreamDefinition } from '../../src/core/stream.js';
import { actionsStream } from '../../src/streams/actions.js';
import { jettonTransfersStream } from '../../src/streams/jetton-transfers.js';
import { transactionsStream } from '../../src/streams/transactions.js';
import { duplicateKeys, jsonRows, rowProblems, runStream } from './rows.js';

const EXAMPLES = new URL('../fixtures/examples/', import.meta.url);
const GOLDEN = new URL('../fixtures/golden/', import.meta.url);
const UPDATE = process.env.UPDATE_GOLDEN === '1';

function readExample(file: string): unknown {
  return JSON.parse(readFileSync(new URL(file, EXAMPLES), 'utf8'));
}

interface GoldenCase {
  readonly file: string;
  readonly stream: StreamDefinition;
  readonly items: (json: unknown) => unknown[];
  readonly count: number;
}

interface TraceJson {
  readonly traces: readonly { readonly transactions_order: readonly string[]; readonly transactions: Readonly<Record<string, unknown>> }[];
}

const cases: readonly GoldenCase[] = [
  { file: 'v3-transactions.mainnet.2026-07.json', stream: transactionsStream, items: (json) => json as unknown[], count: 2 },
  {
    file: 'v3-traces.mainnet.2025-09.docs-pr493.json',
    stream: transactionsStream,
    items: (json) => (json as TraceJson).traces.flatMap((trace) => trace.transactions_order.map((hash) => trace.transactions[hash])),
    count: 6,
  },
  { file: 'v3-actions.mainnet.2026-07.json', stream: actionsStream, items: (json) => json as unknown[], count: 2 },
  {
    file: 'v3-jetton-transfers.mainnet.2026-07.json',
    stream: jettonTransfersStream,
    items: (json) => (json as { jetton_transfers: unknown[] }).jetton_transfers,
    count: 7,
  },
  {
    file: 'v3-jetton-transfers.mainnet.2024-05.old-format.liuruibin1.json',
    stream: jettonTransfersStream,
    items: (json) => (json as { jetton_transfers: unknown[] }).jetton_transfers,
    count: 2,
  },
];

describe.each(cases)('$file through the $stream.name stream', ({ file, stream, items, count }) => {
  const output = runStream(stream, items(readExample(file)));

  it(`parses all ${count} items without a reject`, () => {
    expect(output.rejects).toEqual([]);
    expect(output.items).toHaveLength(count);
  });

  it.each(stream.tables.map((table) => ({ table })))('gives the golden $table.name rows', ({ table }) => {
    const rows = output.rows.get(table.name) ?? [];
    expect(rowProblems(table, rows)).toEqual([]);
    expect(duplicateKeys(table, rows)).toEqual([]);
    const path = new URL(`${file.replace(/\.json$/, '')}.${table.name}.json`, GOLDEN);
    const actual = jsonRows(table, rows);
    if (UPDATE) writeFileSync(path, `${JSON.stringify(actual, null, 2)}\n`);
    expect(existsSync(path), `no golden file ${path.pathname}: run with UPDATE_GOLDEN=1 and review it`).toBe(true);
    expect(actual).toEqual(JSON.parse(readFileSync(path, 'utf8')));
  });
});

describe('v3-transactions abbreviated pages (docs pagination example)', () => {
  const pages = readExample('v3-transactions.mainnet.2026-02.abbreviated.docs-pagination.json') as Record<string, { transactions: unknown[] }>;

  it.each(Object.entries(pages).map(([page, body]) => ({ page, raw: body.transactions })))(
    '$page: every item becomes a reject naming what is missing, none crashes',
    ({ raw }) => {
      const output = runStream(transactionsStream, raw);
      expect(output.items).toEqual([]);
      expect(output.rejects).toHaveLength(raw.length);
      for (const reject of output.rejects) {
        expect(reject.reason).toContain('description');
        expect(reject.reason).toContain('total_fees');
      }
      expect([...output.rows.values()].flat()).toEqual([]);
    },
  );

  it('names the missing account too when the item has none', () => {
    const output = runStream(transactionsStream, pages.sort_asc_first_page!.transactions);
    expect(output.rejects[0]!.reason).toMatch(/^account: /);
  });
});
