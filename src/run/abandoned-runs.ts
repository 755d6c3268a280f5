import { etlRuns } from '../core/bookkeeping.js';
import { readRows } from '../load/engine/read.js';
import { warehouseReader } from '../load/open-sink.js';
import type { Sink } from '../load/sink.js';

export const ABANDONED_RUN_ERROR = 'the process ended before recording how the run ended (killed, or a second SIGINT/SIGTERM); the next run resumed from the last checkpoint';

/**
 * Marks the runs still `running` as `abandoned`. Call with the warehouse open for writing: the
 * writer lock means no other process is running them, so their process died mid-run.
 */
export async function closeAbandonedRuns(sink: Sink): Promise<number> {
  const reader = await warehouseReader(sink, [etlRuns]);
  const running = await readRows(reader, etlRuns, `(SELECT * FROM "${etlRuns.name}" WHERE status = 'running')`);
  for (const run of running) await sink.recordRun({ ...run, status: 'abandoned', error: ABANDONED_RUN_ERROR });
  return running.length;
}
