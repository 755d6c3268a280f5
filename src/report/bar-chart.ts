/**
 * A bar chart as inline SVG, readable without scripts: one slot per step of the x axis (a UTC day, a
 * run), gridlines at the value axis's ticks, and every bar carrying its slot and value as data
 * attributes and a <title> (the browser's tooltip). Bars are at most MAX_BAR wide, so one day reads
 * as one bar, not as a block across the chart; labels are laid out from an estimate of their width
 * that is never smaller than what the browser draws, so none is cut at the edge of the drawing.
 */
import { escapeHtml } from './escape-html.js';
import type { ValueAxis } from './value-axis.js';

export interface Bar {
  /** Index into the chart's slots. */
  readonly slot: number;
  /** Null: nothing to measure (a run without an end or a tip), drawn as a grey stub; `text` says why. */
  readonly value: number | null;
  /** The value as a reader reads it, in the tooltip: `45,576 rows`, `4 min 37 s behind`. */
  readonly text: string;
  /** CSS classes beside `bar`, e.g. a failed run; the legend shows them. */
  readonly classes?: readonly string[];
}

export interface BarChartSpec {
  readonly caption: string;
  /** The x axis in order: every UTC day of the range, every run. A slot without a bar is drawn empty. */
  readonly slots: readonly string[];
  readonly bars: readonly Bar[];
  readonly axis: ValueAxis;
  /** The drawing's size in CSS pixels (it is shown at that size where the page is wide enough). */
  readonly width: number;
  readonly height: number;
  /** The least width of the value axis: charts drawn one above the other over the same slots take the widest of theirs (`axisWidth`), so a slot is at one x in each. */
  readonly axisWidth?: number;
  /** What the bar classes (and `no-value`) mean, shown under the chart where a bar has the class. */
  readonly legend?: readonly { readonly class: string; readonly text: string }[];
}

export const MAX_BAR = 24;
const FONT = 11;
/** Wider than any glyph a label uses (digits, units, dashes) in common sans-serif fonts. */
const CHAR_WIDTH = FONT * 0.66;
const TOP = 10;
const BOTTOM = 24;
const RIGHT = 6;

/** The estimated drawn width of a label. */
function labelWidth(text: string): number {
  return text.length * CHAR_WIDTH;
}

/** The width the value axis's labels take, left of the bars. */
export function axisWidth(axis: ValueAxis): number {
  return Math.ceil(Math.max(...axis.ticks.map((tick) => labelWidth(axis.label(tick))))) + 10;
}

export function barChart(spec: BarChartSpec): string {
  const caption = `<figcaption>${escapeHtml(spec.caption)}</figcaption>`;
  if (spec.slots.length === 0) return `<figure class="chart empty">${caption}<p>nothing yet</p></figure>`;
  const { width, height, axis } = spec;
  const ticks = axis.ticks.map((value) => ({ value, text: axis.label(value) }));
  const left = Math.max(axisWidth(axis), spec.axisWidth ?? 0);
  const bottom = height - BOTTOM;
  const top = axis.ticks.at(-1)!;
  const y = (value: number): number => bottom - (Math.max(0, value) / top) * (bottom - TOP);
  const slot = (width - RIGHT - left) / spec.slots.length;
  const barWidth = Math.max(0.5, Math.min(MAX_BAR, slot > 4 ? slot * 0.8 : slot));
  const centre = (index: number): number => left + (index + 0.5) * slot;

  const grid = ticks.map(
    (tick) =>
      `<line class="${tick.value === 0 ? 'baseline' : 'grid'}" x1="${left}" y1="${y(tick.value).toFixed(1)}" x2="${width - RIGHT}" y2="${y(tick.value).toFixed(1)}"/>` +
      `<text class="tick y" x="${left - 6}" y="${(y(tick.value) + 4).toFixed(1)}" text-anchor="end">${escapeHtml(tick.text)}</text>`,
  );
  const bars = spec.bars.map((bar) => {
    const label = spec.slots[bar.slot]!;
    const x = (centre(bar.slot) - barWidth / 2).toFixed(2);
    const title = `<title>${escapeHtml(`${label}: ${bar.text}`)}</title>`;
    const attributes = `x="${x}" width="${barWidth.toFixed(2)}" data-label="${escapeHtml(label)}"`;
    if (bar.value === null) return `<rect class="no-value" ${attributes} y="${bottom - 3}" height="3">${title}</rect>`;
    // Every measured value is at least a hairline, so each one can be pointed at.
    const barTop = Math.min(y(bar.value), bottom - 1);
    return (
      `<rect class="${['bar', ...(bar.classes ?? [])].join(' ')}" ${attributes} y="${barTop.toFixed(2)}" height="${(bottom - barTop).toFixed(2)}" ` +
      `data-value="${bar.value}">${title}</rect>`
    );
  });
  return [
    `<figure class="chart">${caption}`,
    `<svg viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(spec.caption)}">`,
    ...grid,
    ...bars,
    ...slotLabels(spec.slots, slot, centre, width, bottom + 16),
    '</svg>',
    legend(spec),
    '</figure>',
  ].join('');
}

/**
 * Labels under the slots, as many as fit side by side: always the last slot (the newest), then every
 * k-th before it; one that would touch its right neighbour once kept inside the drawing is left out.
 */
function slotLabels(slots: readonly string[], slot: number, centre: (index: number) => number, width: number, baseline: number): string[] {
  const widest = Math.max(...slots.map(labelWidth));
  const every = Math.ceil((widest + 12) / slot);
  const labels: string[] = [];
  let room = Number.POSITIVE_INFINITY;
  for (let index = slots.length - 1; index >= 0; index -= every) {
    const text = slots[index]!;
    const half = labelWidth(text) / 2;
    const x = Math.min(Math.max(centre(index), half + 2), width - half - 2);
    if (x + half + 12 > room) continue;
    room = x - half;
    labels.unshift(`<text class="tick x" x="${x.toFixed(1)}" y="${baseline}" text-anchor="middle">${escapeHtml(text)}</text>`);
  }
  return labels;
}

function legend(spec: BarChartSpec): string {
  const present = new Set(spec.bars.flatMap((bar) => (bar.value === null ? ['no-value'] : (bar.classes ?? []))));
  const entries = (spec.legend ?? []).filter((entry) => present.has(entry.class));
  if (entries.length === 0) return '';
  return `<p class="legend">${entries.map((entry) => `<span class="item"><span class="key ${escapeHtml(entry.class)}"></span>${escapeHtml(entry.text)}</span>`).join('')}</p>`;
}
