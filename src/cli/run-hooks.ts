import type { RunHooks } from '../run/execute-run.js';
import type { Session } from '../run/session.js';
import { checkCommittedRows } from './committed-check.js';
import { ProgressReporter } from './progress.js';

/**
 * A command's hooks into its run: progress on stderr (redrawn on a terminal, logged otherwise), and
 * the stored checks of what it committed (committed-check.ts; `acceptInconsistent`:
 * `--accept-inconsistent`).
 */
export function commandHooks(session: Session, { acceptInconsistent = false }: { readonly acceptInconsistent?: boolean } = {}): RunHooks {
  return {
    progress: new ProgressReporter(session.logger, process.stderr.isTTY ? process.stderr : undefined),
    checkCommitted: (committedBy) => checkCommittedRows(session, committedBy, acceptInconsistent),
  };
}
