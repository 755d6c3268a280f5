/**
 * @duckdb/node-api, loaded when a DuckDB database first opens or a column kind first appends or reads
 * a value, not when the CLI starts. Loading it (its JS and the native binding) costs about 0.2 CPU-s;
 * a sync sends its first requests before it opens the warehouse, so the load runs while they are
 * answered (docs/design.md §3, start-up). Modules import the package's types only, and this module
 * for what runs.
 */
import { createRequire } from 'node:module';
import type * as DuckDB from '@duckdb/node-api';
import { mark } from './timeline.js';

let api: typeof DuckDB | undefined;

/** The package, loaded on the first call. */
export function duckdb(): typeof DuckDB {
  return (api ??= createRequire(import.meta.url)('@duckdb/node-api') as typeof DuckDB);
}

/**
 * `DuckDBInstance.create`, the package loaded first. Loaded through `import()`, whose file reads
 * let requests already sent reach the wire before the load takes the thread.
 */
export async function createDuckDBInstance(path: string, config?: Record<string, string>): Promise<DuckDB.DuckDBInstance> {
  if (api === undefined) {
    mark('DuckDB loading');
    api = (await import('@duckdb/node-api')) as typeof DuckDB;
    mark('DuckDB loaded');
  }
  const instance = await api.DuckDBInstance.create(path, config);
  mark('DuckDB file opened');
  return instance;
}
