/**
 * A reader that stops early (`chain-etl query … | head -3`) closes the pipe, and the next write to it
 * fails with EPIPE. The command then ends at once, quietly, with status 0, as `git` and `duckdb` do:
 * what was asked for has been read. A run that was writing stops as after a kill (every committed
 * page is kept, the next run resumes and marks it abandoned). Installed by the binary only: tests
 * that run the CLI in process share their runner's stdout.
 */
export function endQuietlyWhenOutputCloses(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
  }
}
