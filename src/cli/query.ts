/**
 * `chain-etl query <pipeline> "SQL"`: one query over the pipeline's warehouse, read-only, printed as
 * its rows stream as an aligned table (fitted to the terminal), CSV or JSON (see `writeResult`). Bad
 * SQL exits 1 with DuckDB's whole error.
 */
import type { CommandModule } from 'yargs';
import { writeResult } from './result-format.js';
import { lineWidth, maxWidthFlag, resultOptions, type ResultArgs } from './result-options.js';
import { resultOutput } from './result-output.js';
import { openPipelineQuerySession, readerPipeline, runStatement } from './query-session.js';
import { pipelineOptions, type PipelineArgs } from './pipeline-options.js';

interface QueryArgs extends PipelineArgs, ResultArgs {
  sql: string;
}

export const queryCommand: CommandModule<object, QueryArgs> = {
  builder: (y) =>
    resultOptions(
      pipelineOptions(y).positional('sql', { type: 'string', demandOption: true, describe: 'the query, e.g. "SELECT count(*) FROM transactions"' }),
      'table (aligned), csv (with a header) or json (one array of row objects)',
    ) as never,
  handler: async (args) => {
    const maxWidth = lineWidth(maxWidthFlag(args));
    const session = await openPipelineQuerySession(readerPipeline(args), 'query');
    try {
      const out = resultOutput(process.stdout);
      await runStatement(session, args.sql, (result) => writeResult(result, args.format, out, { maxWidth, csvRaw: args['csv-raw'] }));
    } finally {
      session.close();
    }
  },
};
