/**
 * `chain-etl compact <pipeline>`: merges the Parquet files of each settled day (every day of a table
 * but its newest, which syncs still append to) into one file per table and day, through the manifest:
 * one commit per table, so a killed compaction leaves the warehouse as it was or with some tables
 * merged, and the next one finishes. It needs no API key and takes the writer lock like a sync.
 * `compactIfDue` is what a sync or backfill does on its own past `sink.compact_after_files`.
 */
import { existsSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import type { Logger } from 'pino';
import { loadPipeline } from '../config/index.js';
import { ConfigError } from '../core/errors.js';
import { createLogger } from '../core/logger.js';
import type { FileMerge } from '../load/parquet/compaction.js';
import { ParquetSink } from '../load/parquet/sink.js';
import { openSinkForWriting, type SinkSettings } from '../load/open-sink.js';
import type { Sink } from '../load/sink.js';
import { plannedStreams, warehouseTables } from '../run/session.js';
import { overridesOf, pipelineOptions, type PipelineArgs } from './pipeline-options.js';

interface CompactArgs extends PipelineArgs {
  'all-days': boolean;
}

export const compactCommand: CommandModule<object, CompactArgs> = {
  builder: (y) =>
    pipelineOptions(y).options({
      'all-days': {
        type: 'boolean',
        default: false,
        describe: "merge each table's newest day too (a chain that stopped, a finished backfill); syncs append to it again",
      },
    }) as never,
  handler: async (args) => {
    const logger = createLogger(args['log-level']);
    const pipeline = loadPipeline(args.pipeline, overridesOf(args), process.env, { requireApiKey: false });
    const { kind, path } = pipeline.sink;
    if (kind !== 'parquet') {
      throw new ConfigError(`compact merges the files of a Parquet warehouse; ${path} is a DuckDB warehouse, which has none: nothing to do`);
    }
    if (!existsSync(path)) throw new ConfigError(`no warehouse at ${path}: check sink.path (or --out); compact creates nothing`);
    const sink = await openSinkForWriting(pipeline.sink, warehouseTables(plannedStreams(pipeline)), { logger });
    try {
      const merges = await (sink as ParquetSink).compact({ newestDay: args['all-days'] });
      reportCompaction(logger, merges, process.stderr.isTTY ? process.stderr : undefined);
    } finally {
      await sink.close();
    }
  },
};

/** After a sync or backfill: merges the settled days of a Parquet warehouse that hold more than `compactAfterFiles` files of a table. */
export async function compactIfDue(sink: Sink, settings: SinkSettings, logger: Logger): Promise<void> {
  if (!(sink instanceof ParquetSink) || settings.compactAfterFiles === 0) return;
  const merges = await sink.compact({ maxFiles: settings.compactAfterFiles });
  if (merges.length > 0) logger.info(compactionFacts(merges), 'compacted settled days');
}

function compactionFacts(merges: readonly FileMerge[]): { days: number; files: number; tables: string[] } {
  return { days: merges.length, files: merges.reduce((sum, merge) => sum + merge.files.length, 0), tables: [...new Set(merges.map((merge) => merge.table.name))] };
}

/** A JSON line at info and, on a terminal, one human line. */
function reportCompaction(logger: Logger, merges: readonly FileMerge[], tty: NodeJS.WritableStream | undefined): void {
  const facts = compactionFacts(merges);
  logger.info(facts, 'compact done');
  tty?.write(
    merges.length === 0
      ? 'compact: nothing to merge: every settled day holds one file per table\n'
      : `compact: merged ${facts.files} files into ${facts.days}, one per table and settled day (${facts.tables.join(', ')})\n`,
  );
}
