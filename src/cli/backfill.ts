import type { CommandModule } from 'yargs';
import { createLogger } from '../core/logger.js';
import { planBackfill } from '../run/plan.js';
import { openSession } from './session.js';
import { executeRun } from './execute-run.js';
import { reportRun } from './run-summary.js';
import { interruptSignal } from './signals.js';
import { checkRange, parseChainPoint } from './chain-point.js';
import { overridesOf, pipelineOptions, type PipelineArgs } from './pipeline-options.js';

interface BackfillArgs extends PipelineArgs {
  from: string;
  to?: string;
  strict: boolean;
}

export const backfillCommand: CommandModule<object, BackfillArgs> = {
  command: 'backfill <pipeline>',
  describe: 'fill a range of history; resumable: run the same command again after an interruption',
  builder: (y) =>
    pipelineOptions(y).options({
      from: { type: 'string', demandOption: true, describe: 'start: ISO date (2024-01-01), lt:<N> or mc:<seqno>' },
      to: { type: 'string', describe: 'end, exclusive, same forms as --from (default: the settled tip)' },
      strict: { type: 'boolean', default: false, describe: 'fail on the first item that fails validation instead of keeping it in _etl_rejects' },
    }) as never,
  handler: async (args) => {
    const from = parseChainPoint('--from', args.from);
    const to = args.to === undefined ? undefined : parseChainPoint('--to', args.to);
    checkRange(from, to);
    const logger = createLogger(args['log-level']);
    const interrupt = interruptSignal();
    const session = await openSession(args.pipeline, overridesOf(args), logger);
    try {
      const summary = await executeRun(session, 'backfill', (ctx) => planBackfill(session.streams, { from, to }, ctx), interrupt.signal, args.strict);
      reportRun(logger, 'backfill', summary);
    } finally {
      await session.close();
      interrupt.dispose();
    }
  },
};
