/**
 * The timeline of one cron no-op (bench/timeline-probe.ts's report) as the bench prints it: every
 * mark and request in ms since spawn, with the CPU ms spent up to each mark, and in one line for the
 * results table.
 */
import type { TimelineReport } from './timeline-probe.js';

/** ms since spawn of a time in ms since the process started. */
type SinceSpawn = (at: number) => number;

function sinceSpawn(report: TimelineReport, spawnedAt: number): SinceSpawn {
  const offset = report.timeOrigin - spawnedAt;
  return (at) => Math.round(offset + at);
}

const endpoint = (path: string): string => path.replace(/^.*\/api\/v3\//, '');

/** One line per mark and request, in order: `  412 ms  cpu  380  DuckDB loaded`. */
export function timelineLines(report: TimelineReport, spawnedAt: number, exitedAt: number): string[] {
  const at = sinceSpawn(report, spawnedAt);
  const rows: [number, string][] = [[0, 'spawn']];
  for (const event of report.events) rows.push([at(event.at), `cpu ${String(event.cpu).padStart(5)}  ${event.event}`]);
  for (const request of report.requests) {
    const answered = request.headers === undefined ? 'no answer' : `headers +${request.headers - request.start} ms, body +${(request.end ?? request.headers) - request.start} ms`;
    rows.push([at(request.start), `           GET ${endpoint(request.path)} (${answered})`]);
  }
  rows.push([exitedAt - spawnedAt, `exit seen by the bench; the loop held at "command done": ${heldSummary(report)}`]);
  return rows.sort((a, b) => a[0] - b[0]).map(([ms, what]) => `${String(ms).padStart(6)} ms  ${what}`);
}

/** The timeline in one line: phases and requests, ms since spawn. */
export function timelineSummary(report: TimelineReport, spawnedAt: number, exitedAt: number): string {
  const at = sinceSpawn(report, spawnedAt);
  const when = (event: string): string => {
    const found = report.events.find((e) => e.event === event);
    return found === undefined ? '?' : String(at(found.at));
  };
  const requests = report.requests.map((r) => `${endpoint(r.path)} ${at(r.start)}–${r.end === undefined ? '?' : at(r.end)}`).join(', ');
  const commits = report.events.filter((e) => e.event.startsWith('committed')).map((e) => at(e.at)).join(', ');
  return (
    `ms since spawn: node ${when('node ready, preload runs')}, CLI ${when('CLI modules loaded')}, sync modules ${when('sync modules loaded')}; ` +
    `requests ${requests}; DuckDB load ${when('DuckDB loading')}–${when('DuckDB loaded')}, file open ${when('DuckDB file opened')}, ` +
    `migration checked ${when('migration checked')}, warehouse open ${when('warehouse open')}; run recorded ${when('run recorded running')}, ` +
    `commits ${commits === '' ? 'none' : commits}, run ok ${when('run recorded ok')}; checkpoint ${when('checkpoint')}–${when('warehouse closed')}; ` +
    `command done ${when('command done')}, exit ${exitedAt - spawnedAt} (held: ${heldSummary(report)})`
  );
}

/** `TCPSocketWrap ×2, Timeout`: what the event loop held when the command was done. */
function heldSummary(report: TimelineReport): string {
  const counts = new Map<string, number>();
  for (const name of report.heldAtDone) counts.set(name, (counts.get(name) ?? 0) + 1);
  if (counts.size === 0) return 'nothing';
  return [...counts].map(([name, n]) => (n === 1 ? name : `${name} ×${n}`)).join(', ');
}
