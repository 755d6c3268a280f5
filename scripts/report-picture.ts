/**
 * The README's picture of `chain-etl report`: writes the report of the demo warehouse (made by
 * `npm run demo`) and takes a PNG of the whole page in Debian's headless Chromium (playwright-core
 * drives /usr/bin/chromium, or CHAIN_ETL_CHROMIUM) into docs/report.png.
 *
 *   npm run demo && npm run report-picture
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const PIPELINE = 'pipelines/demo.yaml';
const WAREHOUSE = 'data/demo.duckdb';
const PICTURE = 'docs/report.png';
const CHROMIUM = process.env.CHAIN_ETL_CHROMIUM ?? '/usr/bin/chromium';

async function main(): Promise<void> {
  if (!existsSync(WAREHOUSE)) throw new Error(`no demo warehouse at ${WAREHOUSE}: run npm run demo first`);
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not at ${CHROMIUM}: sh scripts/ensure-chromium.sh installs it as root, or set CHAIN_ETL_CHROMIUM`);
  const folder = mkdtempSync(join(tmpdir(), 'chain-etl-report-picture-'));
  try {
    const html = join(folder, 'report.html');
    execFileSync(process.execPath, ['bin/chain-etl.js', 'report', PIPELINE, '--html', html], { stdio: 'inherit' });
    // The sandbox needs user namespaces, which containers (and root) often lack.
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage({ viewport: { width: 820, height: 600 } });
      await page.goto(pathToFileURL(html).href);
      await page.screenshot({ path: PICTURE, fullPage: true });
    } finally {
      await browser.close();
    }
    process.stdout.write(`wrote ${PICTURE}\n`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`report-picture: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
