import type { Logger } from 'pino';
import { isoSeconds, type RunSummary } from './execute-run.js';
import { formatSeconds } from './duration.js';

const count = (n: number): string => n.toLocaleString('en-US');

/** The few lines a person at a terminal reads when a run ends: what it reached, stored and asked. */
export function runSummaryLines(command: string, summary: RunSummary): string[] {
  const streams = Object.keys(summary.rows);
  const total = Object.values(summary.rows).reduce((a, b) => a + b, 0);
  const lines = [
    `${command} done in ${formatSeconds(summary.seconds)}: ${count(total)} rows from ${count(summary.requests)} requests; settled tip: masterchain block ${summary.tipSeqno}`,
  ];
  const width = Math.max(0, ...streams.map((stream) => stream.length));
  for (const stream of streams) {
    lines.push(`  ${stream.padEnd(width)}  ${count(summary.rows[stream] ?? 0).padStart(9)} rows  ${count(summary.pages[stream] ?? 0).padStart(6)} pages`);
  }
  for (const skip of summary.skipped ?? []) lines.push(`  ${skip.stream}: not due (last snapshot ${isoSeconds(skip.last)}), skipped until ${isoSeconds(skip.due)}`);
  if (summary.rejects > 0) lines.push(`  ${count(summary.rejects)} item(s) failed validation and are kept in _etl_rejects: chain-etl status shows them`);
  return lines;
}

/**
 * Reports a finished run: a JSON line at info (quiet by default, so cron mails only failures) and,
 * on a terminal, the human summary.
 */
export function reportRun(logger: Logger, command: string, summary: RunSummary, tty: NodeJS.WritableStream | undefined = process.stderr.isTTY ? process.stderr : undefined): void {
  logger.info({ rows: summary.rows, requests: summary.requests, rejects: summary.rejects, tipSeqno: summary.tipSeqno }, `${command} done`);
  tty?.write(`${runSummaryLines(command, summary).join('\n')}\n`);
}
