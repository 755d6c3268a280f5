/**
 * `chain-etl migrate <pipeline>`: brings the pipeline's warehouse to this release's schema version in
 * place, without fetching anything, and does nothing else. A sync or backfill does the same first on
 * its own; this is for operators who want the change made (and timed) apart from a run.
 */
import type { CommandModule } from 'yargs';
import { existsSync } from 'node:fs';
import { loadPipeline } from '../config/index.js';
import { SCHEMA_VERSION } from '../core/bookkeeping.js';
import { ConfigError } from '../core/errors.js';
import { migrateWarehouse } from '../load/migrate.js';
import { openSinkForWriting } from '../load/open-sink.js';
import { createLogger } from '../core/logger.js';
import { plannedStreams, warehouseTables } from '../run/session.js';
import { overridesOf, pipelineOptions, type PipelineArgs } from './pipeline-options.js';

export const migrateCommand: CommandModule<object, PipelineArgs> = {
  builder: (y) => pipelineOptions(y) as never,
  handler: async (args) => {
    const pipeline = loadPipeline(args.pipeline, overridesOf(args), process.env, { requireApiKey: false });
    const { kind, path } = pipeline.sink;
    if (!existsSync(path)) throw new ConfigError(`no warehouse at ${path}: nothing to migrate; check sink.path (or --out)`);
    const logger = createLogger(args['log-level']);
    const migration = await migrateWarehouse(kind, path);
    // Opening a Parquet warehouse for writing rewrites the files an earlier release wrote with unsigned types, the tables the rename left alone included.
    if (kind === 'parquet') await (await openSinkForWriting(pipeline.sink, warehouseTables(plannedStreams(pipeline)), { logger })).close();
    process.stdout.write(
      migration === undefined
        ? `${path} is at schema version ${SCHEMA_VERSION}: nothing to migrate\n`
        : `migrated ${path} from schema version ${migration.from} to ${migration.to} in ${migration.seconds.toFixed(1)} s: ${migration.tables.join(', ') || 'no table needed writing again'}\n`,
    );
  },
};
