/**
 * What `chain-etl query` prints, from the user's side, over a warehouse synced from a devnet: on a
 * terminal (a pseudo-terminal 100 columns wide) a wide table fits the width and says what it left
 * out, in a pipe it prints every value whole; widths are display widths (CJK and emoji 2 columns,
 * combining marks 0); rows stream: the row count is exact past the first vector, CSV and JSON are
 * byte for byte what the whole result gave, a statement failing midway exits 1 with DuckDB's error,
 * a reader closing the pipe ends the query at once, and a stdout that fails says why.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { open } from 'node:fs/promises';
import type { DuckDBConnection, Json } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/cli/display-width.js';
import { BIN } from '../support/build.js';
import { childEnv, spawnCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult, type CliResult } from '../support/cli-result.js';
import { runOnTerminal } from '../support/terminal.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { withDuckDB } from '../support/with-duckdb.js';
import { makeWorkspace, type Workspace } from '../support/workspace.js';

let devnet: TestDevnet;
let work: Workspace;
let pipeline: string;

beforeAll(async () => {
  [devnet, work] = await Promise.all([startTestDevnet({ seed: 2203, blocks: 30 }), makeWorkspace('query-output')]);
  pipeline = await work.pipeline({ url: devnet.url, kind: 'duckdb', sinkPath: work.sinkPath('duckdb'), streams: ['transactions'] });
  const sync = await runCliInProcess(['sync', pipeline, '--log-level', 'error']);
  expect(sync.code, describeResult(sync)).toBe(0);
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

function query(sql: string, ...flags: string[]): Promise<CliResult> {
  return runCliInProcess(['query', pipeline, sql, ...flags]);
}

/** Reads the warehouse apart from chain-etl, in the session's time zone. */
function readWarehouse<T>(use: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  return withDuckDB(work.sinkPath('duckdb'), { access_mode: 'READ_ONLY' }, async (connection) => {
    await connection.run("SET TimeZone = 'UTC'");
    return use(connection);
  });
}

const rowCount = (table: string): Promise<number> => readWarehouse(async (connection) => Number((await connection.runAndReadAll(`SELECT count(*) FROM ${table}`)).getRows()[0]![0]));

describe('a wide table on a terminal 100 columns wide', () => {
  const SQL = 'SELECT * FROM messages ORDER BY tx_lt, direction, msg_hash LIMIT 5';

  it('fits the width: long values cut with …, the columns that do not fit left out, and a note says how many and how to see all', async () => {
    const names = (await query(`${SQL.replace('LIMIT 5', 'LIMIT 0')}`, '--format', 'csv')).stdout.trimEnd().split(',');
    expect(names.length).toBeGreaterThan(20);
    const run = await runOnTerminal(['query', pipeline, SQL], { cwd: work.dir, columns: 100 });
    expect(run.code, run.lines.join('\n')).toBe(0);
    const widest = Math.max(...run.lines.map(displayWidth));
    expect(widest, run.lines.join('\n')).toBeLessThanOrEqual(100);
    const header = run.lines[0]!.split(' | ').map((cell) => cell.trim());
    expect(header.at(-1)).toBe('…');
    const shown = header.slice(0, -1);
    expect(shown).toEqual(names.slice(0, shown.length));
    expect(run.lines.slice(-2)).toEqual(['(5 rows)', `(${names.length - shown.length} of ${names.length} columns hidden, values cut: --max-width 0 or --format csv|json shows all)`]);
    expect(run.lines[2]).toMatch(/^\S+… \| /);
  });

  it('in a pipe prints every value whole, with no note', async () => {
    const [piped, csv] = await Promise.all([query(SQL), query(SQL, '--format', 'csv')]);
    const lines = piped.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('(5 rows)');
    const firstRow = csv.stdout.split('\r\n')[1]!.split(',');
    expect(lines[2]!.split(' | ').map((cell) => cell.trim())).toEqual(firstRow.map((value) => (value === '' ? 'NULL' : value)));
  });
});

describe('widths as a terminal counts them', () => {
  it('aligns CJK (2 columns), emoji (2) and combining marks (0)', async () => {
    const result = await query("SELECT * FROM (VALUES (1, '漢字', 'x'), (2, 'e' || chr(769) || 'te', 'yy'), (3, '😀!', 'z'), (4, 'ab', '漢')) v(n, a, b) ORDER BY n");
    expect(result.stdout).toBe(['n | a    | b', '--+------+---', '1 | 漢字 | x', `2 | e\u0301te  | yy`, '3 | 😀!  | z', '4 | ab   | 漢', '(4 rows)', ''].join('\n'));
  });

  it('--max-width: text cut at … on whole characters, a number never cut', async () => {
    const result = await query("SELECT 42 AS n, repeat('漢', 20) AS wide, 'abcdefghijklmnopqrstuvwxyz' AS letters, 7 AS last", '--max-width', '39');
    expect(result.stdout).toBe(
      [
        ' n | wide         | letters      | last',
        '---+--------------+--------------+-----',
        '42 | 漢漢漢漢漢…  | abcdefghijk… |    7',
        '(1 row)',
        // The note too fits the width.
        '(values cut: --max-width 0 or --format',
        'csv|json shows all)',
        '',
      ].join('\n'),
    );
  });

  it('--max-width: the columns from the left that fit at 10 columns, then … for the rest', async () => {
    const columns = Array.from({ length: 8 }, (_, index) => `'${String.fromCharCode(97 + index).repeat(20)}' AS c${index + 1}`).join(', ');
    const result = await query(`SELECT ${columns}`, '--max-width', '50');
    expect(result.stdout).toBe(
      [
        'c1             | c2            | c3            | …',
        '---------------+---------------+---------------+--',
        'aaaaaaaaaaaaa… | bbbbbbbbbbbb… | cccccccccccc… | …',
        '(1 row)',
        '(5 of 8 columns hidden, values cut: --max-width 0',
        'or --format csv|json shows all)',
        '',
      ].join('\n'),
    );
  });

  it('escapes control characters: a value cannot move the cursor or colour the terminal', async () => {
    const result = await query("SELECT chr(27) || '[31mred' || chr(7) AS s, 'a' || chr(10) || 'b' || chr(9) || 'c' AS t");
    expect(result.stdout).toBe(['s               | t', '----------------+--------', '\\x1b[31mred\\x07 | a\\nb\\tc', '(1 row)', ''].join('\n'));
  });

  it("csv: a text cell a spreadsheet would run as a formula gets a leading ', numbers never; --csv-raw keeps the text", async () => {
    const sql =
      "SELECT * FROM (VALUES ('=HYPERLINK(\"http://x\")', -5, -1.5::DECIMAL(10,2)), ('+1', 0, 0), ('@SUM(A1)', 1, 1), ('-2+3', 2, 2), (chr(9) || 'x', 3, 3), ('plain', 4, 4)) AS t(\"=name\", n, d)";
    const defused = await query(sql, '--format', 'csv');
    expect(defused.stdout).toBe(
      ["'=name,n,d", `"'=HYPERLINK(""http://x"")",-5,-1.50`, "'+1,0,0.00", "'@SUM(A1),1,1.00", "'-2+3,2,2.00", "'\tx,3,3.00", 'plain,4,4.00', ''].join('\r\n'),
    );
    const raw = await query(sql, '--format', 'csv', '--csv-raw');
    expect(raw.stdout).toBe(['=name,n,d', '"=HYPERLINK(""http://x"")",-5,-1.50', '+1,0,0.00', '@SUM(A1),1,1.00', '-2+3,2,2.00', '\tx,3,3.00', 'plain,4,4.00', ''].join('\r\n'));
  });

  it('--max-width takes a whole number of columns only (exit 2)', async () => {
    const result = await query('SELECT 1', '--max-width', 'wide');
    expect([result.code, result.stderr]).toEqual([2, 'chain-etl: --max-width: expected a whole number of columns (0 for no limit), got "wide"\n']);
  });
});

describe('rows stream', () => {
  it('the row count is exact past the rows that set the widths', async () => {
    const count = (await rowCount('transactions')) * 30;
    expect(count).toBeGreaterThan(2 * 2048);
    const result = await query('SELECT t.tx_hash, t.total_fees, r.copy FROM transactions t, range(30) r(copy)');
    const lines = result.stdout.trimEnd().split('\n');
    expect([lines.length, lines.at(-1)]).toEqual([count + 3, `(${count} rows)`]);
  });

  it('a later row wider than the first 2048: in a pipe it overflows its column, within a width it is cut', async () => {
    const sql = "SELECT CASE WHEN i = 5000 THEN 'a much longer value' ELSE 'short' END AS t, i FROM range(5001) r(i) ORDER BY i";
    const [piped, fitted] = await Promise.all([query(sql), query(sql, '--max-width', '80')]);
    expect(piped.stdout.split('\n').slice(-3)).toEqual(['a much longer value | 5000', '(5001 rows)', '']);
    expect(fitted.stdout.split('\n').slice(-4)).toEqual(['a mu… | 5000', '(5001 rows)', '(values cut: --max-width 0 or --format csv|json shows all)', '']);
  });

  it('csv (--csv-raw) and json are byte for byte what the whole result printed before rows streamed', async () => {
    const sql = 'SELECT m.*, r.copy FROM messages m, range(8) r(copy) ORDER BY ALL';
    const whole = await readWarehouse(async (connection) => {
      const reader = await connection.runAndReadAll(sql);
      return { rows: reader.getRowsJson(), objects: reader.getRowObjectsJson(), names: reader.columnNames() };
    });
    expect(whole.rows.length).toBeGreaterThan(2 * 2048);
    const [csv, json] = await Promise.all([query(sql, '--format', 'csv', '--csv-raw'), query(sql, '--format', 'json')]);
    expect(csv.stdout === wholeCsv(whole.names, whole.rows), 'csv differs').toBe(true);
    expect(json.stdout === `${JSON.stringify(whole.objects)}\n`, 'json differs').toBe(true);
  });

  it.each([
    { format: 'table', rowsOut: (out: string) => out.split('\n').length - 3, complete: /rows\)\n$/ },
    { format: 'csv', rowsOut: (out: string) => out.split('\r\n').length - 2, complete: undefined },
    { format: 'json', rowsOut: (out: string) => out.split('},{').length, complete: /\]\n$/ },
  ])('$format: a statement failing after its first rows went out exits 1 with DuckDB error, the output visibly cut short', async ({ format, rowsOut, complete }) => {
    // On one thread the rows before the failure stream out before DuckDB reaches it.
    const result = await query("SET threads = 1; SELECT CASE WHEN i < 200000 THEN i ELSE error('boom') END AS v FROM range(400000) r(i)", '--format', format);
    expect([result.code, result.stderr]).toEqual([1, 'chain-etl: Invalid Input Error: boom\n']);
    expect(rowsOut(result.stdout)).toBeGreaterThan(2048);
    if (complete !== undefined) expect(result.stdout).not.toMatch(complete);
  });

  it('a reader closing the pipe (| head -3) ends the query at once, exit 0, without reading ten billion rows', async () => {
    const run = spawnCli(['query', pipeline, 'SELECT * FROM range(10000000000)', '--format', 'csv'], { cwd: work.dir, timeoutMs: 60_000 });
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (run.stdout().split('\n').length > 3) {
          run.child.stdout!.off('data', check);
          run.child.stdout!.destroy();
          resolve();
        }
      };
      run.child.stdout!.on('data', check);
    });
    const result = await run.done;
    expect([result.code, result.signal, result.stderr]).toEqual([0, null, '']);
  });

  it('a stdout that cannot be written (a full disk: /dev/full) ends the query with the reason, exit 1', async () => {
    const full = await open('/dev/full', 'w');
    try {
      const child = spawn(process.execPath, [BIN, 'query', pipeline, 'SELECT * FROM range(100000)', '--format', 'csv'], { cwd: work.dir, env: childEnv(), stdio: ['ignore', full.fd, 'pipe'] });
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const [code] = (await once(child, 'close')) as [number | null];
      expect([code, stderr]).toEqual([1, 'chain-etl: cannot write the result to stdout: ENOSPC: no space left on device, write\n']);
    } finally {
      await full.close();
    }
  });
});

/** The CSV of a whole result as chain-etl printed it before rows streamed (RFC 4180, NULL empty, an empty text ""). */
function wholeCsv(names: readonly string[], rows: readonly Json[][]): string {
  const field = (value: Json): string => {
    if (value === null) return '';
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return text === '' || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return [names.map((name) => field(name)), ...rows.map((row) => row.map(field))].map((cells) => `${cells.join(',')}\r\n`).join('');
}
