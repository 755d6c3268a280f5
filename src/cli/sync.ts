import type { CommandModule } from 'yargs';
import { createLogger } from '../core/logger.js';
import { planSync, type Plan, type PlanContext } from '../run/plan.js';
import { printDryRun } from './dry-run.js';
import { ConfigError } from '../core/errors.js';
import { openSession } from '../run/session.js';
import { executeRun } from '../run/execute-run.js';
import { commandHooks } from './run-hooks.js';
import { reportRun } from './run-summary.js';
import { follow } from './follow.js';
import { compactIfDue } from './compact.js';
import { whileInterruptible } from './signals.js';
import { overridesOf, pipelineOptions, type PipelineArgs } from './pipeline-options.js';

interface SyncArgs extends PipelineArgs {
  'accept-inconsistent': boolean;
  'dry-run': boolean;
  follow: boolean;
  interval: number;
  strict: boolean;
}

export const syncCommand: CommandModule<object, SyncArgs> = {
  builder: (y) =>
    pipelineOptions(y).options({
      follow: {
        type: 'boolean',
        default: false,
        describe: 'after reaching the tip, wait and sync again until SIGINT/SIGTERM; a failed run is logged and retried with backoff (up to 5 min)',
      },
      interval: { type: 'number', default: 5, describe: 'seconds between syncs with --follow' },
      strict: { type: 'boolean', default: false, describe: 'fail on the first item that fails validation instead of keeping it in _etl_rejects' },
      'accept-inconsistent': {
        type: 'boolean',
        default: false,
        describe: 'keep going past rows the chain contradicts that no mend fixes (the service keeps serving them so): each is logged at warn and marked checked',
      },
      'dry-run': { type: 'boolean', default: false, describe: 'print per stream the range, and the requests and time it would take (one probe page each); write nothing' },
    }) as never,
  handler: async (args) => {
    if (args['dry-run'] && args.follow) throw new ConfigError('--dry-run plans one run: leave out --follow');
    const logger = createLogger(args['log-level']);
    await whileInterruptible(async (signal) => {
      const plan = (ctx: PlanContext): Promise<Plan> => planSync(session.pipeline, session.streams, ctx);
      const session = await openSession(args.pipeline, overridesOf(args), logger, { signal, openWarehouse: !args.follow && !args['dry-run'], tipFirst: true });
      if (args['dry-run']) return printDryRun(session, 'sync', plan, signal);
      const sync = async (): Promise<void> => {
        const summary = await executeRun(session, 'sync', plan, signal, commandHooks(session, { acceptInconsistent: args['accept-inconsistent'] }), { strict: args.strict });
        await compactIfDue(session.sink, session.pipeline.sink, logger);
        reportRun(logger, 'sync', summary);
      };
      try {
        if (args.follow) await follow(session, sync, { intervalSeconds: args.interval, signal, logger });
        else await sync();
      } finally {
        await session.close();
      }
    });
  },
};
