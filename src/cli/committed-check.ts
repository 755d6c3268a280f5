/**
 * Sync and backfill check what the warehouse's commits wrote since the stored checks last passed
 * (src/verify/committed-checks.ts): once the run's commits are done, and a sync before it fetches
 * anything, so that no sync builds on rows the chain contradicts (an earlier run's failed check
 * keeps its rows unchecked). Passed: the ranges are marked checked. Failed: exit 1 with each
 * inconsistency and the backfill that mends it; the rows stay, and stay unchecked.
 */
import { FatalError } from '../core/errors.js';
import { checkCommitted } from '../verify/committed-checks.js';
import { inconsistencyCount, inconsistencyLines } from './inconsistency-lines.js';
import type { CommittedBy } from '../run/execute-run.js';
import type { Session } from '../run/session.js';

/**
 * `committedBy`: whose rows are checked, for the message: this run's, or an earlier run's (before a
 * sync). `accept`: what the checks refuse is logged at warn, a line each, and marked checked all the
 * same (`--accept-inconsistent`: for a service that keeps serving the same hole, which no mend fixes).
 */
export async function checkCommittedRows(session: Session, committedBy: CommittedBy, accept: boolean): Promise<void> {
  const report = await checkCommitted(session.sink, session.streams);
  if (report.consistent || accept) {
    for (const line of inconsistencyLines(report, session.pipeline.file)) session.logger.warn({ inconsistency: line }, `accepted (--accept-inconsistent), the rows stay as the service gave them: ${line}`);
    await session.sink.markChecked();
    return;
  }
  const found = inconsistencyCount(report);
  const what = `${found} inconsistenc${found === 1 ? 'y' : 'ies'}`;
  const head =
    committedBy === 'this run'
      ? `the rows this run committed contradict the chain (${what}); they stay, and every sync refuses to build on them until the mend lines below have run (if a mend ends the same way, --accept-inconsistent keeps them)`
      : `the rows an earlier run committed contradict the chain (${what}), so this sync fetches nothing: run the mend lines below, then sync again (if a mend ends the same way, --accept-inconsistent keeps them)`;
  throw new FatalError([head, ...inconsistencyLines(report, session.pipeline.file)].join('\n'));
}
