/**
 * The report as one self-contained HTML page: no script, no external file, so it can be mailed or
 * opened from disk. Every figure is also written as numbers (a bar's title, a table), so what the
 * page shows can be checked.
 */
import { escapeHtml } from './escape-html.js';
import type { ReportData } from './report-data.js';
import { runSections } from './run-sections.js';
import { tableRows, tableSections, tablesSummary } from './table-sections.js';
import { formatDuration, formatMoment, formatNumber } from './units.js';

const STYLE = `
:root { --ok: #3b6fd8; --bad: #d8563b; --pause: #e0a030; --grey: #b8bfcc; --ink: #1d2433; --muted: #5b6578; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 780px; padding: 0 10px; color: var(--ink); }
h1 { font-size: 1.4rem; margin-bottom: 0.2rem; } h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid #d8dde6; }
h3 { font-size: 1rem; margin: 0 0 0.2rem; }
.meta { color: var(--muted); margin-top: 0; } .glance { font-size: 1.05rem; background: #f3f5f9; padding: 0.5rem 0.8rem; border-radius: 4px; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 2px 8px; border-bottom: 1px solid #eef0f4; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; } td.n, td.when { white-space: nowrap; } table.runs { font-size: 13px; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(360px, 1fr)); gap: 1rem 20px; }
section.table { min-width: 0; } .about { margin: 0 0 0.3rem; color: var(--muted); } .big { font-size: 1.2rem; font-weight: 600; color: var(--ink); }
figure.chart { margin: 0.5rem 0 1rem; } figcaption { font-weight: 600; font-size: 0.95rem; }
section.table figcaption { font-weight: normal; color: var(--muted); font-size: 0.85rem; }
svg { display: block; max-width: 100%; height: auto; }
.bar { fill: var(--ok); } .bar.failed, .bar.abandoned { fill: var(--bad); } .bar.interrupted { fill: var(--pause); } .bar.running { fill: var(--grey); }
.bar.under-a-second { fill-opacity: 0.45; stroke: var(--ink); stroke-width: 1; stroke-dasharray: 2 2; } .no-value { fill: var(--grey); }
.bar.partial { fill-opacity: 0.3; stroke: var(--ok); stroke-width: 1; stroke-dasharray: 3 2; }
text.tick { font-size: 11px; fill: var(--muted); } line.grid { stroke: #e6e9ef; } line.baseline { stroke: #9aa3b5; }
.legend { margin: 0.2rem 0 0; color: var(--muted); font-size: 0.85rem; } .legend .item { margin-right: 1rem; white-space: nowrap; }
.key { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: -1px; background: var(--ok); }
.key.failed, .key.abandoned { background: var(--bad); } .key.interrupted { background: var(--pause); } .key.running { background: var(--grey); }
.key.under-a-second { opacity: 0.6; outline: 1px dashed var(--ink); outline-offset: -1px; } .key.no-value { background: var(--grey); height: 3px; vertical-align: 2px; }
.key.partial { opacity: 0.3; outline: 1px dashed var(--ok); outline-offset: -1px; }
`;

export function reportHtml(data: ReportData): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<title>chain-etl report: ${escapeHtml(data.pipeline)}</title><style>${STYLE}</style></head><body>`,
    `<h1>chain-etl report: ${escapeHtml(data.pipeline)}</h1>`,
    `<p class="meta">${escapeHtml(data.sink.kind)} ${escapeHtml(data.sink.path)} · made ${escapeHtml(formatMoment(data.generatedAt))}</p>`,
    `<p class="glance">${escapeHtml(glance(data))}</p>`,
    '<section id="tables"><h2>What the warehouse holds</h2>',
    tablesSummary(data.tables),
    '</section>',
    tableSections(data.tables, data.generatedAt),
    runSections(data.runs),
    '<section id="rejects"><h2>Rejects</h2>',
    rejectsTable(data),
    '</section>',
    '</body></html>',
    '',
  ].join('\n');
}

/** The page in three sentences: the last run, what the warehouse holds, the rejects. */
function glance(data: ReportData): string {
  const last = data.runs.at(-1);
  const run =
    last === undefined
      ? 'No run yet.'
      : `The last run (${last.command}, started ${formatMoment(last.startedAt)}) ${last.status === 'running' ? 'is running' : `ended ${last.status}`}` +
        `${last.behindSeconds === null ? '' : `, ${formatDuration(last.behindSeconds)} behind the chain`}.`;
  const rows = data.tables.reduce((sum, table) => sum + tableRows(table), 0);
  const rejected = data.rejects.reduce((sum, group) => sum + group.count, 0);
  const tables = `${formatNumber(rows)} rows in ${data.tables.length} ${data.tables.length === 1 ? 'table' : 'tables'}`;
  return `${run} The warehouse holds ${tables}. ${rejected === 0 ? 'No item was rejected.' : `${formatNumber(rejected)} ${rejected === 1 ? 'item was' : 'items were'} rejected (below).`}`;
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
