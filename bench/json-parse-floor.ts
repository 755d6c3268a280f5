/**
 * The floor of benchmark 3: read every saved page (`page-*.json`) and JSON.parse it, nothing else.
 * No client can load the pages with less CPU than this, in JS.
 *
 *   node .bench-build/bench/json-parse-floor.js --pages DIR
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { pages: { type: 'string' } } });
const dir = values.pages!;
let transactions = 0;
for (const name of readdirSync(dir).filter((file) => /^page-\d+\.json$/.test(file)).sort()) {
  const page = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { transactions: unknown[] };
  transactions += page.transactions.length;
}
console.log(JSON.stringify({ transactions }));
