import type { Logger } from 'pino';
import type { JobProgress } from '../run/runner.js';
import { SmoothedEta } from './eta.js';
import { formatSeconds } from './duration.js';

/**
 * Per-stream progress. On a terminal: one redrawn line per stream with rate and a smoothed ETA.
 * Otherwise (cron, CI): at log level info, a JSON log line per stream at most every `intervalMs`, and
 * one at the end.
 */
export class ProgressReporter {
  private readonly state = new Map<string, { progress: JobProgress; startedAt: number; startRows: number; lastLog: number; eta: SmoothedEta }>();
  private drawnLines = 0;

  constructor(
    private readonly logger: Logger,
    private readonly tty: NodeJS.WriteStream | undefined,
    private readonly intervalMs = 10_000,
  ) {}

  update = (progress: JobProgress): void => {
    const now = Date.now();
    const known = this.state.get(progress.stream);
    const entry = known ?? { progress, startedAt: now, startRows: progress.rows, lastLog: now, eta: new SmoothedEta() };
    entry.progress = progress;
    entry.eta.observe((now - entry.startedAt) / 1000, fraction(progress));
    this.state.set(progress.stream, entry);
    if (this.tty !== undefined) this.draw();
    else if (known !== undefined && now - entry.lastLog >= this.intervalMs) {
      entry.lastLog = now;
      this.logger.info(this.fields(progress.stream), 'progress');
    }
  };

  finish(): void {
    if (this.tty !== undefined) this.draw();
    for (const stream of this.state.keys()) this.logger.info(this.fields(stream), 'stream done');
  }

  private fields(stream: string): Record<string, unknown> {
    const entry = this.state.get(stream)!;
    const { progress } = entry;
    const seconds = (Date.now() - entry.startedAt) / 1000;
    return {
      stream,
      rows: progress.rows - progress.replaced,
      replaced: progress.replaced,
      checkpoint: progress.checkpoint.toString(),
      to: progress.to.toString(),
      percent: Math.round(fraction(progress) * 1000) / 10,
      rowsPerSecond: seconds > 0 ? Math.round((progress.rows - entry.startRows) / seconds) : 0,
    };
  }

  private draw(): void {
    const lines = [...this.state.entries()].map(([stream, entry]) => {
      const f = this.fields(stream);
      const left = entry.eta.secondsLeft();
      const eta = left === 0 ? 'done' : left === undefined ? '…' : formatSeconds(left);
      return `${stream.padEnd(17)} ${String(f.percent).padStart(5)}%  ${String(entry.progress.rows).padStart(9)} rows  ${String(f.rowsPerSecond).padStart(7)} rows/s  ETA ${eta}`;
    });
    const tty = this.tty!;
    if (this.drawnLines > 0) tty.write(`\x1b[${this.drawnLines}A`);
    tty.write(lines.map((line) => `\x1b[2K${line}\n`).join(''));
    this.drawnLines = lines.length;
  }
}

/** The part of the job's range committed, in any window: parallel windows finish out of order. */
function fraction(p: JobProgress): number {
  const span = p.to - p.from + 1n;
  if (span <= 0n) return 1;
  return Math.max(0, Math.min(1, Number(p.committed) / Number(span)));
}
