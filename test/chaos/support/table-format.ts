/**
 * The scenario table's rows and their Markdown form; no vitest import, so that the chaos run's global
 * setup (in the main process) can print them.
 */
import { existsSync, readFileSync } from 'node:fs';

export interface ScenarioRow {
  readonly scenario: string;
  readonly sink: string;
  /** Rows the truth holds for the synced range, all data tables together. */
  readonly expected: number;
  /** Rows in the warehouse's data tables. */
  readonly found: number;
  readonly missing: number;
  /** Rows whose key the truth does not have in the range. */
  readonly extra: number;
  /** Keys held by more than one row. */
  readonly duplicated: number;
  /** Keys whose row differs from the truth in some column. */
  readonly changed: number;
  /** Exit codes (or signals) of every CLI run of the scenario, in order, run-length encoded. */
  readonly exits: string;
  readonly notes: string;
}

export function readTableFile(file: string): ScenarioRow[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ScenarioRow);
}

const COLUMNS: readonly [keyof ScenarioRow, string][] = [
  ['scenario', 'scenario'],
  ['sink', 'sink'],
  ['expected', 'expected rows'],
  ['found', 'rows found'],
  ['missing', 'missing'],
  ['extra', 'extra'],
  ['duplicated', 'duplicated'],
  ['changed', 'changed'],
  ['exits', 'exit codes seen'],
  ['notes', 'notes'],
];

/** Scenario families in the order the table lists them (rows of one family keep their order). */
const ORDER = ['faults', 'kill', 'SIG', 'late', 'growth', 'replica', 'indexer'];

function rank(row: ScenarioRow): number {
  const index = ORDER.findIndex((prefix) => row.scenario.startsWith(prefix));
  return index === -1 ? ORDER.length : index;
}

/** A Markdown table of the rows, grouped by scenario family. */
export function formatTable(unsorted: readonly ScenarioRow[]): string {
  const firstOf = new Map<string, number>();
  unsorted.forEach((row, index) => firstOf.set(row.scenario, firstOf.get(row.scenario) ?? index));
  const sinkRank = (row: ScenarioRow): number => (row.sink === 'duckdb' ? 0 : 1);
  const rows = [...unsorted].sort((a, b) => rank(a) - rank(b) || firstOf.get(a.scenario)! - firstOf.get(b.scenario)! || sinkRank(a) - sinkRank(b));
  const cells = rows.map((row) => COLUMNS.map(([key]) => String(row[key]).replace(/\|/g, '\\|')));
  const lines = [`| ${COLUMNS.map(([, title]) => title).join(' | ')} |`, `|${COLUMNS.map(([key]) => (typeof rows[0]?.[key] === 'number' ? '---:' : '---')).join('|')}|`];
  for (const row of cells) lines.push(`| ${row.join(' | ')} |`);
  return lines.join('\n');
}

/** Exit codes of a scenario's CLI runs: `0`, `130`, `SIGKILL`; `exits()` run-length encodes them. */
export class ExitLog {
  readonly #seen: string[] = [];

  add(result: { readonly code: number | null; readonly signal: NodeJS.Signals | null }): void {
    this.#seen.push(result.code !== null ? String(result.code) : (result.signal ?? '?'));
  }

  exits(): string {
    const runs: [string, number][] = [];
    for (const value of this.#seen) {
      const last = runs.at(-1);
      if (last !== undefined && last[0] === value) last[1] += 1;
      else runs.push([value, 1]);
    }
    return runs.map(([value, count]) => (count === 1 ? value : `${value}×${count}`)).join(', ') || 'none';
  }
}
