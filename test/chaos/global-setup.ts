/**
 * Global setup of `npm run test:chaos`: builds the CLI once, names the file the scenarios append
 * their rows to, and prints the scenario table once every chaos file has run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureBuilt } from '../support/build.js';
import { formatTable, readTableFile } from './support/table-format.js';

export default function setup(project: TestProject): () => void {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'chain-etl-chaos-table-'));
  const file = join(dir, 'rows.jsonl');
  project.provide('chaosTableFile', file);
  return () => {
    const rows = readTableFile(file);
    rmSync(dir, { recursive: true, force: true });
    if (rows.length === 0) return;
    console.log(`\nChaos suite: the warehouse after each scenario against the devnet truth\n\n${formatTable(rows)}\n`);
  };
}
