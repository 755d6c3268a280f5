/**
 * `chain-etl verify <pipeline> [--json] [--offline]`: checks the stored chain against the chain's own
 * facts inside what each stream covers (src/verify/), reading only, with no API key, and the
 * checkpoints against the newest block the service indexes (asked as status asks; `--offline`, or a
 * service that does not answer, leaves that check out and says so). Exit 0 when consistent;
 * otherwise each inconsistency on a line with the backfill that mends it, and exit 1.
 */
import type { CommandModule } from 'yargs';
import { FatalError } from '../core/errors.js';
import { createLogger } from '../core/logger.js';
import { utcTime } from '../core/utc-time.js';
import type { Landmark } from '../extract/landmarks.js';
import { withReadOnlyWarehouse } from '../load/read-only-warehouse.js';
import { verifyWarehouse, type CheckRun, type VerifyReport } from '../verify/verify-warehouse.js';
import { askTip } from './asked-tip.js';
import { inconsistencyCount, inconsistencyLines, mendCommand } from './inconsistency-lines.js';
import { pipelineOptions, type PipelineArgs } from './pipeline-options.js';
import { readerPipeline } from './query-session.js';
import { plannedStreams, warehouseTables } from './session.js';

interface VerifyArgs extends PipelineArgs {
  json: boolean;
  offline: boolean;
}

export const verifyCommand: CommandModule<object, VerifyArgs> = {
  builder: (y) =>
    pipelineOptions(y).options({
      json: {
        type: 'boolean',
        default: false,
        describe: 'print one JSON document: {consistent, head, head_unknown_because, checks: [{check, table, checked, found, rejected}], inconsistencies: [{check, table, detail, mend}]}',
      },
      offline: { type: 'boolean', default: false, describe: 'do not ask the API for its newest block: leave the checkpoints unchecked against it' },
    }) as never,
  handler: async (args) => {
    const pipeline = readerPipeline(args);
    const streams = plannedStreams(pipeline);
    const { kind, path } = pipeline.sink;
    const asked = args.offline ? undefined : await askTip(pipeline, createLogger(args['log-level']));
    const head = asked?.tip === undefined ? undefined : (asked.head ?? asked.tip);
    const unchecked = asked === undefined ? 'offline' : asked.tip === undefined ? asked.unknownBecause : undefined;
    const report = await withReadOnlyWarehouse(kind, path, warehouseTables(streams), 'verify', (warehouse) => verifyWarehouse(warehouse, streams, head === undefined ? {} : { head }));
    if (args.json) process.stdout.write(`${JSON.stringify(jsonReport(report, args.pipeline, head, unchecked))}\n`);
    else {
      const note = unchecked === undefined ? '' : `not checked: the checkpoints against the newest block the service indexes (${unchecked})\n`;
      process.stdout.write(report.consistent ? `consistent: ${path} (checked: ${checkedSummary(report)})\n${note}` : `${inconsistencyLines(report, args.pipeline).join('\n')}\n${note}`);
    }
    if (!report.consistent) {
      const found = inconsistencyCount(report);
      throw new FatalError(`verify found ${found} inconsistenc${found === 1 ? 'y' : 'ies'} in ${path} (listed above)`);
    }
  },
};

function checkedSummary(report: VerifyReport): string {
  const rejected = (check: CheckRun): string => (check.rejected === 0 ? '' : ` (${check.rejected} lacking only items kept in _etl_rejects)`);
  return report.checks.map((check) => `${check.check} of ${check.table} ${check.checked}${rejected(check)}`).join(', ');
}

function jsonReport(report: VerifyReport, pipeline: string, head: Landmark | undefined, unchecked: string | undefined): unknown {
  return {
    consistent: report.consistent,
    head: head === undefined ? null : { seqno: head.seqno, end_lt: String(head.endLt), time: utcTime(head.utime) },
    head_unknown_because: unchecked ?? null,
    checks: report.checks.map((check) => ({ check: check.check, table: check.table, checked: check.checked, found: check.found.length, rejected: check.rejected })),
    inconsistencies: report.checks.flatMap((check) => check.found.map((found) => ({ check: found.check, table: found.table, detail: found.detail, mend: mendCommand(pipeline, found) }))),
  };
}
