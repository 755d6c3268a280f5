/**
 * `chain-etl repair <pipeline>`: the way out of damaged Parquet files. Every file the manifest lists
 * that is missing, of the wrong size or not Parquet is moved to `_damaged/` (never deleted) and
 * dropped from the manifest, and the range it held leaves its stream's coverage; then every hole in
 * what the pipeline's streams cover is fetched again (a DuckDB warehouse has no files to set aside:
 * only the holes are filled).
 */
import type { CommandModule } from 'yargs';
import type { Logger } from 'pino';
import { createLogger } from '../core/logger.js';
import { decodeCheckpoint, encodeCheckpoint } from '../core/checkpoint/record.js';
import { maxBig, minBig, type Range } from '../core/checkpoint/coverage.js';
import { positionStreams, type Plan, type PlanContext, type PlannedStream } from '../run/plan.js';
import type { StreamJob } from '../run/runner.js';
import type { StreamDefinition } from '../core/stream.js';
import { StreamProgress } from '../core/checkpoint/stream-progress.js';
import type { ManifestFile, SetAsideFile } from '../load/parquet/manifest.js';
import { ParquetSink } from '../load/parquet/sink.js';
import type { Refetch } from '../load/parquet/set-aside.js';
import { DAMAGED_FOLDER } from '../load/parquet/layout.js';
import { streams } from '../streams/index.js';
import { openSession } from '../run/session.js';
import { executeRun } from '../run/execute-run.js';
import { commandHooks } from './run-hooks.js';
import { reportRun } from './run-summary.js';
import { whileInterruptible } from './signals.js';
import { overridesOf, pipelineOptions, type PipelineArgs } from './pipeline-options.js';
import { utcDaySeconds } from '../core/utc-day.js';

interface RepairArgs extends PipelineArgs {
  strict: boolean;
}

/** A file of some table, as the manifest lists it. */
type TableFile = ManifestFile & { readonly table: string };

export const repairCommand: CommandModule<object, RepairArgs> = {
  builder: (y) =>
    pipelineOptions(y).options({
      strict: { type: 'boolean', default: false, describe: 'fail on the first item that fails validation instead of keeping it in _etl_rejects' },
    }) as never,
  handler: async (args) => {
    const logger = createLogger(args['log-level']);
    await whileInterruptible(async (signal) => {
      const session = await openSession(args.pipeline, overridesOf(args), logger, { repair: true });
      try {
        const { sink } = session;
        if (sink instanceof ParquetSink) await setAsideDamaged(sink, session.streams, logger);
        const setAside = sink instanceof ParquetSink ? sink.setAsideFiles() : [];
        const summary = await executeRun(session, 'repair', (ctx) => planRepair(session.streams, setAside, ctx), signal, commandHooks(session), { strict: args.strict });
        reportRun(logger, 'repair', summary);
      } finally {
        await session.close();
      }
    });
  },
};

/**
 * Sets the damaged files aside, each stream's coverage less the positions they held (within what it
 * covered), and says so on stderr.
 */
async function setAsideDamaged(sink: ParquetSink, planned: readonly PlannedStream[], logger: Logger): Promise<void> {
  const damaged = sink.damagedFiles();
  if (damaged.length === 0) return;
  const stored = await sink.readCheckpoints();
  const updated = new Map<string, string>();
  const refetch = new Map<string, Refetch>();
  for (const file of damaged) {
    const held = heldRange(file);
    const storedText = held === undefined ? undefined : stored.get(held.stream.name);
    const original = storedText === undefined ? undefined : decodeCheckpoint(storedText);
    // A row of an earlier release records no ranges: everything up to its position was loaded.
    if (held !== undefined && original?.covered.ranges.length === 0) original.covered.add({ from: held.range.from, to: original.position });
    // An earlier damaged file of the same stream (another of its tables) may have emptied its coverage
    // already: what was covered is what the stored row says.
    const updatedText = held === undefined ? undefined : updated.get(held.stream.name);
    const record = updatedText === undefined ? original : decodeCheckpoint(updatedText);
    const first = original?.covered.ranges[0];
    let lost: Range | undefined;
    if (held !== undefined && record !== undefined && first !== undefined) {
      // A day's range may reach beyond what the stream ever covered: only covered positions become a hole.
      lost = { from: maxBig(held.range.from, first.from), to: minBig(held.range.to, record.position) };
      record.covered.remove(lost);
      updated.set(held.stream.name, encodeCheckpoint(record));
      refetch.set(file.path, { stream: held.stream.name, from: lost.from.toString(), to: lost.to.toString() });
    }
    logger.warn(
      { file: file.path, problem: file.problem, movedTo: `${DAMAGED_FOLDER}/${file.path}` },
      lost === undefined
        ? `damaged file set aside; table ${file.table} has no stream range to fetch again, its rows return only as pages name them again`
        : planned.some((entry) => entry.stream === held!.stream)
          ? `damaged file set aside; ${held!.stream.name} ${held!.stream.axis} ${lost.from}..${lost.to} is fetched again`
          : `damaged file set aside; ${held!.stream.name} ${held!.stream.axis} ${lost.from}..${lost.to} is a hole now: run chain-etl repair with a pipeline that has ${held!.stream.name}`,
    );
  }
  await sink.setAsideDamaged(updated, refetch);
}

/**
 * The positions of the stream whose rows a file held: its clusterBy range on the lt axis (every
 * stream's clusterBy column is its lt position), its partition day on the utime axis. Undefined for
 * tables no stream pages (addresses, bookkeeping) or a file without either.
 */
export function heldRange(file: TableFile): { stream: StreamDefinition; range: Range } | undefined {
  const stream = streams.find((candidate) => candidate.tables.some((table) => table.name === file.table));
  if (stream === undefined) return undefined;
  if (stream.axis === 'lt' && file.clusterMin !== undefined && file.clusterMax !== undefined) {
    return { stream, range: { from: BigInt(file.clusterMin), to: BigInt(file.clusterMax) } };
  }
  if (stream.axis === 'utime' && file.date !== undefined) {
    const day = utcDaySeconds(file.date);
    return { stream, range: { from: BigInt(day.from), to: BigInt(day.to) } };
  }
  return undefined;
}

/**
 * Every hole of each stream up to its checkpoint: between its covered ranges, and below them down to
 * the lowest range a set-aside file left to fetch (a hole at the start of the coverage leaves no gap).
 */
export async function planRepair(planned: readonly PlannedStream[], setAside: readonly SetAsideFile[], ctx: PlanContext): Promise<Plan> {
  const jobs: StreamJob[] = [];
  const progress: StreamProgress[] = [];
  // A snapshot stream has no ranges: its next snapshot reads its whole scope again.
  for (const entry of positionStreams(planned)) {
    const { stream } = entry;
    const stored = ctx.stored.get(stream.name);
    if (stored === undefined) continue;
    const record = new StreamProgress(stream.name, ctx.scopeOf(entry), stored.record, stored.text);
    progress.push(record);
    let begin = stored.record.covered.ranges[0]?.from;
    for (const file of setAside) {
      if (file.refetch?.stream === stream.name) begin = minBig(begin ?? BigInt(file.refetch.from), BigInt(file.refetch.from));
    }
    if (begin === undefined) continue;
    for (const gap of record.gapsIn({ from: begin, to: stored.record.position })) {
      jobs.push({ stream, filters: entry.filters, progress: record, from: gap.from, to: gap.to });
    }
  }
  return { jobs, progress };
}
