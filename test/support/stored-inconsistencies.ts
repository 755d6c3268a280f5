/**
 * `chain-etl verify`'s checks (src/verify/) over a warehouse a test has open: every stream whose
 * tables it holds, taken as unfiltered (the pipelines of the chaos and property suites filter
 * nothing), the checkpoints not checked against a tip. One line per inconsistency, as verify prints it.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { streams } from '../../src/streams/index.js';
import { verifyWarehouse } from '../../src/verify/verify-warehouse.js';

export async function storedInconsistencies(connection: DuckDBConnection, checkpoints: ReadonlyMap<string, string>, present: ReadonlySet<string>): Promise<string[]> {
  const planned = streams.filter((stream) => stream.tables.every((table) => present.has(table.name))).map((stream) => ({ stream, filters: {} }));
  const report = await verifyWarehouse({ connection, checkpoints, has: (table) => present.has(table) }, planned);
  return report.checks.flatMap((check) => check.found.map((found) => `${found.check}, ${found.table}: ${found.detail}`));
}
