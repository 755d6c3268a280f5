/**
 * Golden tests: the real example responses (test/fixtures/examples) go through each stream's item
 * schema and toRows, and must give exactly the rows kept beside them in test/fixtures/golden
 * (the cases: test/streams/golden-cases.ts; regenerate after a deliberate change with
 * `npm run generate`, then review the diff by eye).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { transactionsStream } from '../../src/streams/transactions.js';
import { PROJECT_ROOT } from '../support/build.js';
import { goldenCases, goldenOutput, goldenPath, readExample } from './golden-cases.js';
import { duplicateKeys, jsonRows, rowProblems, runStream } from './rows.js';

describe.each(goldenCases)('$file through the $stream.name stream', (goldenCase) => {
  const { stream, count } = goldenCase;
  const output = goldenOutput(PROJECT_ROOT, goldenCase);

  it(`parses all ${count} items without a reject`, () => {
    expect(output.rejects).toEqual([]);
    expect(output.items).toHaveLength(count);
  });

  it.each(stream.tables.map((table) => ({ table })))('gives the golden $table.name rows', ({ table }) => {
    const rows = output.rows.get(table.name) ?? [];
    expect(rowProblems(table, rows)).toEqual([]);
    expect(duplicateKeys(table, rows)).toEqual([]);
    const path = join(PROJECT_ROOT, goldenPath(goldenCase, table));
    expect(existsSync(path), `no golden file ${path}: run \`npm run generate\` and review it`).toBe(true);
    expect(jsonRows(table, rows)).toEqual(JSON.parse(readFileSync(path, 'utf8')));
  });
});

describe('v3-transactions abbreviated pages (docs pagination example)', () => {
  const pages = readExample(PROJECT_ROOT, 'v3-transactions.mainnet.2026-02.abbreviated.docs-pagination.json') as Record<string, { transactions: unknown[] }>;

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
