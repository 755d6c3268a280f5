/**
 * `chain-etl report --html`: the page is opened in headless Chromium and what it shows is checked
 * against the warehouse: every table (fact tables a bar per UTC day, a partial day's drawn apart,
 * snapshot tables their rows and snapshot time, the addresses their rows), the runs with their new
 * and replaced rows, how far behind the chain each run ended (in s, min, h or d) and its throughput
 * (a run that took under a second included), and the rejects by reason. Both sinks. Every text of
 * every chart lies inside its drawing, for a real warehouse and for made-up magnitudes from 1 to
 * 10^15. A stream added to the pipeline and not yet synced shows its tables without rows.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plannedStreams, warehouseTables } from '../../src/run/session.js';
import { loadPipeline } from '../../src/config/load.js';
import { createSink } from '../../src/load/open-sink.js';
import { MAX_BAR } from '../../src/report/bar-chart.js';
import { reportHtml } from '../../src/report/html.js';
import type { RunPoint, TableReport } from '../../src/report/report-data.js';
import { formatDuration, formatMoment } from '../../src/report/units.js';
import { allStreams, snapshotStreams } from '../../src/streams/index.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult } from '../support/cli-result.js';
import { browserMissing, launchBrowser } from '../support/browser.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { readWarehouse, type RunRow, type Snapshot } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';

if (browserMissing !== undefined) console.warn(`test/report: ${browserMissing}`);

let devnet: TestDevnet;
let work: Workspace;
let browser: Browser;

beforeAll(async () => {
  if (browserMissing !== undefined) return;
  [devnet, work, browser] = await Promise.all([startTestDevnet({ seed: 8080, blocks: 40, faults: { invalidItems: 0.02 } }), makeWorkspace('report'), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await devnet?.close();
  await work?.remove();
});

/** Rows per UTC day of a table, as the warehouse holds them, oldest first. */
function rowsPerDay(snapshot: Snapshot, table: string): [string, number][] {
  const days = new Map<string, number>();
  for (const row of snapshot.tables.get(table) ?? []) {
    const day = String(row.block_date);
    days.set(day, (days.get(day) ?? 0) + 1);
  }
  return [...days].sort(([a], [b]) => a.localeCompare(b));
}

/** The text of every element `selector` finds (none: at once, no waiting). */
async function texts(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(selector, (found) => found.map((element) => element.textContent ?? ''));
}

/** Where every element `selector` finds is drawn. */
async function boxes(page: Page, selector: string): Promise<{ x: number; width: number; height: number }[]> {
  return page.$$eval(selector, (found) => found.map((element) => element.getBoundingClientRect()).map(({ x, width, height }) => ({ x, width, height })));
}

async function cells(page: Page, selector: string): Promise<string[][]> {
  return page.$$eval(selector, (rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));
}

/** Every text of a chart that reaches out of its drawing (where the browser cuts it), as "text: why". */
async function textsOutsideTheirChart(page: Page): Promise<string[]> {
  return page.$$eval('svg', (svgs) =>
    svgs.flatMap((svg) => {
      const box = svg.getBoundingClientRect();
      return [...svg.querySelectorAll('text')].flatMap((text) => {
        const r = text.getBoundingClientRect();
        const out = r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5;
        return out ? [`${text.textContent}: [${r.left}, ${r.right}] x [${r.top}, ${r.bottom}] outside [${box.left}, ${box.right}] x [${box.top}, ${box.bottom}]`] : [];
      });
    }),
  );
}

/** Legend entries that run past the block holding their legend (into the next chart). */
async function legendsOutsideTheirBlock(page: Page): Promise<string[]> {
  return page.$$eval('.legend .item', (items) =>
    items.flatMap((item) => {
      const block = item.closest('.legend')!.parentElement!.getBoundingClientRect();
      const r = item.getBoundingClientRect();
      return r.right > block.right + 0.5 ? [`${item.textContent}: right edge ${r.right} past ${block.right}`] : [];
    }),
  );
}

/** X-axis labels of one chart that overlap the next one. */
async function overlappingLabels(page: Page): Promise<string[]> {
  return page.$$eval('svg', (svgs) =>
    svgs.flatMap((svg) => {
      const labels = [...svg.querySelectorAll('text.tick.x')].map((text) => [text.textContent, text.getBoundingClientRect()] as const);
      return labels.slice(1).flatMap(([text, box], i) => (box.left < labels[i]![1].right ? [`${labels[i]![0]} / ${text}`] : []));
    }),
  );
}

/** The y-axis labels of the chart under `selector`, bottom to top. */
async function yLabels(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(`${selector} text.tick.y`, (texts) => texts.map((text) => text.textContent ?? ''));
}

/** A run that started and ended within one second (runs are timed to the second), written through the sink as a run writes its record. */
async function recordRunUnderASecond(pipelineFile: string, after: RunRow): Promise<RunRow> {
  const pipeline = loadPipeline(pipelineFile, {}, process.env, { requireApiKey: false });
  const sink = createSink(pipeline.sink, pino({ level: 'silent' }));
  const second = after.ended_at! + 1;
  const run: RunRow = {
    ...after,
    run_id: randomUUID(),
    started_at: second,
    ended_at: second,
    rows: JSON.stringify({ transactions: 0 }),
    rows_replaced: JSON.stringify({ actions: 7 }),
  };
  await sink.open(warehouseTables(plannedStreams(pipeline)));
  try {
    await sink.recordRun(run);
  } finally {
    await sink.close();
  }
  return run;
}

const startOf = (run: RunRow): string => new Date(run.started_at * 1000).toISOString().slice(0, 19).replace('T', ' ');

describe.skipIf(browserMissing !== undefined).each<SinkKind>(['duckdb', 'parquet'])('report of a %s warehouse', (kind) => {
  it('shows every table, the runs, their distance to the tip in human units and throughput (a run under 1 s included), and the rejects', async () => {
    const sinkPath = work.sinkPath(kind, 'reported');
    const pipeline = await work.pipeline({ url: devnet.url, kind, sinkPath, name: `report-${kind}.yaml`, streams: allStreams.map((stream) => stream.name) });
    for (let run = 0; run < 2; run++) {
      // Runs are timed to the second: each in a second of its own, so that their order is known.
      await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000)));
      const synced = await runCliInProcess(['sync', pipeline]);
      expect(synced.code, describeResult(synced)).toBe(0);
    }
    const tables = warehouseTables(plannedStreams(loadPipeline(pipeline, {}, process.env, { requireApiKey: false })));
    const synced = await readWarehouse(kind, sinkPath, { glob: false, tables });
    const quick = await recordRunUnderASecond(pipeline, [...synced.runs].sort((a, b) => a.started_at - b.started_at).at(-1)!);

    const out = join(work.dir, `report-${kind}.html`);
    const result = await runCliInProcess(['report', pipeline, '--html', out]);
    expect(result.code, describeResult(result)).toBe(0);
    expect([result.stdout, result.stderr]).toEqual(['', '']);
    // Self-contained: nothing is fetched from anywhere.
    expect(readFileSync(out, 'utf8')).not.toMatch(/\b(src|href)=/);

    const snapshot = await readWarehouse(kind, sinkPath, { glob: false, tables });
    const count = (table: string): number => snapshot.tables.get(table)?.length ?? 0;
    const daily = tables.filter((table) => 'block_date' in table.columns);
    const snapshotTables = snapshotStreams.flatMap((stream) => stream.tables.map((table) => [table.name, stream.name] as const));
    const takenAt = (table: string): string => {
      const stream = snapshotTables.find(([name]) => name === table)![1];
      return formatMoment(new Date(Number(snapshot.checkpoints.get(stream)) * 1000).toISOString());
    };
    expect(snapshotTables.length).toBe(4);
    expect(count('addresses')).toBeGreaterThan(0);
    for (const [table] of snapshotTables) expect(count(table), table).toBeGreaterThan(0);

    const page = await browser.newPage({ viewport: { width: 820, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('requestfailed', (request) => errors.push(`request ${request.url()}`));
    try {
      await page.goto(pathToFileURL(out).href);
      expect(await page.title()).toBe(`chain-etl report: ${pipeline}`);

      // Every table of the warehouse has its row in the summary and its own section: nothing it holds is invisible.
      const holds = (name: string): string => {
        if (name === 'addresses') return 'not dated';
        if (snapshotTables.some(([table]) => table === name)) return `snapshot taken ${takenAt(name)}`;
        const days = rowsPerDay(snapshot, name);
        return days.length === 1 ? `1 UTC day, ${days[0]![0]}` : `${days.length} UTC days, ${days[0]![0]} to ${days.at(-1)![0]}`;
      };
      const totals = await cells(page, 'table.totals tbody tr');
      expect(new Set(totals.map((row) => row[0]))).toEqual(new Set(tables.map((table) => table.name)));
      expect(totals).toEqual(totals.map(([name]) => [name, count(name!).toLocaleString('en-US'), holds(name!)]));
      const sections = await page.$$eval('section.table', (found) => found.map((section) => [section.getAttribute('data-table'), section.getAttribute('data-kind')]));
      expect(sections.map(([name]) => name).sort()).toEqual(tables.map((table) => table.name).sort());
      const kindOf = (name: string): string => (name === 'addresses' ? 'undated' : snapshotTables.some(([table]) => table === name) ? 'snapshot' : 'daily');
      expect(sections).toEqual(sections.map(([name]) => [name, kindOf(name!)]));
      for (const [table] of snapshotTables) {
        expect.soft(await texts(page, `section.table[data-table="${table}"] .about`), table).toEqual([
          expect.stringMatching(new RegExp(`^${count(table).toLocaleString('en-US')} rows, of the snapshot taken ${takenAt(table)} \\(.+ before this report\\)\\.$`)),
        ]);
      }
      expect.soft(await texts(page, 'section.table[data-table="addresses"] .about')).toEqual([expect.stringMatching(new RegExp(`^${count('addresses').toLocaleString('en-US')} rows\\. One row per address`))]);

      for (const table of daily) {
        const bars = await page.$$eval(`section.table[data-table="${table.name}"] rect.bar`, (rects) => rects.map((r) => [r.getAttribute('data-label'), Number(r.getAttribute('data-value'))]));
        expect(bars, table.name).toEqual(rowsPerDay(snapshot, table.name));
      }
      // The devnet's chain lies in one UTC day: its one bar is a bar, not a block across the chart, and its day is written under it.
      const transactions = 'section.table[data-table="transactions"]';
      const [day] = rowsPerDay(snapshot, 'transactions');
      expect(rowsPerDay(snapshot, 'transactions').length).toBe(1);
      const [bar, ...moreBars] = await boxes(page, `${transactions} rect.bar`);
      const [chart] = await boxes(page, `${transactions} svg`);
      expect(moreBars).toEqual([]);
      expect.soft(bar!.width).toBeLessThanOrEqual(MAX_BAR);
      expect.soft(bar!.width).toBeLessThan(chart!.width / 10);
      expect.soft(bar!.height).toBeGreaterThan(50);
      expect.soft(await texts(page, `${transactions} text.tick.x`)).toEqual([day![0]]);
      // That day is the newest: partial until the coverage has passed its end, drawn apart and said so.
      expect.soft(await page.$$eval(`${transactions} rect.bar`, (rects) => rects.map((rect) => rect.getAttribute('class')))).toEqual(['bar partial']);
      expect.soft(await texts(page, `${transactions} .legend`)).toEqual([expect.stringContaining('partial day: not yet complete (_etl_days)')]);
      expect.soft(await texts(page, `${transactions} .completeness`)).toEqual(['0 complete UTC days, 1 partial.']);
      const [dayLabel] = await boxes(page, `${transactions} text.tick.x`);
      expect.soft(Math.abs(dayLabel!.x + dayLabel!.width / 2 - (bar!.x + bar!.width / 2))).toBeLessThan(2);

      // No text of any chart is cut at its edge; y labels are whole numbers of the axis.
      expect.soft(await textsOutsideTheirChart(page)).toEqual([]);
      expect.soft(await overlappingLabels(page)).toEqual([]);
      expect.soft(await legendsOutsideTheirBlock(page)).toEqual([]);
      expect.soft(await yLabels(page, transactions)).toEqual(expect.arrayContaining(['0']));
      for (const label of await yLabels(page, transactions)) expect.soft(label).toMatch(/^\d+(\.\d+)?k?$/);

      const runs = [...snapshot.runs].sort((a, b) => a.started_at - b.started_at);
      expect(runs.map((run) => run.status)).toEqual(['ok', 'ok', 'ok']);
      const shownRuns = await cells(page, 'table.runs tbody tr');
      // `rows` also holds the snapshot times, under snapshot_time.
      const total = (counts: string): number => Object.values(JSON.parse(counts) as Record<string, unknown>).reduce<number>((x, y) => x + (typeof y === 'number' ? y : 0), 0);
      expect(shownRuns.map((row) => row.slice(0, 5))).toEqual(
        [...runs].reverse().map((run) => [startOf(run), 'sync', 'ok', total(run.rows).toLocaleString('en-US'), total(run.rows_replaced!).toLocaleString('en-US')]),
      );
      // The second sync re-read the actions overlap: replaced rows, shown apart from its new rows.
      expect(total(runs[1]!.rows_replaced!)).toBeGreaterThan(0);

      // Each run ended behind the chain by the age of the tip it reached, written in s, min, h or d.
      const ages = runs.map((run) => run.ended_at! - run.tip_time!);
      expect(Math.min(...ages)).toBeGreaterThan(0);
      const distance = await page.$$eval('#distance rect.bar', (rects) => rects.map((r) => [Number(r.getAttribute('data-value')), r.querySelector('title')?.textContent]));
      expect(distance).toEqual(runs.map((run, i) => [ages[i], `${startOf(run)}: ${formatDuration(ages[i]!)} behind the chain (ok)`]));
      expect.soft(shownRuns.map((row) => row[7])).toEqual([...ages].reverse().map(formatDuration));
      for (const cell of shownRuns.map((row) => row[7]!)) expect.soft(cell).toMatch(/^[\d,]+ (s|min|h|d)( \d+ (s|min|h))?$/);
      const distanceAxis = await yLabels(page, '#distance');
      expect.soft(distanceAxis.length).toBeGreaterThan(1);
      for (const label of distanceAxis) expect.soft(label).toMatch(/^[\d,.]+ (s|min|h|d)$/);

      // Every run has its bar in the throughput chart, the one that took under a second too: over one second, marked.
      const throughput = await page.$$eval('#throughput rect.bar', (rects) =>
        rects.map((r) => ({ label: r.getAttribute('data-label'), classes: r.getAttribute('class'), value: Number(r.getAttribute('data-value')), height: r.getBoundingClientRect().height })),
      );
      expect.soft(throughput.map((shown) => shown.label)).toEqual(runs.map(startOf));
      const shownQuick = throughput.find((shown) => shown.label === startOf(quick));
      expect.soft(shownQuick).toMatchObject({ classes: 'bar ok under-a-second', value: 7 });
      expect.soft(shownQuick?.height).toBeGreaterThan(0);
      expect.soft(shownRuns[0]!.slice(5, 7)).toEqual(['under 1 s', '≥ 7']);
      expect.soft(await texts(page, '#throughput .legend')).toEqual([expect.stringContaining('took under 1 s')]);

      // Both run charts put each run at the same x.
      expect.soft((await boxes(page, '#throughput rect.bar')).map((box) => box.x)).toEqual((await boxes(page, '#distance rect.bar')).map((box) => box.x));

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

describe.skipIf(browserMissing !== undefined)('report of a DuckDB warehouse before a stream of the pipeline was first synced', () => {
  it('shows the stream\'s tables without rows instead of failing on the tables the file lacks', async () => {
    const sinkPath = work.sinkPath('duckdb', 'grown');
    const before = await work.pipeline({ url: devnet.url, kind: 'duckdb', sinkPath, name: 'grown-before.yaml', streams: ['blocks'] });
    const synced = await runCliInProcess(['sync', before]);
    expect(synced.code, describeResult(synced)).toBe(0);
    const grown = await work.pipeline({ url: devnet.url, kind: 'duckdb', sinkPath, name: 'grown.yaml', streams: ['blocks', 'transactions', 'jetton_masters'] });
    const out = join(work.dir, 'grown.html');
    const result = await runCliInProcess(['report', grown, '--html', out]);
    expect(result.code, describeResult(result)).toBe(0);
    const page = await browser.newPage();
    try {
      await page.goto(pathToFileURL(out).href);
      expect(await texts(page, 'section.table[data-table="transactions"] .about')).toEqual(['No rows yet.']);
      expect(await texts(page, 'section.table[data-table="messages"] .about')).toEqual(['No rows yet.']);
      expect(await texts(page, 'section.table[data-table="jetton_masters"] .about')).toEqual(['No rows: no snapshot yet, or the last one found none.']);
      expect(await texts(page, 'section.table[data-table="blocks"] rect.bar')).toHaveLength(1);
    } finally {
      await page.close();
    }
  });
});

describe.skipIf(browserMissing !== undefined)('report charts at any magnitude', () => {
  it('draws every label inside its chart and side by side, from 1 row to 10^15 rows, 1 s to 10^9 s behind, 50 runs', async () => {
    const magnitudes = [1, 9, 95, 1_916_320, 48_300_000_000, 1e15];
    const tables: TableReport[] = magnitudes.map((max, i) => ({
      kind: 'daily',
      table: `table_${i}`,
      days: Array.from({ length: 1 + i * 40 }, (_, day) => ({
        day: new Date(Date.UTC(2024, 0, 1 + day)).toISOString().slice(0, 10),
        rows: Math.max(1, Math.round((max * (day + 1)) / (1 + i * 40))),
        complete: day > 0 && day < i * 40,
      })),
    }));
    const runs: RunPoint[] = Array.from({ length: 50 }, (_, i) => ({
      command: 'sync',
      status: i % 11 === 5 ? 'failed' : 'ok',
      startedAt: new Date(Date.UTC(2026, 0, 1, 0, 10 * i)).toISOString().replace('.000Z', 'Z'),
      seconds: i % 7,
      rows: 10 ** (i % 16),
      replaced: 0,
      behindSeconds: 10 ** (i % 10),
    }));
    const out = join(work.dir, 'magnitudes.html');
    writeFileSync(out, reportHtml({ pipeline: 'p.yaml', sink: { kind: 'duckdb', path: 'w.duckdb' }, generatedAt: '2026-01-02T00:00:00Z', tables, runs, rejects: [] }));
    const page = await browser.newPage({ viewport: { width: 820, height: 800 } });
    try {
      await page.goto(pathToFileURL(out).href);
      expect(await page.locator('svg').count()).toBe(magnitudes.length + 2);
      expect(await textsOutsideTheirChart(page)).toEqual([]);
      expect(await overlappingLabels(page)).toEqual([]);
      expect(await yLabels(page, 'section.table[data-table="table_3"]')).toEqual(['0', '500k', '1M', '1.5M', '2M']);
      expect(await yLabels(page, '#distance')).toEqual(['0 d', '5,000 d', '10,000 d', '15,000 d']);
      expect(await page.locator('#throughput rect.bar').count()).toBe(50);
    } finally {
      await page.close();
    }
  });
});
