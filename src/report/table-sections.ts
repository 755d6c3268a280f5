/**
 * What the warehouse holds, table by table: a summary of every table, then one section per table
 * as its kind allows: fact tables a bar per UTC day of their range (a day without rows is an empty
 * slot, so a hole shows; a partial day's bar is drawn apart, as `_etl_days` has it), snapshot
 * tables their rows and when the snapshot was taken, the others (the addresses) their rows.
 */
import { barChart } from './bar-chart.js';
import { escapeHtml } from './escape-html.js';
import type { DailyTable, SnapshotTable, TableReport, UndatedTable } from './report-data.js';
import { formatDuration, formatMoment, formatNumber } from './units.js';
import { countAxis } from './value-axis.js';

const DAY_CHART = { width: 360, height: 130 };
const DAY_MS = 86_400_000;
const PARTIAL = 'partial';
const DAY_LEGEND = [{ class: PARTIAL, text: 'partial day: not yet complete (_etl_days)' }];

export function tableRows(table: TableReport): number {
  switch (table.kind) {
    case 'daily':
      return table.days.reduce((sum, day) => sum + day.rows, 0);
    case 'snapshot':
      return table.snapshots.reduce((sum, snapshot) => sum + snapshot.rows, 0);
    case 'undated':
      return table.rows;
  }
}

/** Fact tables first, then snapshot tables, then the rest; each group in the warehouse's order. */
function tablesInOrder(tables: readonly TableReport[]): TableReport[] {
  const order = { daily: 0, snapshot: 1, undated: 2 } as const;
  return [...tables].sort((a, b) => order[a.kind] - order[b.kind]);
}

/** The summary: every table with its rows and what they span. */
export function tablesSummary(tables: readonly TableReport[]): string {
  return [
    '<table class="totals"><thead><tr><th>table</th><th class="n">rows</th><th>holds</th></tr></thead><tbody>',
    ...tablesInOrder(tables).map(
      (table) =>
        `<tr data-table="${escapeHtml(table.table)}"><td>${escapeHtml(table.table)}</td><td class="n">${formatNumber(tableRows(table))}</td><td>${escapeHtml(holds(table))}</td></tr>`,
    ),
    '</tbody></table>',
  ].join('');
}

function holds(table: TableReport): string {
  switch (table.kind) {
    case 'daily': {
      const first = table.days[0]?.day;
      const last = table.days.at(-1)?.day;
      if (first === undefined || last === undefined) return 'no rows yet';
      const span = dayRange(first, last).length;
      return span === 1 ? `1 UTC day, ${first}` : `${formatNumber(span)} UTC days, ${first} to ${last}`;
    }
    case 'snapshot': {
      const latest = table.snapshots.at(-1);
      if (latest === undefined) return 'no rows: no snapshot yet, or it found none';
      return `${table.snapshots.length === 1 ? 'snapshot' : `${table.snapshots.length} snapshots, the latest`} taken ${formatMoment(latest.taken)}`;
    }
    case 'undated':
      return 'not dated';
  }
}

/** One section per table, grouped by kind. */
export function tableSections(tables: readonly TableReport[], generatedAt: string): string {
  const daily = tables.filter((table): table is DailyTable => table.kind === 'daily');
  const snapshots = tables.filter((table): table is SnapshotTable => table.kind === 'snapshot');
  const undated = tables.filter((table): table is UndatedTable => table.kind === 'undated');
  return [
    group('days', 'Rows per UTC day', 'Each fact table by the UTC day of its rows (block_date). Point at a bar for its day and rows.', daily.map(dailySection)),
    group('snapshots', 'Snapshot tables', 'State read whole at each refresh: each row carries the time of the snapshot that holds it.', snapshots.map((table) => snapshotSection(table, generatedAt))),
    group('undated', 'Tables without a date', '', undated.map(undatedSection)),
  ].join('\n');
}

function group(id: string, title: string, about: string, sections: readonly string[]): string {
  if (sections.length === 0) return '';
  return [`<section id="${id}"><h2>${title}</h2>`, about === '' ? '' : `<p>${escapeHtml(about)}</p>`, '<div class="cards">', ...sections, '</div></section>'].join('');
}

function card(table: TableReport, body: string): string {
  return `<section class="table" data-table="${escapeHtml(table.table)}" data-kind="${table.kind}"><h3>${escapeHtml(table.table)}</h3>${body}</section>`;
}

function dailySection(table: DailyTable): string {
  const first = table.days[0]?.day;
  const last = table.days.at(-1)?.day;
  if (first === undefined || last === undefined) return card(table, '<p class="about">No rows yet.</p>');
  const slots = dayRange(first, last);
  const index = new Map(slots.map((day, i) => [day, i]));
  const rows = tableRows(table);
  const busiest = table.days.reduce((a, b) => (b.rows > a.rows ? b : a));
  const withRows = table.days.filter((day) => day.rows > 0);
  const empty = slots.length - withRows.length;
  const about =
    slots.length === 1
      ? `${formatNumber(rows)} rows, all on ${first}.`
      : `${formatNumber(rows)} rows on ${formatNumber(slots.length)} UTC days, ${first} to ${last}; the busiest ${busiest.day} with ${formatNumber(busiest.rows)}.` +
        (empty === 0 ? '' : ` ${formatNumber(empty)} ${empty === 1 ? 'day has' : 'days have'} no rows.`);
  const chart = barChart({
    caption: 'rows per UTC day',
    slots,
    bars: withRows.map((day) => ({
      slot: index.get(day.day)!,
      value: day.rows,
      text: `${formatNumber(day.rows)} rows${day.complete ? '' : ', a partial day'}`,
      classes: day.complete ? [] : [PARTIAL],
    })),
    axis: countAxis(busiest.rows),
    legend: DAY_LEGEND,
    ...DAY_CHART,
  });
  return card(table, `<p class="about">${escapeHtml(about)}</p><p class="completeness">${escapeHtml(completeness(table))}</p>${chart}`);
}

/** How many of a table's days are complete and how many partial: `3 complete UTC days, 2 partial.` */
function completeness(table: DailyTable): string {
  const complete = table.days.filter((day) => day.complete).length;
  const partial = table.days.length - complete;
  return `${formatNumber(complete)} complete UTC ${complete === 1 ? 'day' : 'days'}, ${formatNumber(partial)} partial.`;
}

function snapshotSection(table: SnapshotTable, generatedAt: string): string {
  const taken = (snapshot: SnapshotTable['snapshots'][number]): string =>
    `taken ${formatMoment(snapshot.taken)} (${formatDuration((Date.parse(generatedAt) - Date.parse(snapshot.taken)) / 1000)} before this report)`;
  const [only, ...more] = table.snapshots;
  if (only === undefined) return card(table, '<p class="about">No rows: no snapshot yet, or the last one found none.</p>');
  if (more.length === 0) return card(table, `<p class="about"><span class="big">${formatNumber(only.rows)}</span> rows, of the snapshot ${escapeHtml(taken(only))}.</p>`);
  return card(
    table,
    `<p class="about"><span class="big">${formatNumber(tableRows(table))}</span> rows of ${table.snapshots.length} snapshots: a later one was begun and not completed; the next sync completes one and removes the rows it did not see.</p>` +
      `<ul>${table.snapshots.map((snapshot) => `<li>${formatNumber(snapshot.rows)} rows ${escapeHtml(taken(snapshot))}</li>`).join('')}</ul>`,
  );
}

function undatedSection(table: UndatedTable): string {
  return card(table, `<p class="about"><span class="big">${formatNumber(table.rows)}</span> rows. ${escapeHtml(table.doc)}</p>`);
}

/** Every UTC day from `first` to `last` (YYYY-MM-DD), both included. */
function dayRange(first: string, last: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${first}T00:00:00Z`), end = Date.parse(`${last}T00:00:00Z`); t <= end; t += DAY_MS) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}
