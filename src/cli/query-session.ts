/**
 * What `query` and `sql` open: the pipeline's warehouse, read-only, with the analysts' macros and
 * views, and how one statement runs there. Like `status`, it needs no API key and takes no lock a
 * sync waits for beyond the statement's own time (docs/design.md §5).
 */
import type { DuckDBResultReader } from '@duckdb/node-api';
import { loadPipeline, type Pipeline } from '../config/index.js';
import { ConfigError, FatalError } from '../core/errors.js';
import { openQuerySession, type QuerySession } from '../load/read-only-warehouse.js';
import { analystDefinitions } from '../streams/analyst-views.js';
import { overridesOf, type PipelineArgs } from './pipeline-options.js';
import { plannedStreams, warehouseTables } from './session.js';

/** The pipeline file (and its override flags) as a reader takes it: without the API key. */
export function readerPipeline(args: PipelineArgs): Pipeline {
  return loadPipeline(args.pipeline, overridesOf(args), process.env, { requireApiKey: false });
}

/** Opens the warehouse the pipeline names, for reading by `command`. */
export async function openPipelineQuerySession(pipeline: Pipeline, command: 'query' | 'sql' | 'report'): Promise<QuerySession> {
  return openQuerySession(pipeline.sink.kind, pipeline.sink.path, warehouseTables(plannedStreams(pipeline)), analystDefinitions, command);
}

/** Runs `sql` (one or more statements; the last one's result); a failure is a FatalError (exit 1) of DuckDB's first line. */
export async function runStatement(session: QuerySession, sql: string): Promise<DuckDBResultReader> {
  if (sql.trim() === '') throw new ConfigError('no SQL statement given: e.g. chain-etl query pipelines/demo.yaml "SELECT count(*) FROM transactions"');
  try {
    return await session.connection.runAndReadAll(sql);
  } catch (err) {
    throw new FatalError(sqlErrorLine(err), { cause: err });
  }
}

/** DuckDB's error as one line (its first: the position marker lines after it need the statement beside them). */
export function sqlErrorLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  // The node API words a statement that does not parse "Failed to extract statements: <DuckDB's error>".
  return message.replace(/^Failed to extract statements: /, '').split('\n')[0]!.trim();
}
