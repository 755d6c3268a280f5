/** The folder of one case's pipeline files and warehouse. */
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { SCRATCH_ROOT } from '../support/scratch-root.js';

/** A new, empty folder named `chain-etl-<label>-…`; the caller removes it. */
export function makeCaseDir(label: string): Promise<string> {
  return mkdtemp(join(SCRATCH_ROOT, `chain-etl-${label}-`));
}
