/**
 * The report as one self-contained HTML page: no script, no external file, so it can be mailed or
 * opened from disk. Every figure is also written as numbers (a bar's title, a table), so what the
 * page shows can be checked.
 */
import { barChart, escapeHtml, formatNumber } from './bar-chart.js';
import type { ReportData, RunPoint } from './report-data.js';

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 760px; color: #1d2433; }
h1 { font-size: 1.4rem; margin-bottom: 0.2rem; } h2 { font-size: 1.1rem; margin-top: 2rem; border-bottom: 1px solid #d8dde6; }
.meta { color: #5b6578; margin-top: 0; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 2px 8px; border-bottom: 1px solid #eef0f4; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
figure.chart { margin: 1rem 0; } figcaption { font-weight: 600; }
svg { width: 100%; height: auto; } .bar { fill: #3b6fd8; } .bar.failed, .bar.interrupted, .bar.abandoned { fill: #d8563b; }
text.axis { font-size: 10px; fill: #5b6578; } line.axis { stroke: #9aa3b5; }
`;

export function reportHtml(data: ReportData): string {
  const totals = data.tables.map(({ table, days }) => [table, days.reduce((sum, d) => sum + d.rows, 0), days.length] as const);
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<title>chain-etl report: ${escapeHtml(data.pipeline)}</title><style>${STYLE}</style></head><body>`,
    `<h1>chain-etl report: ${escapeHtml(data.pipeline)}</h1>`,
    `<p class="meta">${escapeHtml(data.sink.kind)} ${escapeHtml(data.sink.path)} · made ${escapeHtml(data.generatedAt.replace('T', ' ').slice(0, 19))} UTC</p>`,
    '<section id="tables"><h2>Rows per day</h2>',
    '<table class="totals"><thead><tr><th>table</th><th class="n">rows</th><th class="n">days</th></tr></thead><tbody>',
    ...totals.map(([table, rows, days]) => `<tr data-table="${escapeHtml(table)}"><td>${escapeHtml(table)}</td><td class="n">${formatNumber(rows)}</td><td class="n">${days}</td></tr>`),
    '</tbody></table>',
    ...data.tables.map(({ table, days }) =>
      `<div class="table-days" data-table="${escapeHtml(table)}">${barChart(`${table}: rows per UTC day`, days.map((d) => ({ label: d.day, value: d.rows })), 'rows')}</div>`,
    ),
    '</section>',
    '<section id="distance"><h2>Distance to the tip</h2>',
    '<p>How old the newest settled block a run reached was when the run ended.</p>',
    barChart('seconds behind the chain at the end of each run', withValues(data.runs, (run) => run.behindSeconds), 'seconds'),
    '</section>',
    '<section id="throughput"><h2>Throughput per run</h2>',
    barChart('rows committed per second of each run, new and replaced', withValues(data.runs, throughput), 'rows/s'),
    runsTable(data.runs),
    '</section>',
    '<section id="rejects"><h2>Rejects</h2>',
    rejectsTable(data),
    '</section>',
    '</body></html>',
    '',
  ].join('\n');
}

function withValues(runs: readonly RunPoint[], value: (run: RunPoint) => number | null) {
  return runs.flatMap((run) => {
    const v = value(run);
    return v === null ? [] : [{ label: run.startedAt.replace('T', ' ').slice(0, 19), value: v, kind: run.status === 'ok' ? undefined : run.status }];
  });
}

function throughput(run: RunPoint): number | null {
  if (run.seconds === null || run.seconds <= 0) return null;
  return Math.round(((run.rows + (run.replaced ?? 0)) / run.seconds) * 10) / 10;
}

function runsTable(runs: readonly RunPoint[]): string {
  const rows = [...runs].reverse().map(
    (run) =>
      `<tr class="run"><td>${escapeHtml(run.startedAt.replace('T', ' ').slice(0, 19))}</td><td>${escapeHtml(run.command)}</td><td>${escapeHtml(run.status)}</td>` +
      `<td class="n">${formatNumber(run.rows)}</td><td class="n">${run.replaced === null ? 'unknown' : formatNumber(run.replaced)}</td><td class="n">${run.seconds === null ? '' : formatNumber(Math.round(run.seconds * 10) / 10)}</td>` +
      `<td class="n">${run.behindSeconds === null ? '' : formatNumber(run.behindSeconds)}</td></tr>`,
  );
  return [
    '<table class="runs"><thead><tr><th>started (UTC)</th><th>command</th><th>status</th><th class="n">new rows</th><th class="n">replaced</th><th class="n">seconds</th><th class="n">behind (s)</th></tr></thead><tbody>',
    ...rows,
    '</tbody></table>',
  ].join('');
}

function rejectsTable(data: ReportData): string {
  if (data.rejects.length === 0) return '<p class="no-rejects">No item was rejected.</p>';
  return [
    '<table class="rejects"><thead><tr><th>stream</th><th>reason</th><th class="n">items</th><th>last seen (UTC)</th></tr></thead><tbody>',
    ...data.rejects.map(
      (r) =>
        `<tr class="reject"><td>${escapeHtml(r.stream)}</td><td>${escapeHtml(r.reason)}</td><td class="n">${formatNumber(r.count)}</td><td>${escapeHtml(r.lastSeen.replace('T', ' ').slice(0, 19))}</td></tr>`,
    ),
    '</tbody></table>',
  ].join('');
}
