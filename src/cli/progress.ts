import type { Logger } from 'pino';
import type { JobProgress } from '../run/runner.js';

/**
 * Per-stream progress. On a terminal: one redrawn line per stream with rate and ETA. Otherwise
 * (cron, CI): a JSON log line per stream at most every `intervalMs`, and one at the end.
 */
export class ProgressReporter {
  private readonly state = new Map<string, { progress: JobProgress; startedAt: number; startRows: number; lastLog: number }>();
  private drawnLines = 0;

  constructor(
    private readonly logger: Logger,
    private readonly tty: NodeJS.WriteStream | undefined,
    private readonly intervalMs = 10_000,
  ) {}

  update = (progress: JobProgress): void => {
    const now = Date.now();
    const known = this.state.get(progress.stream);
    const entry = known ?? { progress, startedAt: now, startRows: progress.rows, lastLog: now };
    entry.progress = progress;
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
      rows: progress.rows,
      checkpoint: progress.checkpoint.toString(),
      to: progress.to.toString(),
      percent: Math.round(fraction(progress) * 1000) / 10,
      rowsPerSecond: seconds > 0 ? Math.round((progress.rows - entry.startRows) / seconds) : 0,
    };
  }

  private draw(): void {
    const lines = [...this.state.keys()].map((stream) => {
      const f = this.fields(stream);
      const done = fraction(this.state.get(stream)!.progress);
      const elapsed = (Date.now() - this.state.get(stream)!.startedAt) / 1000;
      const eta = done > 0 && done < 1 ? formatSeconds((elapsed / done) * (1 - done)) : done >= 1 ? 'done' : '…';
      return `${stream.padEnd(17)} ${String(f.percent).padStart(5)}%  ${String(f.rows).padStart(9)} rows  ${String(f.rowsPerSecond).padStart(7)} rows/s  ETA ${eta}`;
    });
    const tty = this.tty!;
    if (this.drawnLines > 0) tty.write(`\x1b[${this.drawnLines}A`);
    tty.write(lines.map((line) => `\x1b[2K${line}\n`).join(''));
    this.drawnLines = lines.length;
  }
}

function fraction(p: JobProgress): number {
  const span = p.to - p.from + 1n;
  if (span <= 0n) return 1;
  const done = p.checkpoint - p.from + 1n;
  return Math.max(0, Math.min(1, Number(done) / Number(span)));
}

function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${String(Math.ceil(seconds % 60)).padStart(2, '0')}s`;
  return `${Math.floor(seconds / 3600)}h${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}m`;
}
