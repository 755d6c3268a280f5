import type { Argv } from 'yargs';
import type { LevelWithSilent } from 'pino';
import { LOG_LEVELS } from '../core/logger.js';
import type { PipelineOverrides } from '../config/index.js';

export interface PipelineArgs {
  pipeline: string;
  'base-url'?: string;
  sink?: 'duckdb' | 'parquet';
  out?: string;
  'log-level': LevelWithSilent;
}

/** The pipeline file argument and the flags that override it, shared by sync, backfill and status. */
export function pipelineOptions<T>(y: Argv<T>): Argv<T & PipelineArgs> {
  return y
    .positional('pipeline', { type: 'string', demandOption: true, describe: 'pipeline file (YAML), e.g. pipelines/demo.yaml' })
    .options({
      'base-url': { type: 'string', describe: 'service root replacing base_url, e.g. http://127.0.0.1:8081' },
      sink: { choices: ['duckdb', 'parquet'] as const, describe: 'sink kind replacing sink.kind' },
      out: { type: 'string', describe: 'sink path replacing sink.path (DuckDB file or Parquet folder)' },
      'log-level': {
        choices: LOG_LEVELS,
        default: 'warn' as LevelWithSilent,
        describe: 'JSON log lines on stderr at or above this level; the default prints nothing on a successful run without a terminal (cron mails only failures), info adds progress and a summary line',
      },
    }) as Argv<T & PipelineArgs>;
}

export function overridesOf(args: PipelineArgs): PipelineOverrides {
  return { baseUrl: args['base-url'], sink: args.sink, out: args.out };
}
