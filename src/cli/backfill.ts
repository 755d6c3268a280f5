import type { CommandModule } from 'yargs';
import { createLogger } from '../core/logger.js';
import { planBackfill, type Plan, type PlanContext } from '../run/plan.js';
import { printDryRun } from './dry-run.js';
import { openSession } from '../run/session.js';
import { executeRun } from '../run/execute-run.js';
import { commandHooks } from './run-hooks.js';
import { compactIfDue } from './compact.js';
import { reportRun } from './run-summary.js';
import { whileInterruptible } from './signals.js';
import { checkRange, parseChainPoint } from './chain-point.js';
import { overridesOf, pipelineOptions, type PipelineArgs } from './pipeline-options.js';

interface BackfillArgs extends PipelineArgs {
  'accept-inconsistent': boolean;
  from: string;
  to?: string;
  strict: boolean;
  'dry-run': boolean;
  refetch: boolean;
}

export const backfillCommand: CommandModule<object, BackfillArgs> = {
  builder: (y) =>
    pipelineOptions(y).options({
      from: { type: 'string', demandOption: true, describe: 'start: ISO date (2024-01-01), lt:<N> or mc:<seqno>' },
      to: { type: 'string', describe: 'end, exclusive, same forms as --from (default: the settled tip)' },
      strict: { type: 'boolean', default: false, describe: 'fail on the first item that fails validation instead of keeping it in _etl_rejects' },
      'accept-inconsistent': {
        type: 'boolean',
        default: false,
        describe: 'keep going past rows the chain contradicts that no mend fixes (the service keeps serving them so): each is logged at warn and marked checked',
      },
      'dry-run': { type: 'boolean', default: false, describe: 'print per stream the range, and the requests and time it would take (one probe page each); write nothing' },
      refetch: { type: 'boolean', default: false, describe: 'read the whole range again, also what is covered, replacing its rows (what verify names to mend)' },
    }) as never,
  handler: async (args) => {
    const from = parseChainPoint('--from', args.from);
    const to = args.to === undefined ? undefined : parseChainPoint('--to', args.to);
    checkRange(from, to);
    const logger = createLogger(args['log-level']);
    await whileInterruptible(async (signal) => {
      const plan = (ctx: PlanContext): Promise<Plan> => planBackfill(session.streams, { from, to, refetch: args.refetch }, ctx);
      const session = await openSession(args.pipeline, overridesOf(args), logger, { signal, openWarehouse: !args['dry-run'], tipFirst: true });
      if (args['dry-run']) return printDryRun(session, 'backfill', plan, signal);
      try {
        const summary = await executeRun(session, 'backfill', plan, signal, commandHooks(session, { acceptInconsistent: args['accept-inconsistent'] }), { strict: args.strict });
        await compactIfDue(session.sink, session.pipeline.sink, logger);
        reportRun(logger, 'backfill', summary);
      } finally {
        await session.close();
      }
    });
  },
};
