/**
 * A reader that stops early (`chain-etl query … | head -3`) closes the pipe, and the next write to it
 * fails with EPIPE. The command then ends at once, quietly, with status 0, as `git` and `duckdb` do:
 * what was asked for has been read. A run that was writing stops as after a kill (every committed
 * page is kept, the next run resumes and marks it abandoned). Any other failure to write (a full
 * disk) is the command's to report where it listens for it (query's writer does), else one line and
 * exit 1. Installed by the binary only: tests that run the CLI in process share their runner's stdout.
 */
export function endQuietlyWhenOutputCloses(): void {
  for (const [name, stream] of [['stdout', process.stdout], ['stderr', process.stderr]] as const) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      if (stream.listenerCount('error') > 1) return;
      if (name === 'stdout') process.stderr.write(`chain-etl: cannot write to stdout: ${error.message}\n`);
      process.exit(1);
    });
  }
}
