/**
 * Debian's headless Chromium for tests that check what a page shows (the HTML report). `npm test`
 * installs it first where it can (scripts/ensure-chromium.sh); where it cannot, those tests are
 * skipped with this message, never passed.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHAIN_ETL_CHROMIUM ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can. */
export const browserMissing: string | undefined = existsSync(CHROMIUM)
  ? undefined
  : `Chromium is not at ${CHROMIUM} (Debian package chromium; scripts/ensure-chromium.sh installs it as root, or set CHAIN_ETL_CHROMIUM): the browser tests are skipped`;

export function launchBrowser(): Promise<Browser> {
  // The sandbox needs user namespaces, which containers (and root) often lack.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}
