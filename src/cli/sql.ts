/**
 * `chain-etl sql <pipeline>`: an interactive SQL prompt over the pipeline's warehouse, read-only, the
 * engine of `query`. A statement runs once a line ends with `;` (each of several on a line prints its
 * result); `.tables` lists the tables and views, `.quit` (or the end of input) ends, Ctrl-C drops the
 * statement being typed. A failed statement prints DuckDB's whole error and the prompt goes on; with
 * stdin not a terminal (a script piped in) the command then exits 1. Results stream as `query`'s do;
 * once stdout's reader has gone the command ends.
 */
import { createInterface } from 'node:readline';
import type { CommandModule } from 'yargs';
import type { DuckDBResult } from '@duckdb/node-api';
import { FatalError } from '../core/errors.js';
import { writeResult } from './result-format.js';
import { lineWidth, maxWidthFlag, resultOptions, type ResultArgs } from './result-options.js';
import { resultOutput, type ResultOutput } from './result-output.js';
import { openPipelineQuerySession, readerPipeline, sqlErrorText, type PipelineQuerySession } from './query-session.js';
import { pipelineOptions, type PipelineArgs } from './pipeline-options.js';
import { holdsNoStatement, streamStatements } from './streamed-statement.js';

interface SqlArgs extends PipelineArgs, ResultArgs {}

const PROMPT = 'chain-etl> ';
const CONTINUATION = '      ...> ';
const HELP = '.tables   the tables and views\n.quit     end (also .exit, or end of input)\n.help     this list\nSQL statements end with ;';
const TABLES_SQL =
  "SELECT name, kind FROM (SELECT table_name AS name, 'table' AS kind FROM duckdb_tables() WHERE NOT internal " +
  "UNION SELECT view_name, 'view' FROM duckdb_views() WHERE NOT internal) ORDER BY name";

export const sqlCommand: CommandModule<object, SqlArgs> = {
  builder: (y) =>
    resultOptions(pipelineOptions(y), 'how results print: table, csv or json') as never,
  handler: async (args) => {
    const maxWidth = maxWidthFlag(args);
    const session = await openPipelineQuerySession(readerPipeline(args), 'sql');
    try {
      const failed = await prompt(session, (result, out) => writeResult(result, args.format, out, { maxWidth: lineWidth(maxWidth), csvRaw: args['csv-raw'] }));
      if (failed > 0 && process.stdin.isTTY !== true) throw new FatalError(`${failed} of the statements and commands failed (the errors above)`);
    } finally {
      session.close();
    }
  },
};

type Show = (result: DuckDBResult, out: ResultOutput) => Promise<void>;

/** Reads stdin to `.quit`, its end or stdout's reader gone; returns how many statements and commands failed. */
async function prompt(session: PipelineQuerySession, show: Show): Promise<number> {
  const terminal = process.stdin.isTTY === true;
  const lines = createInterface({ input: process.stdin, output: terminal ? process.stdout : undefined, terminal });
  const results = resultOutput(process.stdout);
  const out = (text: string): void => void process.stdout.write(text);
  let failed = 0;
  const fail = (message: string): void => {
    failed += 1;
    process.stderr.write(`Error: ${message}\n`);
  };
  const run = async (sql: string): Promise<void> => {
    if (holdsNoStatement(sql)) return;
    try {
      session.refuseWrites(sql);
      await streamStatements(session.connection, sql, (result) => show(result, results));
    } catch (err) {
      fail(sqlErrorText(err));
    }
  };
  let pending = '';
  const ask = (): void => {
    if (!terminal) return;
    lines.setPrompt(pending === '' ? PROMPT : CONTINUATION);
    lines.prompt();
  };
  // Ctrl-C drops the statement being typed, as in other SQL shells; Ctrl-D (end of input) ends.
  lines.on('SIGINT', () => {
    pending = '';
    out('\n');
    ask();
  });
  ask();
  for await (const line of lines) {
    if (!results.open) break;
    const command = line.trim();
    if (pending === '' && command.startsWith('.')) {
      if (command === '.quit' || command === '.exit') break;
      if (command === '.tables') await run(TABLES_SQL);
      else if (command === '.help') out(`${HELP}\n`);
      else fail(`unknown command ${command}: the commands are .tables, .help and .quit`);
    } else if (pending !== '' || command !== '') {
      pending = pending === '' ? line : `${pending}\n${line}`;
      if (command.endsWith(';')) {
        await run(pending);
        pending = '';
      }
    }
    if (!results.open) break;
    ask();
  }
  lines.close();
  // Input that ended without a final `;` still runs.
  if (pending.trim() !== '' && results.open) await run(pending);
  return failed;
}
