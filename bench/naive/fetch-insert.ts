/**
 * The naive client of benchmark 2: what one writes in an afternoon. One request at a time: wait for
 * the rate limit's spacing, fetch a page of /api/v3/transactions, parse it, append its transactions
 * to a DuckDB table with the appender (the node API's fast path; one flush per page), repeat from
 * the page's last lt. A 429 waits a second and tries again. No windows, no concurrency, no
 * validation, no primary key (the rows of a page's last lt come twice; rows are counted distinct),
 * no messages table: each row keeps a few columns plus the transaction's raw JSON.
 *
 *   node .bench-build/bench/naive/fetch-insert.js --url U --key K --from-lt A --to-lt B --rps R --db F [--max-seconds S]
 *
 * Stops at the end of the range or after --max-seconds; prints {"rows":…,"requests":…,"seconds":…}.
 */
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { DuckDBInstance } from '@duckdb/node-api';

interface Tx {
  readonly hash: string;
  readonly account: string;
  readonly lt: string;
  readonly now: number;
  readonly total_fees: string;
}

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    key: { type: 'string' },
    'from-lt': { type: 'string' },
    'to-lt': { type: 'string' },
    rps: { type: 'string' },
    db: { type: 'string' },
    'max-seconds': { type: 'string', default: '1e9' },
  },
});
const endLt = BigInt(values['to-lt']!) - 1n;
const spacingMs = 1000 / Number(values.rps);
const deadline = performance.now() + Number(values['max-seconds']) * 1000;

const instance = await DuckDBInstance.create(values.db!);
const db = await instance.connect();
await db.run('CREATE TABLE IF NOT EXISTS transactions (hash VARCHAR, account VARCHAR, lt UBIGINT, now BIGINT, total_fees VARCHAR, raw VARCHAR)');

const started = performance.now();
let cursor = BigInt(values['from-lt']!);
let nextAt = 0;
let requests = 0;
while (performance.now() < deadline) {
  const wait = nextAt - performance.now();
  if (wait > 0) await sleep(wait);
  nextAt = performance.now() + spacingMs;
  requests++;
  const response = await fetch(`${values.url}/api/v3/transactions?start_lt=${cursor}&end_lt=${endLt}&limit=1000&sort=asc`, {
    headers: { 'X-API-Key': values.key! },
  });
  if (response.status === 429) {
    await response.arrayBuffer();
    await sleep(1000);
    continue;
  }
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  const page = (await response.json()) as { transactions: Tx[] };
  const appender = await db.createAppender('transactions');
  for (const tx of page.transactions) {
    appender.appendVarchar(tx.hash);
    appender.appendVarchar(tx.account);
    appender.appendUBigInt(BigInt(tx.lt));
    appender.appendBigInt(BigInt(tx.now));
    appender.appendVarchar(tx.total_fees);
    appender.appendVarchar(JSON.stringify(tx));
    appender.endRow();
  }
  appender.closeSync();
  if (page.transactions.length < 1000) break;
  const last = BigInt(page.transactions.at(-1)!.lt);
  cursor = last > cursor ? last : cursor + 1n;
}
const rows = Number((await db.runAndReadAll('SELECT count(DISTINCT hash) FROM transactions')).getRows()[0]![0]);
db.closeSync();
instance.closeSync();
console.log(JSON.stringify({ rows, requests, seconds: (performance.now() - started) / 1000 }));
