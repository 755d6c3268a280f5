/**
 * Preloaded into a measured process with `node --import <this file>` beside bench/probe.ts: records
 * the process's timeline, from its start to its exit, and writes it to $BENCH_TIMELINE_OUT as JSON:
 * the marks chain-etl publishes (src/core/timeline.ts: modules loaded, DuckDB loaded and opened,
 * commits, close), each HTTP request's start, response headers and body end (undici's diagnostics
 * channels, which Node's fetch publishes), the CPU time at each, and what the event loop still held
 * when the command was done (what the exit waits for). Nothing is recorded without the variable.
 */
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { TIMELINE_CHANNEL, type TimelineMark } from '../src/core/timeline.js';

export interface TimelineEvent {
  readonly event: string;
  /** ms since the process started (performance.timeOrigin). */
  readonly at: number;
  /** CPU ms of the process so far (user + system, all threads). */
  readonly cpu: number;
}

export interface TimelineRequest {
  readonly path: string;
  /** ms since the process started: handed to the HTTP stack, response headers, body read. */
  readonly start: number;
  readonly headers?: number;
  readonly end?: number;
}

export interface TimelineReport {
  /** Epoch ms of the process's start. */
  readonly timeOrigin: number;
  readonly events: readonly TimelineEvent[];
  readonly requests: readonly TimelineRequest[];
  /** process.getActiveResourcesInfo() at the mark `command done`. */
  readonly heldAtDone: readonly string[];
}

interface UndiciMessage {
  readonly request: { readonly path: string };
}

const out = process.env['BENCH_TIMELINE_OUT'];
if (out !== undefined && out !== '') {
  const events: TimelineEvent[] = [];
  const requests = new Map<object, { -readonly [K in keyof TimelineRequest]: TimelineRequest[K] }>();
  let heldAtDone: string[] = [];
  const cpuMs = (): number => {
    const usage = process.cpuUsage();
    return Math.round((usage.user + usage.system) / 1000);
  };
  const record = (event: string, at = performance.now()): void => {
    events.push({ event, at: Math.round(at), cpu: cpuMs() });
  };
  record('node ready, preload runs');
  subscribe(TIMELINE_CHANNEL, (message) => {
    const { event, at } = message as TimelineMark;
    record(event, at);
    if (event === 'command done') heldAtDone = process.getActiveResourcesInfo();
  });
  subscribe('undici:request:create', (message) => {
    const { request } = message as UndiciMessage;
    // The path alone: a query string may carry what the pipeline sends.
    requests.set(request, { path: request.path.replace(/\?.*$/, ''), start: Math.round(performance.now()) });
  });
  subscribe('undici:request:headers', (message) => {
    const entry = requests.get((message as UndiciMessage).request);
    if (entry !== undefined) entry.headers = Math.round(performance.now());
  });
  subscribe('undici:request:trailers', (message) => {
    const entry = requests.get((message as UndiciMessage).request);
    if (entry !== undefined) entry.end = Math.round(performance.now());
  });
  process.on('exit', () => {
    record('exit');
    const report: TimelineReport = { timeOrigin: performance.timeOrigin, events, requests: [...requests.values()], heldAtDone };
    writeFileSync(out, JSON.stringify(report));
  });
}
