import type { Logger } from 'pino';
import type { RunSummary } from '../run/execute-run.js';
import { isoSeconds } from '../core/utc-time.js';
import { formatSeconds } from './duration.js';

const count = (n: number): string => n.toLocaleString('en-US');
const sum = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);

/**
 * The few lines a person at a terminal reads when a run ends: what it reached, stored and asked. Rows
 * that took the place of stored ones (the actions overlap re-read) are counted apart from new rows.
 */
export function runSummaryLines(command: string, summary: RunSummary): string[] {
  const streams = Object.keys(summary.rows);
  const lines = [
    `${command} done in ${formatSeconds(summary.seconds)}: ${count(sum(summary.rows))} new rows and ${count(sum(summary.replaced))} replaced ` +
      `from ${count(summary.requests)} requests; settled tip: masterchain block ${summary.tipSeqno}`,
  ];
  const width = Math.max(0, ...streams.map((stream) => stream.length));
  for (const stream of streams) {
    lines.push(
      `  ${stream.padEnd(width)}  ${count(summary.rows[stream] ?? 0).padStart(9)} new  ${count(summary.replaced[stream] ?? 0).padStart(9)} replaced  ` +
        `${count(summary.pages[stream] ?? 0).padStart(6)} pages`,
    );
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
  logger.info({ rows: summary.rows, replaced: summary.replaced, requests: summary.requests, rejects: summary.rejects, tipSeqno: summary.tipSeqno }, `${command} done`);
  tty?.write(`${runSummaryLines(command, summary).join('\n')}\n`);
}
