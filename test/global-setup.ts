/**
 * Global setup of `npm test` (and of any lone `npx vitest run FILE`): builds dist/ once when a source
 * file is newer, since the CLI the tests spawn and the page workers the runner starts run the
 * compiled code, and a stale dist/ would test yesterday's code.
 */
import { ensureBuilt } from './support/build.js';

export default function setup(): void {
  ensureBuilt();
}
