/**
 * `chain-etl query <pipeline> "SQL"`: one query over the pipeline's warehouse, read-only, printed as
 * an aligned table, CSV or JSON (see `formatResult`). Bad SQL exits 1 with DuckDB's one-line error.
 */
import type { CommandModule } from 'yargs';
import { formatResult, RESULT_FORMATS, type ResultFormat } from './result-format.js';
import { openPipelineQuerySession, readerPipeline, runStatement } from './query-session.js';
import { pipelineOptions, type PipelineArgs } from './pipeline-options.js';

interface QueryArgs extends PipelineArgs {
  sql: string;
  format: ResultFormat;
}

export const queryCommand: CommandModule<object, QueryArgs> = {
  builder: (y) =>
    pipelineOptions(y)
      .positional('sql', { type: 'string', demandOption: true, describe: 'the query, e.g. "SELECT count(*) FROM transactions"' })
      .options({ format: { choices: RESULT_FORMATS, default: 'table' as ResultFormat, describe: 'table (aligned), csv (with a header) or json (one array of row objects)' } }) as never,
  handler: async (args) => {
    const session = await openPipelineQuerySession(readerPipeline(args), 'query');
    try {
      process.stdout.write(formatResult(await runStatement(session, args.sql), args.format));
    } finally {
      session.close();
    }
  },
};
