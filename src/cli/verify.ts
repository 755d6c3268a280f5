/**
 * `chain-etl verify <pipeline> [--json]`: checks the stored chain against the chain's own facts
 * inside what each stream covers (src/verify/), reading only, with no API key. Exit 0 when
 * consistent; otherwise each inconsistency on a line with the backfill that mends it, and exit 1.
 */
import type { CommandModule } from 'yargs';
import { FatalError } from '../core/errors.js';
import { withReadOnlyWarehouse } from '../load/read-only-warehouse.js';
import { verifyWarehouse, type CheckRun, type VerifyReport } from '../verify/verify-warehouse.js';
import { inconsistencyCount, inconsistencyLines, mendCommand } from './inconsistency-lines.js';
import { pipelineOptions, type PipelineArgs } from './pipeline-options.js';
import { readerPipeline } from './query-session.js';
import { plannedStreams, warehouseTables } from './session.js';

interface VerifyArgs extends PipelineArgs {
  json: boolean;
}

export const verifyCommand: CommandModule<object, VerifyArgs> = {
  builder: (y) =>
    pipelineOptions(y).options({
      json: { type: 'boolean', default: false, describe: 'print one JSON document: {consistent, checks: [{check, table, checked, found, rejected}], inconsistencies: [{check, table, detail, mend}]}' },
    }) as never,
  handler: async (args) => {
    const pipeline = readerPipeline(args);
    const streams = plannedStreams(pipeline);
    const { kind, path } = pipeline.sink;
    const report = await withReadOnlyWarehouse(kind, path, warehouseTables(streams), 'verify', (warehouse) => verifyWarehouse(warehouse, streams));
    if (args.json) process.stdout.write(`${JSON.stringify(jsonReport(report, args.pipeline))}\n`);
    else process.stdout.write(report.consistent ? `consistent: ${path} (checked: ${checkedSummary(report)})\n` : `${inconsistencyLines(report, args.pipeline).join('\n')}\n`);
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

function jsonReport(report: VerifyReport, pipeline: string): unknown {
  return {
    consistent: report.consistent,
    checks: report.checks.map((check) => ({ check: check.check, table: check.table, checked: check.checked, found: check.found.length, rejected: check.rejected })),
    inconsistencies: report.checks.flatMap((check) => check.found.map((found) => ({ check: found.check, table: found.table, detail: found.detail, mend: mendCommand(pipeline, found) }))),
  };
}
