/**
 * The CLI under chaos: pipeline files with a settle lag, runs whose exit codes go to the scenario's
 * log, and kills (SIGKILL, SIGINT, SIGTERM) at seeded moments: a time after the start, right after
 * the n-th page of data left the devnet, or at the sink's own commit writes (the DuckDB WAL, the
 * Parquet manifest's temp file), which lands inside a commit.
 */
import { watch, type FSWatcher } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { runCli, spawnCli, type CliOptions, type CliRun } from '../../support/cli.js';
import type { CliResult } from '../../support/cli-result.js';
import { sleep } from '../../support/sleep.js';
import { pipelineYaml, type PipelineSpec, type SinkKind, type Workspace } from '../../support/workspace.js';
import type { RequestLog } from './devnet.js';
import type { ExitLog } from './table.js';

export interface ChaosPipelineSpec extends PipelineSpec {
  /** `lag.mc_blocks` of the pipeline. @default 0 (as `pipelineYaml` writes) */
  readonly lagMcBlocks?: number;
  /** `http.timeout_seconds` of the pipeline. @default the client's default (15) */
  readonly httpTimeoutSeconds?: number;
}

/** `pipelineYaml` with the settle lag and client timeout the scenario needs; written into the workspace. */
export async function chaosPipeline(work: Workspace, spec: ChaosPipelineSpec): Promise<string> {
  const yaml = pipelineYaml(spec);
  const lagged = yaml.replace('lag: { mc_blocks: 0 }', `lag: { mc_blocks: ${spec.lagMcBlocks ?? 0} }`);
  if (spec.lagMcBlocks !== undefined && spec.lagMcBlocks !== 0 && lagged === yaml) throw new Error('pipelineYaml no longer writes `lag: { mc_blocks: 0 }`');
  const path = join(work.dir, spec.name ?? `${spec.kind}.yaml`);
  await writeFile(path, spec.httpTimeoutSeconds === undefined ? lagged : `${lagged}http: { timeout_seconds: ${spec.httpTimeoutSeconds} }\n`);
  return path;
}

/** `runCli`, noting the exit code in `exits`. */
export async function runLogged(exits: ExitLog, args: readonly string[], options: CliOptions): Promise<CliResult> {
  const result = await runCli(args, options);
  exits.add(result);
  return result;
}

/**
 * When to signal a run. `pages` is the run's page budget: every kind comes at the latest when the
 * devnet sends the page after it (for `after-ms`: page `pages` itself), so that a run whose budget
 * is below the pages it needs is always signalled before it ends.
 */
export type Moment =
  /** This long after the spawn (it may land while the process starts or opens the warehouse). */
  | { readonly kind: 'after-ms'; readonly ms: number; readonly pages: number }
  /** `delayMs` after the devnet sent the `pages`-th page of data of this run (the page is being parsed or committed). */
  | { readonly kind: 'after-page'; readonly pages: number; readonly delayMs: number }
  /**
   * At the first write of a commit file (DuckDB WAL, Parquet manifest temp) after page `pages` was
   * sent: inside that page's commit. With `pages` 0: inside the run's first commit (its bookkeeping row).
   * With `after` n: inside the commit that begins after n more commits (e.g. 1: a snapshot's final
   * commit, which follows its last page's); Parquet counts the manifest's renames, DuckDB bursts of WAL
   * writes (best effort: two commits close together count as one).
   */
  | { readonly kind: 'in-commit'; readonly pages: number; readonly after?: number };

export type MomentKind = Moment['kind'];

export function describeMoment(moment: Moment): string {
  switch (moment.kind) {
    case 'after-ms':
      return `${moment.ms} ms after start (or at page ${moment.pages})`;
    case 'after-page':
      return `${moment.delayMs} ms after page ${moment.pages}`;
    case 'in-commit': {
      const later = moment.after === undefined || moment.after === 0 ? '' : ` ${moment.after} commit${moment.after === 1 ? '' : 's'} later`;
      return moment.pages === 0 ? `in the first commit (the run row)${later}` : `in the commit of page ${moment.pages}${later}`;
    }
  }
}

/** A moment of a kind with its random parts drawn from `random`, for a run that may be sent `pages` pages. */
export function drawMoment(kind: MomentKind, pages: number, random: () => number): Moment {
  const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
  if (pages <= 0) return { kind: 'in-commit', pages: 0 };
  switch (kind) {
    case 'after-ms':
      return { kind, ms: int(300, 2500), pages };
    case 'after-page':
      return { kind, pages, delayMs: int(0, 40) };
    case 'in-commit':
      return { kind, pages };
  }
}

/** The file whose writes mark a commit of this sink, and the folder to watch for it. */
function commitFile(kind: SinkKind, sinkPath: string): { folder: string; name: string } {
  return kind === 'duckdb' ? { folder: dirname(sinkPath), name: `${basename(sinkPath)}.wal` } : { folder: sinkPath, name: '_manifest.json.tmp' };
}

/** WAL writes this far apart belong to two commits (one commit's writes came within a millisecond, commits tens apart). */
const WAL_BURST_GAP_MS = 5;

/** Counts the commits a sink begins, from the events of a watch on its commit file's folder. */
function commitCounter(kind: SinkKind, name: string): (file: string | null) => number {
  let begun = 0;
  if (kind === 'duckdb') {
    let last = -Infinity;
    return (file) => {
      if (file !== name) return begun;
      const now = performance.now();
      if (now - last > WAL_BURST_GAP_MS) begun += 1;
      last = now;
      return begun;
    };
  }
  // A Parquet commit writes the manifest's temp file, then renames it to `_manifest.json`.
  let open = false;
  return (file) => {
    if (file === name && !open) {
      open = true;
      begun += 1;
    } else if (file === '_manifest.json') {
      open = false;
    }
    return begun;
  };
}

export interface MomentContext {
  readonly log: RequestLog;
  readonly kind: SinkKind;
  readonly sinkPath: string;
}

/** Resolves when the moment comes (true) or `cancel` aborts first (false). */
async function reach(moment: Moment, ctx: MomentContext, cancel: AbortSignal): Promise<boolean> {
  // Whatever else happens, the moment has come when the page after the budget is out: a run is
  // never sent more than `pages + 1` pages, and is signalled before it can commit the last.
  const done = new AbortController();
  const stop = (): void => done.abort();
  cancel.addEventListener('abort', stop);
  const budget = ctx.log.afterDataPages(moment.kind === 'after-ms' ? moment.pages : moment.pages + 1, done.signal);
  try {
    return (await Promise.race([budget, when(moment, ctx, done.signal)])) && !cancel.aborted;
  } finally {
    stop();
    cancel.removeEventListener('abort', stop);
  }
}

/** The moment itself: resolves true when it comes, false when `cancel` aborts first. */
async function when(moment: Moment, ctx: MomentContext, cancel: AbortSignal): Promise<boolean> {
  switch (moment.kind) {
    case 'after-ms':
      await sleep(moment.ms);
      return !cancel.aborted;
    case 'after-page':
      if (!(await ctx.log.afterDataPages(moment.pages, cancel))) return false;
      if (moment.delayMs > 0) await sleep(moment.delayMs);
      return !cancel.aborted;
    case 'in-commit': {
      const { folder, name } = commitFile(ctx.kind, ctx.sinkPath);
      const count = commitCounter(ctx.kind, name);
      const target = (moment.after ?? 0) + 1;
      let watcher: FSWatcher | undefined;
      try {
        return await new Promise<boolean>((resolve) => {
          const start = (): void => {
            try {
              watcher = watch(folder, (_event, file) => {
                if (count(file) === target && file === name) resolve(true);
              });
            } catch {
              // The folder does not exist yet (a Parquet warehouse's first run): wait for it.
              setTimeout(() => (cancel.aborted ? resolve(false) : start()), 5);
            }
          };
          cancel.addEventListener('abort', () => resolve(false));
          // Watch once page `pages` is out, so that the next write is that page's commit.
          void ctx.log.afterDataPages(moment.pages, cancel).then((ok) => (ok ? start() : resolve(false)));
        });
      } finally {
        watcher?.close();
      }
    }
  }
}

export interface SignalOutcome {
  readonly result: CliResult;
  /** The signal was sent while the process ran (false: it ended before the moment came). */
  readonly sent: boolean;
}

/** Sends `signal` to the run at `moment` (unless it ended before), then calls `onSent`; resolves with how the run ended. */
export async function signalAt(run: CliRun, signal: NodeJS.Signals, moment: Moment, ctx: MomentContext, onSent?: () => void): Promise<SignalOutcome> {
  const ended = new AbortController();
  const done = run.done.finally(() => ended.abort());
  let sent = false;
  const fire = reach(moment, ctx, ended.signal).then((reached) => {
    if (reached && run.child.exitCode === null && run.child.signalCode === null) sent = run.child.kill(signal);
    if (sent) onSent?.();
  });
  const result = await done;
  ended.abort();
  await fire;
  return { result, sent };
}

/** Spawns `chain-etl <args>` and signals it at `moment`. */
export function spawnAndSignal(args: readonly string[], options: CliOptions, signal: NodeJS.Signals, moment: Moment, ctx: MomentContext): Promise<SignalOutcome> {
  // The moment starts counting pages at once: the child needs far longer to start than this takes.
  const run = spawnCli(args, options);
  return signalAt(run, signal, moment, ctx);
}
