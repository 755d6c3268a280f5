/**
 * `chain-etl report --html`: the page is opened in headless Chromium and what it shows is checked
 * against the warehouse: rows per table and per UTC day (each bar), the runs with their new and replaced rows, how far
 * behind the chain each run ended and its throughput, and the rejects by reason. Both sinks.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataTables } from '../../src/streams/index.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult } from '../support/cli-result.js';
import { browserMissing, launchBrowser } from '../support/browser.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { readWarehouse, type Snapshot } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';

if (browserMissing !== undefined) console.warn(`test/report: ${browserMissing}`);

let devnet: TestDevnet;
let work: Workspace;
let browser: Browser;

beforeAll(async () => {
  if (browserMissing !== undefined) return;
  [devnet, work, browser] = await Promise.all([startTestDevnet({ seed: 8080, blocks: 150, faults: { invalidItems: 0.02 } }), makeWorkspace('report'), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await devnet?.close();
  await work?.remove();
});

const factTables = dataTables.filter((table) => 'block_date' in table.columns);

/** Rows per UTC day of a table, as the warehouse holds them. */
function rowsPerDay(snapshot: Snapshot, table: string): Map<string, number> {
  const days = new Map<string, number>();
  for (const row of snapshot.tables.get(table) ?? []) {
    const day = String(row.block_date);
    days.set(day, (days.get(day) ?? 0) + 1);
  }
  return days;
}

async function cells(page: Page, selector: string): Promise<string[][]> {
  return page.$$eval(selector, (rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));
}

describe.skipIf(browserMissing !== undefined).each<SinkKind>(['duckdb', 'parquet'])('report of a %s warehouse', (kind) => {
  it('shows the rows per table and day, the runs, their distance to the tip and throughput, and the rejects', async () => {
    const sinkPath = work.sinkPath(kind, 'reported');
    const pipeline = await work.pipeline({ url: devnet.url, kind, sinkPath, name: `report-${kind}.yaml` });
    for (let run = 0; run < 2; run++) {
      const synced = await runCliInProcess(['sync', pipeline]);
      expect(synced.code, describeResult(synced)).toBe(0);
    }
    const out = join(work.dir, `report-${kind}.html`);
    const result = await runCliInProcess(['report', pipeline, '--html', out]);
    expect(result.code, describeResult(result)).toBe(0);
    expect([result.stdout, result.stderr]).toEqual(['', '']);
    // Self-contained: nothing is fetched from anywhere.
    expect(readFileSync(out, 'utf8')).not.toMatch(/\b(src|href)=/);

    const snapshot = await readWarehouse(kind, sinkPath, { glob: false });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('requestfailed', (request) => errors.push(`request ${request.url()}`));
    try {
      await page.goto(pathToFileURL(out).href);
      expect(await page.title()).toBe(`chain-etl report: ${pipeline}`);

      const totals = await cells(page, 'table.totals tbody tr');
      expect(totals).toEqual(
        factTables.map((table) => [table.name, (snapshot.tables.get(table.name)?.length ?? 0).toLocaleString('en-US'), String(rowsPerDay(snapshot, table.name).size)]),
      );
      for (const table of factTables) {
        const bars = await page.$$eval(`.table-days[data-table="${table.name}"] rect.bar`, (rects) => rects.map((r) => [r.getAttribute('data-label'), Number(r.getAttribute('data-value'))]));
        expect(bars, table.name).toEqual([...rowsPerDay(snapshot, table.name)].sort(([a], [b]) => a.localeCompare(b)));
      }
      // The busiest day of the transactions is drawn as a visible bar.
      const tallest = await page.locator('.table-days[data-table="transactions"] rect.bar').evaluateAll((rects) => Math.max(...rects.map((r) => r.getBoundingClientRect().height)));
      expect(tallest).toBeGreaterThan(50);

      const runs = snapshot.runs;
      expect(runs.map((run) => run.status)).toEqual(['ok', 'ok']);
      const shownRuns = await cells(page, 'table.runs tbody tr');
      const total = (counts: string): string => Object.values(JSON.parse(counts) as Record<string, number>).reduce((x, y) => x + y, 0).toLocaleString('en-US');
      const recorded = [...runs]
        .sort((a, b) => String(b.started_at).localeCompare(String(a.started_at)))
        .map((run) => ['sync', 'ok', total(run.rows), total(run.rows_replaced!)]);
      expect(shownRuns.map((row) => row.slice(1, 5))).toEqual(recorded);
      // The second run re-read the actions overlap: replaced rows, shown apart from its new rows.
      expect(recorded[0]![3]).not.toBe('0');
      // Each run ended behind the chain by the age of the tip it reached.
      const behind = await page.$$eval('#distance rect.bar', (rects) => rects.map((r) => Number(r.getAttribute('data-value'))));
      const ages = [...runs]
        .sort((a, b) => String(a.started_at).localeCompare(String(b.started_at)))
        .map((run) => run.ended_at! - run.tip_time!);
      expect(behind).toEqual(ages);
      expect(Math.min(...ages)).toBeGreaterThan(0);
      expect(await page.$$eval('#throughput rect.bar', (rects) => rects.length)).toBe(2);

      const rejects = await cells(page, 'table.rejects tbody tr');
      expect(rejects.reduce((sum, row) => sum + Number(row[2]!.replace(/,/g, '')), 0)).toBe(snapshot.rejects);
      expect(snapshot.rejects).toBeGreaterThan(0);
      expect(new Set(rejects.map((row) => row[0]))).toEqual(new Set(snapshot.rejectRows.map((row) => row.stream)));
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
