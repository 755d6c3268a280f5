/**
 * docs/queries.md from the user's side: every `sql` block runs through `chain-etl query` against a
 * warehouse of every stream synced from a devnet of two validator cycles, answers rows, and answers
 * the same rows over DuckDB and over Parquet. A few answers are checked against what the warehouse
 * holds: the daily and hourly series count every transaction once, the stakes per cycle every member.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/build.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult } from '../support/cli-result.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';

/** Each question of docs/queries.md: its heading and its query. */
const QUESTIONS = [...readFileSync(join(PROJECT_ROOT, 'docs', 'queries.md'), 'utf8').matchAll(/^### (.+)\n[\s\S]*?```sql\n([\s\S]*?)```/gm)].map(([, title, sql]) => ({
  title: title!,
  sql: sql!.trim(),
}));

let devnet: TestDevnet;
let work: Workspace;
const pipelines = {} as Record<SinkKind, string>;

beforeAll(async () => {
  [devnet, work] = await Promise.all([startTestDevnet({ seed: 3030, blocks: 130 }), makeWorkspace('queries-doc')]);
  for (const kind of ['duckdb', 'parquet'] as const) {
    pipelines[kind] = await work.pipeline({ url: devnet.url, kind, sinkPath: work.sinkPath(kind) });
    const result = await runCliInProcess(['sync', pipelines[kind], '--log-level', 'error']);
    expect(result.code, describeResult(result)).toBe(0);
  }
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

/** The rows of `sql` through `chain-etl query --format json`. */
async function rows(kind: SinkKind, sql: string): Promise<Record<string, unknown>[]> {
  const result = await runCliInProcess(['query', pipelines[kind], sql, '--format', 'json']);
  expect(result.code, describeResult(result)).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>[];
}

describe('docs/queries.md', () => {
  it('holds ten questions', () => {
    expect(QUESTIONS.map((q) => q.title.split('.')[0])).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
  });

  it.each(QUESTIONS)('$title: rows, the same over DuckDB and Parquet', async ({ sql }) => {
    const [duckdb, parquet] = [await rows('duckdb', sql), await rows('parquet', sql)];
    expect(duckdb.length).toBeGreaterThan(0);
    expect(parquet).toEqual(duckdb);
  });

  it('the daily and hourly series count every transaction once; the stakes per cycle every member of every cycle', async () => {
    const sqlOf = (n: number): string => QUESTIONS[n - 1]!.sql;
    const { transactions, members, cycles } = (await rows(
      'duckdb',
      'SELECT (SELECT count(*) FROM transactions)::INTEGER AS transactions, count(*)::INTEGER AS members, count(DISTINCT cycle_start_time)::INTEGER AS cycles FROM validator_cycle_members',
    ))[0] as Record<string, number>;
    const total = (list: Record<string, unknown>[], column: string): number => list.reduce((sum, row) => sum + Number(row[column]), 0);
    expect(total(await rows('duckdb', sqlOf(1)), 'transactions')).toBe(transactions);
    const hourly = await rows('parquet', sqlOf(2));
    expect(total(hourly, 'transactions')).toBe(transactions);
    // Consecutive hours, as UTC text.
    const hours = hourly.map((row) => Date.parse(String(row.hour).replace(' ', 'T').replace(/\+00$/, 'Z')));
    expect(hours.every((hour, i) => i === 0 || hour - hours[i - 1]! === 3_600_000)).toBe(true);
    const stakes = await rows('duckdb', sqlOf(10));
    expect(cycles).toBeGreaterThan(1);
    expect([stakes.length, total(stakes, 'validators')]).toEqual([cycles, members]);
  });
});
