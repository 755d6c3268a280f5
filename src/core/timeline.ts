/**
 * Marks of where a run's time goes (the command's modules loaded, DuckDB loaded and the file opened,
 * each commit, the warehouse closed), published on the diagnostics channel `chain-etl:timeline`.
 * Without a subscriber a mark costs one property read; the cron benchmark subscribes
 * (bench/timeline-probe.ts) and prints the marks beside the requests, spawn to exit.
 */
import { channel } from 'node:diagnostics_channel';

export const TIMELINE_CHANNEL = 'chain-etl:timeline';

export interface TimelineMark {
  readonly event: string;
  /** performance.now() of the process: ms since it started. */
  readonly at: number;
}

const marks = channel(TIMELINE_CHANNEL);

export function mark(event: string): void {
  if (marks.hasSubscribers) marks.publish({ event, at: performance.now() } satisfies TimelineMark);
}
