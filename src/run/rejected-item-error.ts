import { FatalError } from '../core/errors.js';
import type { RejectInput } from '../load/sink.js';

/** With --strict, an item that fails validation ends the run. */
export class RejectedItemError extends FatalError {
  constructor(endpoint: string, rejects: readonly RejectInput[]) {
    super(`${rejects.length} item(s) from ${endpoint} failed validation (first: ${rejects[0]!.reason}); run without --strict to keep them in _etl_rejects and load the rest`);
  }
}
