/**
 * Statements run with their results streamed, a DuckDB vector at a time, never held whole. One gap
 * of @duckdb/node-api is closed here: a stream that fails midway (a cast error at row 3 million, after
 * the first vectors went out) ends as if it were complete, without its error. The C API marks such a
 * result INVALID (`duckdb_result_return_type`), so the writers call `checkComplete` at the end of the
 * rows, and the statement runs once more, materialized, for DuckDB's own error.
 */
import { ResultReturnType, type DuckDBConnection, type DuckDBPreparedStatement, type DuckDBResult } from '@duckdb/node-api';
import { FatalError } from '../core/errors.js';

/** Hands a streaming result to whatever prints it, which returns once it wrote it all or its reader went. */
export type ShowResult = (result: DuckDBResult) => Promise<void>;

/** Thrown by `checkComplete` at the end of a stream that failed. */
class IncompleteResult extends Error {}

/** Throws when `result`'s rows ended because the statement failed, not because they were all read. */
export function checkComplete(result: DuckDBResult): void {
  if (result.returnType === ResultReturnType.INVALID) throw new IncompleteResult('the result ended with an error');
}

/** Blank space, `;` and comments only. */
const NO_STATEMENT = /^(?:\s|;|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*$/;

/** Whether `sql` holds no statement at all (DuckDB's statement splitter fails on such text with no message). */
export function holdsNoStatement(sql: string): boolean {
  return NO_STATEMENT.test(sql);
}

/** Runs every statement of `sql` in turn, each result streamed to `show` (or, `lastOnly`, only the last one's), up to the first failure. */
export async function streamStatements(connection: DuckDBConnection, sql: string, show: ShowResult, lastOnly = false): Promise<void> {
  const statements = await connection.extractStatements(sql);
  for (let index = 0; index < statements.count; index += 1) {
    const prepared = await statements.prepare(index);
    try {
      if (lastOnly && index < statements.count - 1) await prepared.run();
      else await streamPrepared(prepared, show);
    } finally {
      prepared.destroySync();
    }
  }
}

async function streamPrepared(prepared: DuckDBPreparedStatement, show: ShowResult): Promise<void> {
  try {
    await show(await prepared.stream());
  } catch (err) {
    if (!(err instanceof IncompleteResult)) throw err;
    await prepared.run();
    throw new FatalError('DuckDB ended the result early with an error it did not name, and the statement run again did not fail: run it again');
  }
}
