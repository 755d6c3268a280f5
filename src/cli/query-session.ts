/**
 * What `query` and `sql` open: the pipeline's warehouse, read-only, with the analysts' macros and
 * views, and how one statement runs there. Like `status`, it needs no API key and takes no lock a
 * sync waits for beyond the statement's own time (docs/design.md §5).
 */
import { loadPipeline, type Pipeline } from '../config/index.js';
import { ConfigError, EtlError, FatalError } from '../core/errors.js';
import { openQuerySession, type QuerySession } from '../load/read-only-warehouse.js';
import { analystDefinitions } from '../streams/analyst-views.js';
import { overridesOf, type PipelineArgs } from './pipeline-options.js';
import { plannedStreams, warehouseTables } from '../run/session.js';
import { holdsNoStatement, streamStatements, type ShowResult } from './streamed-statement.js';
import { refuseWarehouseWrites } from './warehouse-writes.js';

/** A query session over a pipeline's warehouse that knows where the warehouse lies. */
export interface PipelineQuerySession extends QuerySession {
  /** Refuses SQL whose statements would write files into the warehouse (`warehouse-writes.ts`). */
  refuseWrites(sql: string): void;
}

/** The pipeline file (and its override flags) as a reader takes it: without the API key. */
export function readerPipeline(args: PipelineArgs): Pipeline {
  return loadPipeline(args.pipeline, overridesOf(args), process.env, { requireApiKey: false });
}

/** Opens the warehouse the pipeline names, for reading by `command`. */
export async function openPipelineQuerySession(pipeline: Pipeline, command: 'query' | 'sql' | 'report'): Promise<PipelineQuerySession> {
  const { kind, path } = pipeline.sink;
  const session = await openQuerySession(kind, path, warehouseTables(plannedStreams(pipeline)), analystDefinitions, command);
  return { ...session, refuseWrites: (sql) => refuseWarehouseWrites(sql, kind, path, command) };
}

/**
 * Runs `sql` (one or more statements, none writing into the warehouse) and streams the last one's result to `show`; a failure of
 * DuckDB's, as a statement starts or while its rows stream, is a FatalError (exit 1) of DuckDB's
 * whole text.
 */
export async function runStatement(session: PipelineQuerySession, sql: string, show: ShowResult): Promise<void> {
  if (holdsNoStatement(sql)) throw new ConfigError('no SQL statement given: e.g. chain-etl query pipelines/demo.yaml "SELECT count(*) FROM transactions"');
  session.refuseWrites(sql);
  try {
    await streamStatements(session.connection, sql, show, true);
  } catch (err) {
    throw err instanceof EtlError ? err : new FatalError(sqlErrorText(err), { cause: err });
  }
}

/**
 * DuckDB's error whole: its first line, then what it adds on the next ones (the candidate columns,
 * "Did you mean …", the statement's line with a caret under the place), as DuckDB's own shell prints it.
 */
export function sqlErrorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  // The node API words a statement that does not parse "Failed to extract statements: <DuckDB's error>".
  return message.replace(/^Failed to extract statements: /, '').trimEnd();
}
