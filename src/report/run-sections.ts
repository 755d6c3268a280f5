/**
 * How the recent runs went: how far behind the chain each ended and its throughput, one slot per run
 * (oldest on the left) in both charts, and the runs as a table (newest first). A run is never left
 * out: one without a tip or an end is a grey stub saying why, and one that took under a second (runs
 * are timed to the second) has its rows per second taken over one second, marked as a lower bound.
 */
import { axisWidth, barChart, type Bar } from './bar-chart.js';
import { escapeHtml } from './escape-html.js';
import type { RunPoint } from './report-data.js';
import { formatDuration, formatNumber } from './units.js';
import { durationAxis, rateAxis } from './value-axis.js';

const RUN_CHART = { width: 760, height: 170 };
const UNDER_A_SECOND = 'under-a-second';

const LEGEND = [
  { class: 'ok', text: 'ok' },
  { class: 'failed', text: 'failed' },
  { class: 'interrupted', text: 'interrupted' },
  { class: 'abandoned', text: 'abandoned' },
  { class: 'running', text: 'running' },
  { class: UNDER_A_SECOND, text: 'took under 1 s: rows/s over 1 s, so at least this fast' },
  { class: 'no-value', text: 'not measured (see the tooltip)' },
];

/** The run's label on the x axis and in its tooltip: its start, to the second (UTC). */
function runLabel(run: RunPoint): string {
  return run.startedAt.replace('T', ' ').slice(0, 19);
}

/** Rows written (new and replaced) per second the run took, over at least one second; null without an end. */
function throughput(run: RunPoint): number | null {
  if (run.seconds === null) return null;
  return Math.round(((run.rows + (run.replaced ?? 0)) / Math.max(1, run.seconds)) * 10) / 10;
}

export function runSections(runs: readonly RunPoint[]): string {
  const slots = runs.map(runLabel);
  const classes = (run: RunPoint): string[] => [run.status, ...(run.seconds === 0 ? [UNDER_A_SECOND] : [])];
  const distance: Bar[] = runs.map((run, slot) => ({
    slot,
    value: run.behindSeconds,
    text: run.behindSeconds === null ? 'no tip recorded' : `${formatDuration(run.behindSeconds)} behind the chain (${run.status})`,
    classes: [run.status],
  }));
  const rates: Bar[] = runs.map((run, slot) => {
    const rate = throughput(run);
    return { slot, value: rate, text: rate === null ? `no end recorded (${run.status})` : `${rateText(run, rate, 'at least ')} rows/s (${run.status}${run.seconds === 0 ? ', took under 1 s' : ''})`, classes: classes(run) };
  });
  const max = (values: readonly (number | null)[]): number => Math.max(0, ...values.filter((value): value is number => value !== null));
  const distanceAxis = durationAxis(max(distance.map((bar) => bar.value)));
  const throughputAxis = rateAxis(max(rates.map((bar) => bar.value)));
  // Both charts put each run at the same x.
  const shared = { slots, legend: LEGEND, axisWidth: Math.max(axisWidth(distanceAxis), axisWidth(throughputAxis)), ...RUN_CHART };
  return [
    '<section id="runs"><h2>Runs</h2>',
    `<p>${runs.length === 1 ? '1 run' : `${formatNumber(runs.length)} runs`} shown, the most recent (--runs sets how many, 50 by default), oldest on the left, placed by start time (UTC).</p>`,
    '<div id="distance">',
    barChart({
      caption: 'Distance to the tip: how far behind the chain the warehouse was when each run ended (the age of the newest settled block it reached)',
      bars: distance,
      axis: distanceAxis,
      ...shared,
    }),
    '</div><div id="throughput">',
    barChart({
      caption: 'Throughput: rows written per second of each run, new and replaced',
      bars: rates,
      axis: throughputAxis,
      ...shared,
    }),
    '</div>',
    runsTable(runs),
    '</section>',
  ].join('\n');
}

/** Rows per second as read: whole from 100 up; a lower bound (under a second) marked. */
function rateText(run: RunPoint, rate: number, atLeast: string): string {
  return `${run.seconds === 0 ? atLeast : ''}${formatNumber(rate >= 100 ? Math.round(rate) : rate)}`;
}

function took(run: RunPoint): string {
  if (run.seconds === null) return run.status === 'running' ? 'running' : 'unknown';
  return run.seconds === 0 ? 'under 1 s' : formatDuration(run.seconds);
}

function runsTable(runs: readonly RunPoint[]): string {
  const rows = [...runs].reverse().map((run) => {
    const rate = throughput(run);
    return (
      `<tr class="run"><td class="when">${escapeHtml(runLabel(run))}</td><td>${escapeHtml(run.command)}</td><td>${escapeHtml(run.status)}</td>` +
      `<td class="n">${formatNumber(run.rows)}</td><td class="n">${run.replaced === null ? 'unknown' : formatNumber(run.replaced)}</td>` +
      `<td class="n">${took(run)}</td><td class="n">${rate === null ? '' : rateText(run, rate, '≥ ')}</td>` +
      `<td class="n">${run.behindSeconds === null ? '' : formatDuration(run.behindSeconds)}</td></tr>`
    );
  });
  return [
    '<table class="runs"><thead><tr><th>started (UTC)</th><th>command</th><th>status</th><th class="n">new rows</th><th class="n">replaced</th>',
    '<th class="n">took</th><th class="n">rows/s</th><th class="n">behind the chain</th></tr></thead><tbody>',
    ...rows,
    '</tbody></table>',
  ].join('');
}
