/**
 * The analyst's first hour from the user's side, on warehouses of the demo's streams synced from a
 * devnet: the views and `ton()` are in the DuckDB file (and come back with the next sync when
 * dropped), a Parquet warehouse carries them in `views.sql` that any DuckDB runs from any directory,
 * `chain-etl query` prints exact values as a table, CSV or JSON over either sink, read-only and beside
 * a notebook's connection or a writer's Parquet lock, DuckDB's whole error for bad SQL, and `chain-etl
 * sql` reads statements piped in. How the output fits a terminal and streams: query-output.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, stat, symlink } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../src/load/parquet/layout.js';
import { readManifest } from '../../src/load/parquet/manifest.js';
import { VIEWS_FILE } from '../../src/load/parquet/views.js';
import { analystDefinitions } from '../../src/streams/analyst-views.js';
import { PROJECT_ROOT } from '../support/build.js';
import { childEnv, runCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult, type CliResult } from '../support/cli-result.js';
import { holdDuckDBFile } from '../support/lock-holder.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { openWarehouse } from '../support/warehouse-reader.js';
import { withDuckDB } from '../support/with-duckdb.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';

/** The streams of the demo pipeline, so that every view has its tables. */
const DEMO_STREAMS = /^streams: \[(.*)\]/m.exec(readFileSync(join(PROJECT_ROOT, 'pipelines', 'demo.yaml'), 'utf8'))![1]!.split(', ');
/** Each view once: a view may have a richer definition where the tables it joins are there (jetton_transfers_readable with jetton_masters). */
const VIEW_NAMES = [...new Set(analystDefinitions.views.map((view) => view.name))].sort();
const MACRO_NAMES = analystDefinitions.macros.map((macro) => macro.name);

let devnet: TestDevnet;
let work: Workspace;
const pipelines = {} as Record<SinkKind, string>;

beforeAll(async () => {
  [devnet, work] = await Promise.all([startTestDevnet({ seed: 1515, blocks: 60 }), makeWorkspace('query')]);
  for (const kind of ['duckdb', 'parquet'] as const) {
    pipelines[kind] = await work.pipeline({ url: devnet.url, kind, sinkPath: work.sinkPath(kind), streams: DEMO_STREAMS, retainSupersededMinutes: 10 });
    const result = await runCliInProcess(['sync', pipelines[kind], '--log-level', 'error']);
    expect(result.code, describeResult(result)).toBe(0);
  }
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

/** `chain-etl query` in process, with no API key in the environment (query needs none). */
function query(kind: SinkKind, sql: string, ...flags: string[]): Promise<CliResult> {
  return runCliInProcess(['query', pipelines[kind], sql, ...flags]);
}

/** What the warehouse holds, read apart from chain-etl query: transactions and their fees in nanoton. */
async function transactionFacts(kind: SinkKind): Promise<{ count: number; fees: bigint }> {
  const reader = await openWarehouse(kind, work.sinkPath(kind));
  try {
    const rows = await reader.query('SELECT total_fees::VARCHAR AS fees FROM transactions');
    return { count: rows.length, fees: rows.reduce((sum, row) => sum + BigInt(String(row.fees)), 0n) };
  } finally {
    reader.close();
  }
}

/** Nanoton as exact TON text with nine decimals. */
const tonText = (nanoton: bigint): string => `${nanoton / 1_000_000_000n}.${(nanoton % 1_000_000_000n).toString().padStart(9, '0')}`;

describe('the views and macros in a DuckDB warehouse', () => {
  it('are in the file after a sync; dropped, query defines them for its session and the next sync puts them back', async () => {
    const path = work.sinkPath('duckdb');
    const defined = (): Promise<unknown[][]> =>
      withDuckDB(path, { access_mode: 'READ_ONLY' }, async (connection) =>
        (
          await connection.runAndReadAll(
            "SELECT view_name FROM duckdb_views() WHERE NOT internal UNION ALL SELECT function_name FROM duckdb_functions() WHERE function_type = 'macro' AND NOT internal ORDER BY 1",
          )
        ).getRows(),
      );
    const expected = [...VIEW_NAMES, ...MACRO_NAMES].sort().map((name) => [name]);
    expect(await defined()).toEqual(expected);

    await withDuckDB(path, {}, (connection) => connection.run('DROP VIEW daily_transactions; DROP MACRO ton'));
    expect((await defined()).length).toBe(expected.length - 2);
    // A file without them (an earlier release's) still has them in a query session, as TEMP objects.
    const { count } = await transactionFacts('duckdb');
    const meanwhile = await query('duckdb', 'SELECT sum(transactions) AS n, ton(1) AS one FROM daily_transactions', '--format', 'csv');
    expect([meanwhile.code, meanwhile.stdout], describeResult(meanwhile)).toEqual([0, `n,one\r\n${count},0.000000001\r\n`]);
    expect((await defined()).length).toBe(expected.length - 2);
    const again = await runCliInProcess(['sync', pipelines.duckdb, '--log-level', 'error']);
    expect(again.code, describeResult(again)).toBe(0);
    expect(await defined()).toEqual(expected);
  });
});

describe('views.sql beside a Parquet warehouse', () => {
  it('lists exactly the manifest current files, and any DuckDB running it from another directory reads the tables, views and ton()', async () => {
    const root = work.sinkPath('parquet');
    const text = await readFile(join(root, VIEWS_FILE), 'utf8');
    const manifest = (await readManifest(root))!;
    const listed = [...text.matchAll(/'(\/[^']+\.parquet)'/g)].map((match) => match[1]).sort();
    const current = Object.values(manifest.tables).flatMap((table) => table.files.map((file) => join(root, file.path))).sort();
    expect(listed).toEqual(current);
    expect(text).toContain(`manifest generation ${manifest.generation}.`);

    const { count, fees } = await transactionFacts('parquet');
    expect(count).toBeGreaterThan(100);
    // In-memory, as a notebook opens it; the process's working directory is not the warehouse's.
    expect(process.cwd()).not.toBe(root);
    const rows = await withDuckDB(':memory:', {}, async (connection) => {
      await connection.run(text);
      const views = (await connection.runAndReadAll('SELECT view_name FROM duckdb_views() WHERE NOT internal ORDER BY 1')).getRows();
      expect(views.map(([name]) => name)).toEqual(parquetViewNames());
      return (await connection.runAndReadAll('SELECT count(*)::VARCHAR, ton(sum(total_fees))::VARCHAR, typeof(ton(sum(total_fees))) FROM transactions')).getRows();
    });
    expect(rows).toEqual([[String(count), tonText(fees), 'DECIMAL(38,9)']]);
  });
});

describe.each<SinkKind>(['duckdb', 'parquet'])('chain-etl query over %s', (kind) => {
  it('prints the rows as an aligned table, exact: the same count and fees as the warehouse holds', async () => {
    const { count, fees } = await transactionFacts(kind);
    const result = await query(kind, 'SELECT count(*) AS transactions, ton(sum(total_fees)) AS fees_ton FROM transactions');
    expect(result.code, describeResult(result)).toBe(0);
    const [c, f] = [String(count), tonText(fees)];
    const [wc, wf] = [Math.max(c.length, 'transactions'.length), Math.max(f.length, 'fees_ton'.length)];
    expect(result.stdout).toBe(
      [`${'transactions'.padStart(wc)} | ${'fees_ton'.padStart(wf)}`, `${'-'.repeat(wc)}-+-${'-'.repeat(wf)}`, `${c.padStart(wc)} | ${f.padStart(wf)}`, '(1 row)', ''].join('\n'),
    );
    expect(result.stderr).toBe('');
  });

  it('reads the views: daily_transactions counts every transaction once', async () => {
    const { count } = await transactionFacts(kind);
    const result = await query(kind, 'SELECT sum(transactions) AS n FROM daily_transactions', '--format', 'csv');
    expect(result.stdout).toBe(`n\r\n${count}\r\n`);
  });
});

describe('chain-etl query output', () => {
  const LITERALS =
    "SELECT ton(1) AS one, ton(18446744073709551617) AS big, 18446744073709551615::UBIGINT AS u, 42 AS i, 0.5::DOUBLE AS d, NULL::VARCHAR AS n, '' AS e, 'a,\"b\"\nc' AS s";

  it('table: numbers to the right, NULL shown, line breaks escaped', async () => {
    const result = await query('duckdb', LITERALS);
    expect(result.stdout).toBe(
      [
        '        one |                   big |                    u |  i |   d | n    | e | s',
        '------------+-----------------------+----------------------+----+-----+------+---+---------',
        '0.000000001 | 18446744073.709551617 | 18446744073709551615 | 42 | 0.5 | NULL |   | a,"b"\\nc',
        '(1 row)',
        '',
      ].join('\n'),
    );
  });

  it('csv: a header, RFC 4180 quoting, NULL empty and an empty text quoted', async () => {
    const result = await query('duckdb', LITERALS, '--format', 'csv');
    expect(result.stdout).toBe('one,big,u,i,d,n,e,s\r\n0.000000001,18446744073.709551617,18446744073709551615,42,0.5,,"","a,""b""\nc"\r\n');
  });

  it('json: one array; DECIMAL and 64-bit integers as strings, smaller numbers as numbers', async () => {
    const result = await query('parquet', LITERALS, '--format', 'json');
    expect(JSON.parse(result.stdout)).toEqual([{ one: '0.000000001', big: '18446744073.709551617', u: '18446744073709551615', i: 42, d: 0.5, n: null, e: '', s: 'a,"b"\nc' }]);
    expect(result.stdout.endsWith(']\n')).toBe(true);
  });

  it('runs in UTC whatever the machine zone: a timestamp casts to its UTC day', async () => {
    const result = await runInZone('America/Los_Angeles', ['query', pipelines.duckdb, "SELECT CAST(TIMESTAMPTZ '2024-01-02 03:00:00+00' AS DATE) AS day", '--format', 'csv']);
    expect(result.stdout).toBe('day\r\n2024-01-02\r\n');
  });
});

/** The binary with `TZ` set, as a user in that zone runs it. */
function runInZone(zone: string, args: readonly string[]) {
  return runCli(args, { cwd: work.dir, env: childEnv({ TZ: zone }) });
}

describe('chain-etl query refusals and failures', () => {
  it('bad SQL: exit 1 with DuckDB whole error, the caret under the place', async () => {
    const result = await query('duckdb', 'SELEC 1');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('chain-etl: Parser Error: syntax error at or near "SELEC"\n\nLINE 1: SELEC 1\n        ^\n');
    expect(result.stdout).toBe('');
  });

  it.each<SinkKind>(['duckdb', 'parquet'])('%s: a misspelt column or table gets DuckDB candidates and "Did you mean"', async (kind) => {
    const column = await query(kind, 'SELECT tx_hsh FROM transactions');
    expect(column.code).toBe(1);
    const lines = column.stderr.split('\n');
    expect(lines[0]).toBe('chain-etl: Binder Error: Referenced column "tx_hsh" not found in FROM clause!');
    expect(lines[1]).toMatch(/^Candidate bindings: .*"tx_hash"/);
    expect(lines.slice(2)).toEqual(['', 'LINE 1: SELECT tx_hsh FROM transactions', '               ^', '']);
    const table = await query(kind, 'SELECT * FROM transaction');
    expect([table.code, table.stderr]).toEqual([1, 'chain-etl: Catalog Error: Table with name transaction does not exist!\nDid you mean "transactions"?\n\nLINE 1: SELECT * FROM transaction\n                      ^\n']);
  });

  it.each<SinkKind>(['duckdb', 'parquet'])('%s: a statement that writes is refused (exit 1) and the warehouse is unchanged', async (kind) => {
    const path = work.sinkPath(kind);
    const before = kind === 'duckdb' ? (await stat(path)).mtimeMs : await readFile(join(path, '_manifest.json'), 'utf8');
    const result = await query(kind, 'DELETE FROM transactions');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(kind === 'duckdb' ? /^chain-etl: .* attached in read-only mode!\n$/ : /^chain-etl: .*Can only delete from base table.*\n$/);
    expect(kind === 'duckdb' ? (await stat(path)).mtimeMs : await readFile(join(path, '_manifest.json'), 'utf8')).toEqual(before);
  });

  it.each<SinkKind>(['duckdb', 'parquet'])('%s: a file written into the warehouse is refused (exit 2), however it is named; one written elsewhere is', async (kind) => {
    const path = work.sinkPath(kind);
    const files = async (): Promise<unknown> =>
      kind === 'duckdb' ? [(await stat(path)).mtimeMs, existsSync(`${path}.wal`)] : [await readFile(join(path, '_manifest.json'), 'utf8'), (await readdir(path, { recursive: true })).sort()];
    const before = await files();
    const inside = kind === 'duckdb' ? path : join(path, '_manifest.json');
    const link = join(work.dir, `link-${kind}`);
    await symlink(kind === 'duckdb' ? work.dir : path, link);
    const linked = kind === 'duckdb' ? join(link, basename(path)) : join(link, 'transactions', 'x.parquet');
    const refused = [
      [`COPY (SELECT 1 AS a) TO '${inside}'`, 'COPY … TO', inside],
      [`copy (select 'x''y' as a) to '${relative(process.cwd(), inside)}' (format csv)`, 'COPY … TO', relative(process.cwd(), inside)],
      [`SELECT 1; /* then */ EXPLAIN ANALYZE COPY (SELECT 2) TO '${linked}'`, 'COPY … TO', linked],
      [`EXPORT DATABASE '${kind === 'duckdb' ? `${path}.export` : join(path, 'export')}'`, 'EXPORT DATABASE', kind === 'duckdb' ? `${path}.export` : join(path, 'export')],
      [`ATTACH '${kind === 'duckdb' ? `${path}.wal` : join(path, 'x.duckdb')}' AS w`, 'ATTACH', kind === 'duckdb' ? `${path}.wal` : join(path, 'x.duckdb')],
    ] as const;
    for (const [sql, statement, target] of refused) {
      const result = await query(kind, sql);
      expect([result.code, result.stdout, result.stderr], sql).toEqual([
        2,
        '',
        `chain-etl: query writes nothing into the warehouse: ${statement} '${target}' lies inside ${path}, which only sync, backfill, repair and compact change; ` +
          'write it outside (or print the result: --format csv > file)\n',
      ]);
    }
    const unnamed = await query(kind, `COPY (SELECT 1) TO ${kind === 'duckdb' ? 'getenv(\'HOME\')' : '"x"'}`);
    expect([unnamed.code, unnamed.stderr]).toEqual([2, 'chain-etl: query cannot tell where this COPY … TO writes: give its file as a quoted path outside the warehouse\n']);
    expect(await files(), 'the warehouse is as the sync left it').toEqual(before);

    const elsewhere = join(work.dir, `count-${kind}.csv`);
    const copied = await query(kind, `COPY (SELECT count(*) AS n FROM transactions) TO '${elsewhere}' (HEADER false)`);
    expect(copied.code, describeResult(copied)).toBe(0);
    expect(await readFile(elsewhere, 'utf8')).toBe(`${(await transactionFacts(kind)).count}\n`);
  });

  it('usage: no SQL, an empty one or an unknown format exit 2', async () => {
    const missing = await runCliInProcess(['query', pipelines.duckdb]);
    expect([missing.code, missing.stderr]).toEqual([2, 'chain-etl: Not enough non-option arguments: got 1, need at least 2\n']);
    const empty = await query('duckdb', '  ');
    expect([empty.code, empty.stderr]).toEqual([2, 'chain-etl: no SQL statement given: e.g. chain-etl query pipelines/demo.yaml "SELECT count(*) FROM transactions"\n']);
    const format = await query('duckdb', 'SELECT 1', '--format', 'xml');
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(/^chain-etl: Invalid values: Argument: format, Given: "xml", Choices: "table", "csv", "json"\n$/);
  });

  it('a path with no warehouse: exit 2 and nothing created', async () => {
    const nowhere = join(work.dir, 'nowhere.duckdb');
    const result = await runCliInProcess(['query', pipelines.duckdb, 'SELECT 1', '--out', nowhere]);
    expect([result.code, result.stderr]).toEqual([2, `chain-etl: no warehouse at ${nowhere}: check sink.path (or --out); query creates nothing\n`]);
    expect(existsSync(nowhere)).toBe(false);
  });
});

describe('chain-etl query beside other processes', () => {
  it('duckdb: reads while a notebook holds a read-only connection', async () => {
    const notebook = await holdDuckDBFile(work.sinkPath('duckdb'), 'read-only');
    try {
      const result = await runCli(['query', pipelines.duckdb, 'SELECT ton(2) AS t', '--format', 'csv'], { cwd: work.dir, env: childEnv() });
      expect([result.code, result.stdout], describeResult(result)).toEqual([0, 't\r\n0.000000002\r\n']);
    } finally {
      await notebook.release();
    }
  });

  it('parquet: reads while a writer holds the warehouse lock', async () => {
    const writer = await holdDuckDBFile(join(work.sinkPath('parquet'), LOCK_FILE), 'read-write');
    try {
      const { count } = await transactionFacts('parquet');
      const result = await runCli(['query', pipelines.parquet, 'SELECT count(*) AS n FROM transactions', '--format', 'csv'], { cwd: work.dir, env: childEnv() });
      expect([result.code, result.stdout], describeResult(result)).toEqual([0, `n\r\n${count}\r\n`]);
    } finally {
      await writer.release();
    }
  });
});

describe('chain-etl sql with statements piped in', () => {
  it('runs each statement ending in ;, lists tables and views, goes on after an error and exits 1 for it', async () => {
    const input = ['.tables', 'SELECT ton(1) AS a;', 'SELECT 2 AS b,', '  3 AS c; SELECT 4 AS d;', 'SELEC 5;', '.quit', 'SELECT 6 AS never;', ''].join('\n');
    const result = await runCli(['sql', pipelines.parquet, '--format', 'csv'], { cwd: work.dir, env: childEnv(), input });
    // Every table of a Parquet warehouse is a view over its files.
    const tables = parquetViewNames().map((name) => `${name},view\r\n`);
    expect(result.stdout).toBe(['name,kind\r\n', ...tables, 'a\r\n0.000000001\r\n', 'b,c\r\n2,3\r\n', 'd\r\n4\r\n'].join(''));
    expect(result.stderr).toBe('Error: Parser Error: syntax error at or near "SELEC"\n\nLINE 1: SELEC 5;\n        ^\nchain-etl: 1 of the statements and commands failed (the errors above)\n');
    expect(result.code).toBe(1);
  });

  it('prints DuckDB whole error for a misspelt table and goes on', async () => {
    const input = 'SELECT count(*) AS n FROM transaction;\nSELECT 8 AS y;\n';
    const result = await runCli(['sql', pipelines.duckdb, '--format', 'csv'], { cwd: work.dir, env: childEnv(), input });
    expect([result.code, result.stdout]).toEqual([1, 'y\r\n8\r\n']);
    expect(result.stderr).toBe(
      [
        'Error: Catalog Error: Table with name transaction does not exist!',
        'Did you mean "transactions"?',
        '',
        'LINE 1: SELECT count(*) AS n FROM transaction;',
        '                                  ^',
        'chain-etl: 1 of the statements and commands failed (the errors above)',
        '',
      ].join('\n'),
    );
  });

  it('exits 0 at the end of its input when every statement ran, the last one without its ;', async () => {
    const result = await runCli(['sql', pipelines.duckdb, '--format', 'csv'], { cwd: work.dir, env: childEnv(), input: 'SELECT count(*) > 0 AS any FROM transactions;\nSELECT 7 AS x' });
    expect([result.code, result.stdout, result.stderr]).toEqual([0, 'any\r\ntrue\r\nx\r\n7\r\n', '']);
  });
});

/** The views a Parquet warehouse's session defines: one per table its manifest lists, and the analysts'. */
function parquetViewNames(): string[] {
  const manifest = JSON.parse(readFileSync(join(work.sinkPath('parquet'), '_manifest.json'), 'utf8')) as { tables: Record<string, unknown> };
  return [...Object.keys(manifest.tables), ...VIEW_NAMES].sort();
}
