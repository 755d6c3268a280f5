/**
 * What a run writing a DuckDB warehouse publishes beside it for `status`, since DuckDB lets no other
 * process open the file meanwhile: `<file>.progress.json`, replaced after the run's `running` record
 * and after every commit by what that commit made durable (each stream's checkpoint row as the file
 * now holds it, the rows the run has committed per table), as a temp file renamed over it, so that
 * a reader sees one whole version. It is written only once the commit has returned, from the rows
 * that commit wrote: never ahead of the file, and exact as of the commit it names (a write that
 * fails leaves the one before, which names its own). The sink removes it once it has closed the
 * file, which is then readable itself; one a killed run left names a pid that holds no lock, and
 * the next run replaces it.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { etlCheckpoints } from '../../core/bookkeeping.js';
import type { TableChange } from '../commit-plan.js';
import type { ReplacedRows, RunRecord } from '../sink.js';

/** What the progress file holds (times in unix seconds). */
const progressSchema = z.object({
  run_id: z.string(),
  /** The process that runs it, which holds the file's lock. */
  pid: z.number().int(),
  command: z.string(),
  started_at: z.number(),
  /** When the commit it describes returned. */
  committed_at: z.number(),
  /** Every stream's checkpoint row (`_etl_checkpoints.position`) as of that commit. */
  checkpoints: z.record(z.string(), z.string()),
  /** Rows the run has committed per table so far, of keys the warehouse did not hold (new), and that took the place of a row of the same key. */
  rows: z.record(z.string(), z.number()),
  rows_replaced: z.record(z.string(), z.number()),
});

export type DuckDBProgress = Readonly<z.infer<typeof progressSchema>>;

export function progressPath(warehouse: string): string {
  return `${warehouse}.progress.json`;
}

/** The progress file of one open of a DuckDB warehouse; it publishes from the run's `running` record on. */
export class ProgressFile {
  readonly #path: string;
  readonly #now: () => number;
  #progress: DuckDBProgress | undefined;

  constructor(warehouse: string, now: () => number) {
    this.#path = progressPath(warehouse);
    this.#now = now;
  }

  /** After the run's `running` record was committed: the checkpoints as the file holds them. */
  begin(run: RunRecord, checkpoints: ReadonlyMap<string, string>): void {
    const base = { run_id: run.run_id, pid: process.pid, command: run.command, started_at: run.started_at, rows: {}, rows_replaced: {} };
    this.#progress = { ...base, committed_at: this.#now(), checkpoints: Object.fromEntries(checkpoints) };
    this.#write();
  }

  /** After a group of commits returned: `changes` as the sink applied them, `replaced` as it counted them. */
  committed(changes: readonly TableChange[], replaced: ReplacedRows): void {
    const progress = this.#progress;
    if (progress === undefined) return;
    const checkpoints = { ...progress.checkpoints };
    const rows = { ...progress.rows };
    const rowsReplaced = { ...progress.rows_replaced };
    for (const change of changes) {
      const name = change.table.name;
      if (name === etlCheckpoints.name) for (const row of change.rows) checkpoints[String(row.stream)] = String(row.position);
      const taken = replaced.get(name);
      if (taken === undefined) continue;
      rows[name] = (rows[name] ?? 0) + change.rows.length + change.superseded - taken;
      rowsReplaced[name] = (rowsReplaced[name] ?? 0) + taken;
    }
    this.#progress = { ...progress, committed_at: this.#now(), checkpoints, rows, rows_replaced: rowsReplaced };
    this.#write();
  }

  /** Once the sink has closed the file; nothing when no run published. */
  remove(): void {
    if (this.#progress === undefined) return;
    this.#progress = undefined;
    // Left behind, it names a pid that holds no lock: status ignores it and the next run replaces it.
    removeQuietly(this.#path);
  }

  /**
   * Synchronous: half the CPU of fs/promises, which hops to the thread pool twice (docs/design.md
   * §5), and nothing runs between the commit's return and the file naming it.
   */
  #write(): void {
    // One name: only the lock holder writes it, and a temp file a killed run left is taken over:
    // removed and created new, so that a symlink planted there is never written through.
    const temp = `${this.#path}.tmp`;
    try {
      rmSync(temp, { force: true });
      writeFileSync(temp, `${JSON.stringify(this.#progress)}\n`, { flag: 'wx' });
      renameSync(temp, this.#path);
    } catch {
      // The commit stands; status shows the file as of an earlier commit, or none: a failed write must not fail the run.
      removeQuietly(temp);
    }
  }
}

function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Nothing depends on it being gone.
  }
}

/**
 * The progress of the run that holds the warehouse's lock: `holder` is the pid DuckDB named (when it
 * does not, a file whose process is alive counts). Undefined when there is none: no file, one of a
 * process that is gone, or one that cannot be read.
 */
export async function readProgress(warehouse: string, holder: number | undefined): Promise<DuckDBProgress | undefined> {
  let progress: DuckDBProgress;
  try {
    progress = progressSchema.parse(JSON.parse(await readFile(progressPath(warehouse), 'utf8')));
  } catch {
    return undefined;
  }
  const current = holder === undefined ? isAlive(progress.pid) : progress.pid === holder;
  return current ? progress : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
