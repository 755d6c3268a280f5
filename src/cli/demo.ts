/**
 * `chain-etl demo`: the README's first command. Starts a devnet in process (fixed seed), syncs
 * pipelines/demo.yaml into data/demo.duckdb and data/demo-parquet/, then prints row counts, two
 * example queries and how to query the warehouse. Everything runs offline.
 */
import type { CommandModule } from 'yargs';
import { randomBytes } from 'node:crypto';
import { createLogger } from '../core/logger.js';
import { planSync } from '../run/plan.js';
import { openSession, warehouseTables } from '../run/session.js';
import { executeRun } from '../run/execute-run.js';
import { commandHooks } from './run-hooks.js';
import { interruptSignal } from './signals.js';
import { warehouseReader } from '../load/open-sink.js';

interface DemoArgs {
  blocks: number;
  pipeline: string;
}

const DEMO_KEY_ENV = 'CHAIN_ETL_DEMO_KEY';

export const demoCommand: CommandModule<object, DemoArgs> = {
  builder: (y) =>
    y.options({
      blocks: { type: 'number', default: 2000, describe: 'masterchain blocks of the devnet' },
      pipeline: { type: 'string', default: 'pipelines/demo.yaml', describe: 'the demo pipeline file' },
    }) as never,
  handler: async (args) => {
    const key = randomBytes(16).toString('hex');
    process.env[DEMO_KEY_ENV] = key;
    const { startDevnet } = await import('../devnet/index.js');
    const devnet = await startDevnet({ seed: 7, blocks: args.blocks, keys: new Map([[key, 'mainnet']]), keyRps: 1000 });
    const logger = createLogger('warn');
    const interrupt = interruptSignal();
    const out = (line = ''): boolean => process.stdout.write(`${line}\n`);
    out(`devnet: ${devnet.url} (seed 7, ${devnet.generator.chain.steps} masterchain blocks, ${devnet.generator.chain.txs.length} transactions)`);
    try {
      for (const sink of ['duckdb', 'parquet'] as const) {
        const session = await openSession(args.pipeline, { baseUrl: devnet.url, sink, out: sink === 'duckdb' ? 'data/demo.duckdb' : 'data/demo-parquet' }, logger);
        try {
          const started = performance.now();
          const before = session.http.stats.requests;
          const summary = await executeRun(session, 'sync', (ctx) => planSync(session.pipeline, session.streams, ctx), interrupt.signal, commandHooks(session));
          const seconds = (performance.now() - started) / 1000;
          const rows = Object.values(summary.rows).reduce((a, b) => a + b, 0);
          out();
          out(`${sink} → ${session.pipeline.sink.path}: ${rows} rows in ${seconds.toFixed(1)} s (${Math.round(rows / seconds)} rows/s), ${session.http.stats.requests - before} requests`);
          const reader = await warehouseReader(session.sink);
          const tables = warehouseTables(session.streams);
          const width = Math.max(...tables.map((table) => table.name.length));
          for (const table of tables) {
            const count = (await reader.runAndReadAll(`SELECT count(*) FROM "${table.name}"`)).getRows()[0]?.[0];
            out(`  ${table.name.padEnd(width)} ${String(count).padStart(9)}`);
          }
          if (sink === 'duckdb') await exampleQueries(reader, out);
        } finally {
          await session.close();
        }
      }
      out();
      out(`Query it (no API key, nothing to install): npx chain-etl query ${args.pipeline} "SELECT * FROM daily_transactions"`);
      out(`  the Parquet copy: add --sink parquet --out data/demo-parquet; interactive: npx chain-etl sql ${args.pipeline}`);
      out('  a notebook: duckdb.connect("data/demo.duckdb", read_only=True), or run data/demo-parquet/views.sql in any DuckDB');
    } finally {
      interrupt.dispose();
      await devnet.close();
    }
  },
};

async function exampleQueries(reader: Awaited<ReturnType<typeof warehouseReader>>, out: (line?: string) => boolean): Promise<void> {
  const show = async (title: string, sql: string): Promise<void> => {
    out();
    out(`${title}:`);
    out(`  ${sql.replace(/\s+/g, ' ').trim()}`);
    const result = await reader.runAndReadAll(sql);
    const names = result.columnNames();
    out(`  ${names.join(' | ')}`);
    for (const row of result.getRowsJson()) out(`  ${row.map((v) => String(v)).join(' | ')}`);
  };
  await show(
    "Top jetton senders, per token (amounts exact in the token's decimals)",
    `SELECT symbol, source_friendly AS sender, count(*) AS transfers, sum(amount_tokens) AS tokens
     FROM jetton_transfers_readable GROUP BY ALL ORDER BY transfers DESC, sender LIMIT 5`,
  );
  await show(
    'Transactions per UTC hour, fees in TON (exact)',
    `SELECT date_trunc('hour', tx_time AT TIME ZONE 'UTC') AS hour_utc, count(*) AS transactions, sum(ton(total_fees)) AS fees_ton
     FROM transactions GROUP BY ALL ORDER BY hour_utc`,
  );
}

