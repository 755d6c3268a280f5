/**
 * `chain-etl verify <pipeline> [--from …] [--to …] [--json] [--offline]`: checks the stored chain
 * against the chain's own facts inside what each stream covers (src/verify/; with --from/--to, the
 * rows of that lt range), reading only, with no API key, and the
 * checkpoints against the newest block the service indexes (asked as status asks; `--offline`, or a
 * service that does not answer, leaves that check out and says so). A pipeline of transactions
 * without blocks has the headers of their blocks fetched (block-headers.ts). Exit 0 when consistent;
 * otherwise each inconsistency on a line with the backfill that mends it, and exit 1.
 */
import type { CommandModule } from 'yargs';
import { ConfigError, FatalError } from '../core/errors.js';
import { createLogger } from '../core/logger.js';
import { utcTime } from '../core/utc-time.js';
import { logicalTime } from '../core/column-kinds.js';
import { activeRedactor } from '../core/secret-scope.js';
import type { Landmark } from '../extract/landmarks.js';
import { withReadOnlyWarehouse } from '../load/read-only-warehouse.js';
import { againstHead, blockHeadersWanted, verifyWarehouse, type CheckRun, type VerifyReport } from '../verify/verify-warehouse.js';
import type { Logger } from 'pino';
import type { Pipeline } from '../config/index.js';
import { transactionsStream } from '../streams/transactions.js';
import { fetchBlockHeaders, headerSpan, type FetchedBlockHeaders } from './block-headers.js';
import { interruptSignal } from './signals.js';
import { positionOf, type ChainPoint, type PlannedStream } from '../run/plan.js';
import { CHAIN_BUDGET_MS, askTip, type AskedTip } from './asked-tip.js';
import { checkRange, parseChainPoint } from './chain-point.js';
import { holeLine, inconsistencyCount, inconsistencyLines, mendCommand } from './inconsistency-lines.js';
import { pipelineOptions, type PipelineArgs } from './pipeline-options.js';
import { readerPipeline } from './query-session.js';
import { plannedStreams, warehouseTables } from '../run/session.js';

/** The lts `--from`/`--to` name, inclusive. */
type LtWindow = { readonly min: bigint; readonly max: bigint };

interface VerifyArgs extends PipelineArgs {
  json: boolean;
  offline: boolean;
  from?: string;
  to?: string;
}

export const verifyCommand: CommandModule<object, VerifyArgs> = {
  builder: (y) =>
    pipelineOptions(y).options({
      json: {
        type: 'boolean',
        default: false,
        describe: 'print one JSON document: {consistent, head, head_unknown_because, block_headers, block_headers_unfetched_because, checks: [{check, table, checked, found, rejected}], inconsistencies: [{check, table, detail, mend}], holes: [{stream, axis, from, to, line}]}',
      },
      offline: { type: 'boolean', default: false, describe: 'do not ask the API for its newest block: leave the checkpoints unchecked against it' },
      from: { type: 'string', describe: 'check only the rows from here: ISO date (2024-01-01), lt:<N> or mc:<seqno> (dates and seqnos are placed by the service)' },
      to: { type: 'string', describe: 'and before here (exclusive), same forms as --from' },
    }) as never,
  handler: async (args) => {
    const pipeline = readerPipeline(args);
    const streams = plannedStreams(pipeline);
    const { kind, path } = pipeline.sink;
    const logger = createLogger(args['log-level']);
    const asked = args.offline ? undefined : await askTip(pipeline, logger);
    const head = asked?.tip === undefined ? undefined : (asked.head ?? asked.tip);
    const unchecked = asked === undefined ? 'offline' : asked.tip === undefined ? asked.unknownBecause : undefined;
    const window = await ltWindow(args, asked);
    // The range is logical time: tables clustered by another column (an election's id) are checked whole.
    const byLt = warehouseTables(streams).filter((table) => table.clusterBy !== undefined && table.columns[table.clusterBy]!.kind === logicalTime.kind);
    const only = window === undefined ? {} : { only: new Map(byLt.map((table) => [table.name, window])) };
    const headers = await wantedHeaders(pipeline, streams, asked, window, logger);
    const fetchedBlocks = typeof headers === 'object' ? { fetchedBlocks: headers } : {};
    const read = await withReadOnlyWarehouse(kind, path, warehouseTables(streams), 'verify', async (warehouse) => ({
      report: await verifyWarehouse(warehouse, streams, { ...only, ...(head === undefined ? {} : { head }), ...fetchedBlocks }),
      checkpoints: warehouse.checkpoints,
    })).finally(() => (typeof headers === 'object' ? headers.dispose() : undefined));
    const report = head === undefined ? read.report : await againstNewerHead(read.report, read.checkpoints, head, () => askTip(pipeline, logger), streams);
    const fetched = typeof headers === 'object' ? headers : undefined;
    const unfetched = typeof headers === 'string' ? headers : undefined;
    if (args.json) process.stdout.write(activeRedactor().redact(`${JSON.stringify(jsonReport(report, args.pipeline, head, unchecked, fetched, unfetched))}\n`));
    else {
      const holes = report.holes.map((hole) => `${holeLine(args.pipeline, hole)}\n`).join('');
      const notChecked = [
        ...(unchecked === undefined ? [] : [`not checked: the checkpoints against the newest block the service indexes (${unchecked})`]),
        ...(unfetched === undefined ? [] : [`not checked: the blocks' transaction counts: the pipeline stores no blocks, and their headers come from the service (${unfetched})`]),
      ];
      const note = `${holes}${notChecked.map((line) => `${line}\n`).join('')}`;
      process.stdout.write(activeRedactor().redact(report.consistent ? `consistent: ${path} (checked: ${checkedSummary(report, fetched)})\n${note}` : `${inconsistencyLines(report, args.pipeline).join('\n')}\n${note}`));
    }
    if (!report.consistent) {
      const found = inconsistencyCount(report);
      throw new FatalError(`verify found ${found} inconsistenc${found === 1 ? 'y' : 'ies'} in ${path} (listed above)`);
    }
  },
};

/**
 * The head was asked for before the warehouse was read, so a sync committing in between can leave a
 * checkpoint past it: where one is, the head is asked again and the checkpoints held to the newer one.
 */
async function againstNewerHead(report: VerifyReport, checkpoints: ReadonlyMap<string, string>, head: Landmark, ask: () => Promise<AskedTip>, streams: readonly PlannedStream[]): Promise<VerifyReport> {
  if (!report.checks.some((check) => check.check === 'checkpoints' && check.found.length > 0)) return report;
  const again = await ask();
  const newer = again.tip === undefined ? undefined : (again.head ?? again.tip);
  return newer === undefined || newer.seqno <= head.seqno ? report : againstHead(report, checkpoints, streams, newer);
}

/** The lt range `--from`/`--to` name (`--to` exclusive), placed on the chain by the service where they are not lts; undefined without either. */
async function ltWindow(args: VerifyArgs, asked: AskedTip | undefined): Promise<LtWindow | undefined> {
  if (args.from === undefined && args.to === undefined) return undefined;
  const from = args.from === undefined ? undefined : parseChainPoint('--from', args.from);
  const to = args.to === undefined ? undefined : parseChainPoint('--to', args.to);
  if (from !== undefined) checkRange(from, to);
  const ltOf = async (flag: '--from' | '--to', point: ChainPoint): Promise<bigint> => {
    if (point.kind === 'lt') return point.lt;
    if (asked?.tip === undefined) {
      const why = asked === undefined ? '--offline' : asked.unknownBecause;
      throw new ConfigError(`${flag} ${flag === '--from' ? args.from : args.to} is placed on the chain by the service, which verify could not ask (${why}): give ${flag} lt:<N>, or let verify ask the service`);
    }
    try {
      return await positionOf(point, 'lt', { landmarks: asked.landmarks, tip: asked.tip, signal: asked.signal });
    } catch (error) {
      const why = asked.signal.aborted ? `no answer within ${CHAIN_BUDGET_MS / 1000} s` : error instanceof Error ? error.message : String(error);
      throw new ConfigError(`${flag} ${flag === '--from' ? args.from : args.to} is placed on the chain by the service, which did not place it (${why}): give ${flag} lt:<N>, or try again`);
    }
  };
  return { min: from === undefined ? 0n : await ltOf('--from', from), max: to === undefined ? 2n ** 63n - 1n : (await ltOf('--to', to)) - 1n };
}

/**
 * The block headers the checks want (`blockHeadersWanted`) over the stored transactions' coverage,
 * fetched; why not, where the service could not be asked or failed the fetch; undefined where none
 * are wanted.
 */
async function wantedHeaders(pipeline: Pipeline, streams: readonly PlannedStream[], asked: AskedTip | undefined, window: LtWindow | undefined, logger: Logger): Promise<FetchedBlockHeaders | string | undefined> {
  if (!blockHeadersWanted(streams)) return undefined;
  if (asked?.tip === undefined) return asked === undefined ? 'offline' : asked.unknownBecause;
  const { tip } = asked;
  const checkpoints = await withReadOnlyWarehouse(pipeline.sink.kind, pipeline.sink.path, warehouseTables(streams), 'verify', async (warehouse) => warehouse.checkpoints);
  const span = headerSpan(checkpoints.get(transactionsStream.name), window, tip.endLt);
  if (span === undefined) return undefined;
  const interrupt = interruptSignal();
  try {
    return await fetchBlockHeaders(pipeline, span, logger, interrupt.signal);
  } catch (error) {
    // The stored checks still run: a service that fails the fetch leaves this one check out, said why.
    if (interrupt.signal.aborted) throw error;
    return `the fetch failed: ${error instanceof Error ? error.message.split('\n')[0]! : String(error)}`;
  } finally {
    interrupt.dispose();
  }
}

function checkedSummary(report: VerifyReport, fetched: FetchedBlockHeaders | undefined): string {
  const rejected = (check: CheckRun): string => (check.rejected === 0 ? '' : ` (${check.rejected} lacking only items kept in _etl_rejects)`);
  const source = (check: CheckRun): string =>
    check.check === 'block-transactions' && fetched !== undefined ? ` (headers fetched from the service: ${fetched.blocks} blocks in ${fetched.requests} requests)` : '';
  return report.checks.map((check) => `${check.check} of ${check.table} ${check.checked}${rejected(check)}${source(check)}`).join(', ');
}

function jsonReport(report: VerifyReport, pipeline: string, head: Landmark | undefined, unchecked: string | undefined, fetched: FetchedBlockHeaders | undefined, unfetched: string | undefined): unknown {
  return {
    consistent: report.consistent,
    head: head === undefined ? null : { seqno: head.seqno, end_lt: String(head.endLt), time: utcTime(head.utime) },
    head_unknown_because: unchecked ?? null,
    block_headers: fetched === undefined ? null : { blocks: fetched.blocks, requests: fetched.requests },
    block_headers_unfetched_because: unfetched ?? null,
    checks: report.checks.map((check) => ({ check: check.check, table: check.table, checked: check.checked, found: check.found.length, rejected: check.rejected })),
    inconsistencies: report.checks.flatMap((check) => check.found.map((found) => ({ check: found.check, table: found.table, detail: found.detail, mend: mendCommand(pipeline, found) }))),
    holes: report.holes.map((hole) => ({ stream: hole.stream, axis: hole.axis, from: String(hole.from), to: String(hole.to), line: holeLine(pipeline, hole) })),
  };
}
