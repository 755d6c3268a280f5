/**
 * 4. Warehouse rows per request: the four streams (transactions, actions, jetton_transfers,
 * validator_events) synced from the devnet's first block to its tip into DuckDB, unthrottled; rows
 * now in every table they fill (transactions, messages, actions, action_accounts, jetton_transfers,
 * validator_events, addresses) ÷ requests the devnet answered (all of them: head, start-point
 * look-ups and pages). Per stream: rows it produced ÷ pages it committed (from `_etl_runs`).
 *
 *   node .bench-build/bench/rows-per-request.js [blocks=1000]
 */
import { join } from 'node:path';
import { DevnetProcess, load, log, readDuckDBWarehouse, round, runCli, tempDir, writePipeline } from './harness.js';

export const ALL_STREAMS = ['transactions', 'actions', 'jetton_transfers', 'validator_events'] as const;

export interface RowsPerRequestResult {
  readonly blocks: number;
  readonly tables: Record<string, number>;
  readonly rows: number;
  readonly requests: number;
  readonly requestsByPath: Record<string, number>;
  readonly rowsPerRequest: number;
  /** Per stream: rows of its own tables (addresses excluded), pages, rows per page. */
  readonly streams: Record<string, { readonly rows: number; readonly pages: number; readonly rowsPerPage: number }>;
  readonly wallSeconds: number;
  readonly cpuSeconds: number;
  readonly loadBefore: number;
}

export async function measureRowsPerRequest(blocks = 1000): Promise<RowsPerRequestResult> {
  const devnet = await DevnetProcess.start(blocks);
  log(`rows/request: devnet of ${devnet.info.blocks} blocks ready in ${devnet.info.startupSeconds.toFixed(1)} s`);
  const dir = tempDir('rpr');
  try {
    const { id, url } = await devnet.serve(1_000_000, 0);
    const warehouse = join(dir, 'all.duckdb');
    const pipeline = writePipeline(dir, 'all', {
      baseUrl: url,
      rps: 1000,
      concurrency: 8,
      start: '{ mc_seqno: 50000000 }',
      streams: ALL_STREAMS,
      sink: { kind: 'duckdb', path: warehouse },
    });
    const loadBefore = load();
    const run = await runCli('sync', pipeline);
    const stats = await devnet.stats(id);
    const summary = await readDuckDBWarehouse(warehouse);
    const rows = Object.values(summary.tables).reduce((a, b) => a + b, 0);
    const last = summary.runs.at(-1)!;
    const streams: RowsPerRequestResult['streams'] = {};
    for (const name of ALL_STREAMS) {
      const streamRows = last.rows[name] ?? 0;
      const pages = last.requests[name] ?? 0;
      streams[name] = { rows: streamRows, pages, rowsPerPage: round(streamRows / Math.max(1, pages), 1) };
    }
    const result: RowsPerRequestResult = {
      blocks: devnet.info.blocks,
      tables: summary.tables,
      rows,
      requests: stats.requests,
      requestsByPath: stats.byPath as Record<string, number>,
      rowsPerRequest: round(rows / stats.requests, 1),
      streams,
      wallSeconds: round(run.wallSeconds, 1),
      cpuSeconds: round(run.cpuSeconds, 1),
      loadBefore,
    };
    log(`rows/request: ${rows} rows / ${stats.requests} requests = ${result.rowsPerRequest}`);
    return result;
  } finally {
    await devnet.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  measureRowsPerRequest(Number(process.argv[2] ?? 1000)).then((result) => console.log(JSON.stringify(result, null, 2)));
}
