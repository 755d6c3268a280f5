/**
 * `chain-etl verify <pipeline> [--json]`: checks the stored chain against the chain's own facts
 * inside what each stream covers (src/verify/), reading only, with no API key. Exit 0 when
 * consistent; otherwise each inconsistency on a line with the backfill that mends it, and exit 1.
 */
import type { CommandModule } from 'yargs';
import { FatalError } from '../core/errors.js';
import { withReadOnlyWarehouse } from '../load/read-only-warehouse.js';
import { LISTED_PER_CHECK, type Inconsistency } from '../verify/stored-checks.js';
import { verifyWarehouse, type VerifyReport } from '../verify/verify-warehouse.js';
import { pipelineOptions, type PipelineArgs } from './pipeline-options.js';
import { readerPipeline } from './query-session.js';
import { plannedStreams, warehouseTables } from './session.js';

interface VerifyArgs extends PipelineArgs {
  json: boolean;
}

export const verifyCommand: CommandModule<object, VerifyArgs> = {
  builder: (y) =>
    pipelineOptions(y).options({
      json: { type: 'boolean', default: false, describe: 'print one JSON document: {consistent, checks: [{check, table, checked, found}], inconsistencies: [{check, table, detail, mend}]}' },
    }) as never,
  handler: async (args) => {
    const pipeline = readerPipeline(args);
    const streams = plannedStreams(pipeline);
    const { kind, path } = pipeline.sink;
    const report = await withReadOnlyWarehouse(kind, path, warehouseTables(streams), 'verify', (warehouse) => verifyWarehouse(warehouse, streams));
    const mend = (found: Inconsistency): string | null => (found.refetch === undefined ? null : mendCommand(args.pipeline, found.refetch));
    if (args.json) process.stdout.write(`${JSON.stringify(jsonReport(report, mend))}\n`);
    else process.stdout.write(textReport(report, path, mend));
    if (!report.consistent) {
      const found = report.checks.reduce((sum, check) => sum + check.found.length, 0);
      throw new FatalError(`verify found ${found} inconsistenc${found === 1 ? 'y' : 'ies'} in ${path} (listed above)`);
    }
  },
};

/** The backfill that reads the range again: `--to` is exclusive. */
function mendCommand(pipeline: string, range: NonNullable<Inconsistency['refetch']>): string {
  const point = (value: bigint): string => (range.axis === 'lt' ? `lt:${value}` : new Date(Number(value) * 1000).toISOString());
  return `chain-etl backfill ${pipeline} --refetch --from ${point(range.from)} --to ${point(range.to + 1n)}`;
}

function textReport(report: VerifyReport, path: string, mend: (found: Inconsistency) => string | null): string {
  const summary = report.checks.map((check) => `${check.check} of ${check.table} ${check.checked}`).join(', ');
  if (report.consistent) return `consistent: ${path} (checked: ${summary})\n`;
  const lines = report.checks.flatMap((check) =>
    check.found.map((found) => {
      const fix = mend(found);
      return `${found.check}, ${found.table}: ${found.detail}${fix === null ? '' : `; mend: ${fix}`}`;
    }).concat(check.found.length === LISTED_PER_CHECK ? [`${check.check}: the first ${LISTED_PER_CHECK} are listed; mend them and run verify again`] : []),
  );
  return `${lines.join('\n')}\n`;
}

function jsonReport(report: VerifyReport, mend: (found: Inconsistency) => string | null): unknown {
  return {
    consistent: report.consistent,
    checks: report.checks.map((check) => ({ check: check.check, table: check.table, checked: check.checked, found: check.found.length })),
    inconsistencies: report.checks.flatMap((check) => check.found.map((found) => ({ check: found.check, table: found.table, detail: found.detail, mend: mend(found) }))),
  };
}
