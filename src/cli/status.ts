import type { CommandModule } from 'yargs';
import { createLogger } from '../core/logger.js';
import { decodeCheckpoint } from '../core/checkpoint.js';
import { tipPosition } from '../core/plan.js';
import { warehouseReader } from '../load/open-sink.js';
import { openSession, warehouseTables } from './session.js';
import { overridesOf, pipelineOptions, type PipelineArgs } from './pipeline-options.js';
import type { Landmark } from '../extract/landmarks.js';
import { activeRedactor } from '../api/secret-scope.js';

interface StatusArgs extends PipelineArgs {
  json: boolean;
}

export const statusCommand: CommandModule<object, StatusArgs> = {
  command: 'status <pipeline>',
  describe: 'checkpoints, distance to the tip, rows per table, rejects and the last runs',
  builder: (y) => pipelineOptions(y).options({ json: { type: 'boolean', default: false, describe: 'print one JSON object instead of text' } }) as never,
  handler: async (args) => {
    const logger = createLogger(args['log-level']);
    const session = await openSession(args.pipeline, overridesOf(args), logger);
    try {
      let tip: Landmark | undefined;
      let tipError: string | undefined;
      try {
        tip = await session.landmarks.settledTip(session.pipeline.lag.mcBlocks);
      } catch (error) {
        tipError = error instanceof Error ? error.message : String(error);
      }
      const streams = [];
      for (const { stream } of session.streams) {
        const stored = await session.sink.readCheckpoint(stream.name);
        const checkpoint = stored === undefined ? undefined : decodeCheckpoint(stored).position;
        const behind = checkpoint === undefined || tip === undefined ? undefined : tipPosition(tip, stream.axis) - checkpoint;
        streams.push({ stream: stream.name, axis: stream.axis, checkpoint: checkpoint?.toString() ?? null, behind: behind?.toString() ?? null });
      }
      const reader = await warehouseReader(session.sink);
      const count = async (sql: string): Promise<number> => Number((await reader.runAndReadAll(sql)).getRows()[0]?.[0] ?? 0);
      const tables: Record<string, number> = {};
      for (const table of warehouseTables(session.streams)) tables[table.name] = await count(`SELECT count(*) FROM "${table.name}"`);
      const rejects = await count('SELECT count(*) FROM "_etl_rejects"');
      const runs = (await reader.runAndReadAll('SELECT command, status, started_at::VARCHAR AS started_at, ended_at::VARCHAR AS ended_at, rows, error FROM "_etl_runs" ORDER BY started_at DESC LIMIT 5'))
        .getRowObjectsJson();
      const report = { pipeline: session.pipeline.file, sink: session.pipeline.sink, tip: tip === undefined ? { error: tipError } : { seqno: tip.seqno, end_lt: tip.endLt.toString(), utime: tip.utime }, streams, tables, rejects, runs };
      // Also redacts run errors that an earlier release stored unredacted.
      process.stdout.write(activeRedactor().redact(args.json ? `${JSON.stringify(report)}\n` : formatStatus(report)));
    } finally {
      await session.close();
    }
  },
};

function formatStatus(report: {
  pipeline: string;
  sink: { kind: string; path: string };
  tip: Record<string, unknown>;
  streams: { stream: string; axis: string; checkpoint: string | null; behind: string | null }[];
  tables: Record<string, number>;
  rejects: number;
  runs: Record<string, unknown>[];
}): string {
  const lines = [`pipeline ${report.pipeline} → ${report.sink.kind} ${report.sink.path}`];
  lines.push(report.tip.error === undefined ? `settled tip: masterchain ${report.tip.seqno}, lt ${report.tip.end_lt}` : `settled tip: unavailable (${String(report.tip.error)})`);
  lines.push('', 'stream             checkpoint            behind the tip');
  for (const s of report.streams) lines.push(`${s.stream.padEnd(18)} ${(s.checkpoint ?? 'none').padEnd(21)} ${s.behind === null ? '?' : `${s.behind} ${s.axis === 'lt' ? 'lt' : 's'}`}`);
  lines.push('', 'table              rows');
  for (const [name, rows] of Object.entries(report.tables)) lines.push(`${name.padEnd(18)} ${rows}`);
  lines.push(`${'_etl_rejects'.padEnd(18)} ${report.rejects}`, '', 'last runs');
  for (const run of report.runs) lines.push(`  ${String(run.started_at)}  ${String(run.command).padEnd(8)} ${String(run.status).padEnd(11)} rows ${String(run.rows)}${run.error ? `  error: ${String(run.error)}` : ''}`);
  return lines.join('\n') + '\n';
}
