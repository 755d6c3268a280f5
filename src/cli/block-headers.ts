/**
 * The block headers `verify` fetches where a pipeline stores unfiltered transactions but not their
 * blocks: the `blocks` stream backfilled over the transactions' covered lt span into a scratch DuckDB
 * file, with the stream's own pager, the pipeline's limiter and the stream's validation, so that each
 * block's `tx_count` can be held against the stored transactions (`checkBlockTransactions`). The
 * file lives in the system's temporary folder and is removed when verify is done.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { Pipeline } from '../config/index.js';
import { decodeCheckpoint } from '../core/checkpoint/record.js';
import type { Range } from '../core/checkpoint/coverage.js';
import { planBackfill, type Plan, type PlanContext } from '../run/plan.js';
import { blocksStream } from '../streams/blocks.js';
import { executeRun } from '../run/execute-run.js';
import { commandHooks } from './run-hooks.js';
import { openPipelineSession } from '../run/session.js';

export interface FetchedBlockHeaders {
  /** The scratch DuckDB file whose `blocks` table holds them. */
  readonly file: string;
  /** The utime ranges its `blocks` cover. */
  readonly covered: readonly Range[];
  readonly blocks: number;
  readonly requests: number;
  /** Removes the scratch file. */
  dispose(): void;
}

/** Fetches the headers of the blocks of lt `from`..`to` (inclusive, at most the settled tip's end). */
export async function fetchBlockHeaders(pipeline: Pipeline, span: { readonly from: bigint; readonly to: bigint }, logger: Logger, signal: AbortSignal): Promise<FetchedBlockHeaders> {
  const folder = mkdtempSync(join(tmpdir(), 'chain-etl-verify-'));
  const dispose = (): void => rmSync(folder, { recursive: true, force: true });
  const file = join(folder, 'block-headers.duckdb');
  const scratch = new Pipeline(
    { ...pipeline, start: { kind: 'tip' }, streams: { [blocksStream.name]: {} }, streamNames: [blocksStream.name], refresh: {}, sink: { ...pipeline.sink, kind: 'duckdb', path: file } },
    pipeline.apiKey,
  );
  try {
    const session = await openPipelineSession(scratch, logger.child({ component: 'block-headers' }));
    try {
      const plan = (ctx: PlanContext): Promise<Plan> => planBackfill(session.streams, { from: { kind: 'lt', lt: span.from }, to: { kind: 'lt', lt: span.to + 1n } }, ctx);
      // The fetched blocks' own checks (their masterchain seqnos) are not this warehouse's: verify reads the blocks as given.
      const summary = await executeRun(session, 'verify', plan, signal, commandHooks(session, { acceptInconsistent: true }));
      const stored = (await session.sink.readCheckpoints()).get(blocksStream.name);
      const covered = stored === undefined ? [] : decodeCheckpoint(stored).covered.ranges;
      return { file, covered, blocks: summary.rows[blocksStream.name] ?? 0, requests: summary.requests, dispose };
    } finally {
      await session.close();
    }
  } catch (error) {
    dispose();
    throw error;
  }
}

/**
 * The lt span whose block headers verify fetches: from the first to the last position the stored
 * `transactions` checkpoint covers, within `window` and the settled tip; undefined where that is
 * nothing.
 */
export function headerSpan(checkpoint: string | undefined, window: { readonly min: bigint; readonly max: bigint } | undefined, tipEndLt: bigint): { from: bigint; to: bigint } | undefined {
  const ranges = checkpoint === undefined ? [] : decodeCheckpoint(checkpoint).covered.ranges;
  const low = window?.min ?? 0n;
  const high = window === undefined || window.max > tipEndLt ? tipEndLt : window.max;
  const inside = ranges.map((r) => ({ from: r.from < low ? low : r.from, to: r.to > high ? high : r.to })).filter((r) => r.from <= r.to);
  if (inside.length === 0) return undefined;
  return { from: inside[0]!.from, to: inside[inside.length - 1]!.to };
}
