/**
 * A bar chart as inline SVG, readable without scripts: each bar carries its label and value as data
 * attributes and a <title> (the browser's tooltip), and the chart names its largest value on its axis.
 */
export interface Bar {
  readonly label: string;
  readonly value: number;
  /** Shown in the tooltip; defaults to the value. */
  readonly text?: string;
  /** A CSS class for the bar, e.g. a failed run. */
  readonly kind?: string;
}

const WIDTH = 720;
const HEIGHT = 160;
const AXIS = 48;

export function barChart(caption: string, bars: readonly Bar[], unit: string): string {
  if (bars.length === 0) return `<figure class="chart empty"><figcaption>${escapeHtml(caption)}</figcaption><p>nothing yet</p></figure>`;
  const max = Math.max(...bars.map((bar) => bar.value), 0);
  const slot = (WIDTH - AXIS) / bars.length;
  const gap = slot > 6 ? 1 : 0;
  const rects = bars.map((bar, i) => {
    const height = max === 0 ? 0 : Math.max(bar.value > 0 ? 1 : 0, (bar.value / max) * (HEIGHT - 20));
    const x = AXIS + i * slot;
    const title = `${bar.label}: ${bar.text ?? `${formatNumber(bar.value)} ${unit}`}`;
    return (
      `<rect class="bar${bar.kind === undefined ? '' : ` ${bar.kind}`}" x="${x.toFixed(2)}" y="${(HEIGHT - height).toFixed(2)}" width="${Math.max(0.5, slot - gap).toFixed(2)}" height="${height.toFixed(2)}" ` +
      `data-label="${escapeHtml(bar.label)}" data-value="${bar.value}"><title>${escapeHtml(title)}</title></rect>`
    );
  });
  const first = bars[0]!.label;
  const last = bars.at(-1)!.label;
  return [
    `<figure class="chart"><figcaption>${escapeHtml(caption)}</figcaption>`,
    `<svg viewBox="0 0 ${WIDTH} ${HEIGHT + 18}" role="img" aria-label="${escapeHtml(caption)}">`,
    `<text class="axis max" x="${AXIS - 4}" y="12" text-anchor="end">${escapeHtml(formatNumber(max))}</text>`,
    `<text class="axis" x="${AXIS - 4}" y="${HEIGHT}" text-anchor="end">0</text>`,
    `<line class="axis" x1="${AXIS}" y1="${HEIGHT}" x2="${WIDTH}" y2="${HEIGHT}"/>`,
    ...rects,
    `<text class="axis from" x="${AXIS}" y="${HEIGHT + 14}">${escapeHtml(first)}</text>`,
    `<text class="axis to" x="${WIDTH}" y="${HEIGHT + 14}" text-anchor="end">${escapeHtml(last)}</text>`,
    '</svg></figure>',
  ].join('');
}

export function formatNumber(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString('en-US') : value.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
