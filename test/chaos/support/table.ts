/**
 * The scenario table: one row per scenario and sink (expected rows, rows found, missing, extra,
 * duplicated, changed, exit codes seen). Under `npm run test:chaos` rows go to a file the global
 * setup names and prints once at the end of the run; elsewhere (the fast subset in `npm test`) each
 * test file prints its own rows in `afterAll`.
 */
import { appendFileSync } from 'node:fs';
import { inject } from 'vitest';
import { formatTable, type ScenarioRow } from './table-format.js';

export { ExitLog, formatTable, type ScenarioRow } from './table-format.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** JSON-lines file collecting the scenario rows of a chaos run. */
    chaosTableFile: string;
  }
}

const local: ScenarioRow[] = [];

function tableFile(): string | undefined {
  try {
    return inject('chaosTableFile');
  } catch {
    return undefined;
  }
}

export function recordScenario(row: ScenarioRow): void {
  const file = tableFile();
  if (file !== undefined) appendFileSync(file, `${JSON.stringify(row)}\n`);
  else local.push(row);
}

/** Prints the rows this file recorded, unless the chaos run's global setup prints them all. */
export function printLocalTable(title: string): void {
  if (tableFile() !== undefined || local.length === 0) return;
  console.log(`${title}\n${formatTable(local)}`);
}

