/**
 * `chain-etl report <pipeline> --html out.html`: one self-contained page of what the warehouse holds
 * and how its runs went (every table: rows per UTC day, per snapshot, or in all; distance to the tip
 * and throughput over the recent runs; rejects). Reads like `query`: read-only, no API key, no lock a
 * sync waits for.
 */
import type { CommandModule } from 'yargs';
import { writeFileDurably } from '../load/durable-fs.js';
import { readReport } from '../report/read-report.js';
import { reportHtml } from '../report/html.js';
import { openPipelineQuerySession, readerPipeline } from './query-session.js';
import { plannedStreams, warehouseTables } from '../run/session.js';
import { pipelineOptions, type PipelineArgs } from './pipeline-options.js';

interface ReportArgs extends PipelineArgs {
  html: string;
  runs: number;
}

export const reportCommand: CommandModule<object, ReportArgs> = {
  builder: (y) =>
    pipelineOptions(y).options({
      html: { type: 'string', demandOption: true, describe: 'the HTML file to write, e.g. report.html' },
      runs: { type: 'number', default: 50, describe: 'how many recent runs to show' },
    }) as never,
  handler: async (args) => {
    const pipeline = readerPipeline(args);
    const session = await openPipelineQuerySession(pipeline, 'report');
    let html: string;
    try {
      const read = await readReport(async (sql) => (await session.connection.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[], warehouseTables(plannedStreams(pipeline)), args.runs);
      html = reportHtml({ pipeline: pipeline.file, sink: pipeline.sink, generatedAt: new Date().toISOString(), ...read });
    } finally {
      session.close();
    }
    // Written whole or not at all: a reader never opens half a page.
    await writeFileDurably(args.html, html);
  },
};
