/**
 * `npm run bench`: every benchmark in its own process, figures printed as one table and written to
 * bench/results/<date>.json. Not part of `npm test`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { measureDevnetStartup } from './devnet-startup.js';

const results: Record<string, unknown> = {};
const devnet = await measureDevnetStartup(20_000);
results.devnetStartup = devnet;

const rows: [string, string][] = [
  ['devnet blocks', String(devnet.blocks)],
  ['devnet transactions', String(devnet.transactions)],
  ['devnet start-up, s', devnet.startupSeconds.toFixed(1)],
  ['devnet peak RSS, MiB', String(devnet.peakRssMiB)],
  ['devnet page of 1000 transactions, ms', String(devnet.pageMs)],
];
const width = Math.max(...rows.map(([name]) => name.length));
for (const [name, value] of rows) console.log(`${name.padEnd(width)}  ${value}`);
mkdirSync('bench/results', { recursive: true });
const file = `bench/results/${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
console.log(`\nwritten to ${file}`);
