/**
 * The golden cases: real example responses (test/fixtures/examples) through a stream's item schema
 * and toRows, with the rows of each table kept beside them in test/fixtures/golden. `npm run generate`
 * writes the golden files from these cases; review their diff by eye after a deliberate change.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StreamDefinition } from '../../src/core/stream.js';
import type { AnyTable } from '../../src/core/table.js';
import { actionsStream } from '../../src/streams/actions.js';
import { blocksStream } from '../../src/streams/blocks.js';
import { jettonTransfersStream } from '../../src/streams/jetton-transfers.js';
import { tracesStream } from '../../src/streams/traces.js';
import { transactionsStream } from '../../src/streams/transactions.js';
import { jsonRows, runStream, type StreamOutput } from './rows.js';

const EXAMPLES_DIR = 'test/fixtures/examples';
const GOLDEN_DIR = 'test/fixtures/golden';

export interface GoldenCase {
  /** The example response, within test/fixtures/examples. */
  readonly file: string;
  readonly stream: StreamDefinition;
  readonly items: (json: unknown) => unknown[];
  /** Items in the example: every one parses. */
  readonly count: number;
}

interface TraceJson {
  readonly traces: readonly { readonly transactions_order: readonly string[]; readonly transactions: Readonly<Record<string, unknown>> }[];
}

export const goldenCases: readonly GoldenCase[] = [
  { file: 'v3-transactions.mainnet.2026-07.json', stream: transactionsStream, items: (json) => json as unknown[], count: 2 },
  {
    file: 'v3-traces.mainnet.2025-09.docs-pr493.json',
    stream: transactionsStream,
    items: (json) => (json as TraceJson).traces.flatMap((trace) => trace.transactions_order.map((hash) => trace.transactions[hash])),
    count: 6,
  },
  { file: 'v3-traces.mainnet.2025-09.docs-pr493.json', stream: tracesStream, items: (json) => [...(json as TraceJson).traces], count: 1 },
  { file: 'v3-actions.mainnet.2026-07.json', stream: actionsStream, items: (json) => json as unknown[], count: 2 },
  {
    file: 'v3-jetton-transfers.mainnet.2026-07.json',
    stream: jettonTransfersStream,
    items: (json) => (json as { jetton_transfers: unknown[] }).jetton_transfers,
    count: 7,
  },
  {
    file: 'v3-jetton-transfers.mainnet.2024-05.old-format.liuruibin1.json',
    stream: jettonTransfersStream,
    items: (json) => (json as { jetton_transfers: unknown[] }).jetton_transfers,
    count: 2,
  },
  { file: 'v3-blocks.mainnet.2024-08.PARTIAL.toncenter-com.ton-indexer-issue76.json', stream: blocksStream, items: (json) => (json as { blocks: unknown[] }).blocks, count: 1 },
];

/** An example response as parsed JSON; `root` is the project root. */
export function readExample(root: string, file: string): unknown {
  return JSON.parse(readFileSync(join(root, EXAMPLES_DIR, file), 'utf8'));
}

/** The example of `goldenCase` through its stream. */
export function goldenOutput(root: string, goldenCase: GoldenCase): StreamOutput<unknown> {
  return runStream(goldenCase.stream, goldenCase.items(readExample(root, goldenCase.file)));
}

/** Where the golden rows of one table of a case are kept, from the project root. */
export function goldenPath(goldenCase: GoldenCase, table: AnyTable): string {
  return `${GOLDEN_DIR}/${goldenCase.file.replace(/\.json$/, '')}.${table.name}.json`;
}

/** Golden file path → content, for every table of every case. */
export function goldenFiles(root: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const goldenCase of goldenCases) {
    const output = goldenOutput(root, goldenCase);
    for (const table of goldenCase.stream.tables) {
      files.set(goldenPath(goldenCase, table), `${JSON.stringify(jsonRows(table, output.rows.get(table.name) ?? []), null, 2)}\n`);
    }
  }
  return files;
}
