/**
 * The judge of one generated case: a sync run in process (`runCli`) against the adversarial server,
 * then the warehouse read back and held to the property: exit 0 ⇒ every stream covers the whole
 * requested range and its rows equal the truth there; any other exit ⇒ one clear line, exit 1 or 2,
 * nothing stored that the truth lacks, no covered position missing a row, and a rerun against the
 * healthy server exits 0 with the warehouse equal to the truth.
 */
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { runCli } from '../../src/cli/main.js';
import type { Range } from '../../src/core/coverage.js';
import type { Row } from '../../src/load/sink.js';
import { FIRST_MC, KEY, KEY_ENV, canonical, keyOf, readWarehouse, tableNamed, type SinkKind, type Snapshot } from '../support/etl.js';
import { describeMisbehaviour, type Misbehaviour } from './knobs.js';
import { UNSAFE_INTEGER, startAdversarialServer, type AdversarialServer } from './server.js';
import { buildTruth, streamNamed, type StreamName, type Truth, type TruthSpec } from './truth.js';

export interface CaseSpec {
  readonly truth: TruthSpec;
  readonly misbehaviour: Misbehaviour;
  readonly sink: SinkKind;
  readonly streams: readonly StreamName[];
  /** Masterchain blocks after the chain's first where `start` lies. */
  readonly startStep: number;
  readonly lag: number;
  readonly concurrency: number;
  /** Seeds the server's choices (tie orders, which requests a knob acts on). */
  readonly seed: number;
}

export interface JudgeOptions {
  /** How long one run may take before it counts as hung. @default 30 s (the largest cases take a few) */
  readonly runTimeoutMs?: number;
}

export interface Verdict {
  /** Exit code of the run against the misbehaving server. */
  readonly exit: number;
  readonly message: string;
  readonly ms: number;
}

/** Runs one case; throws an Error naming every broken rule (with the case) when the property fails. */
export async function judgeCase(spec: CaseSpec, options: JudgeOptions = {}): Promise<Verdict> {
  const timeoutMs = options.runTimeoutMs ?? RUN_TIMEOUT_MS;
  const started = performance.now();
  const truth = buildTruth(spec.truth);
  const server = await startAdversarialServer(truth, spec.misbehaviour, spec.seed);
  const dir = await mkdtemp(join(tmpdir(), 'chain-etl-property-'));
  try {
    const pipeline = join(dir, 'pipeline.yaml');
    const sinkPath = join(dir, spec.sink === 'duckdb' ? 'warehouse.duckdb' : 'warehouse-parquet');
    await writeFile(pipeline, pipelineYaml(spec, server.url, sinkPath));
    const first = await sync(pipeline, timeoutMs);
    const problems = exitProblems(first);
    if (first.exit !== 0 && behavesAsTheService(spec)) problems.push('the server behaved as the service may (ties in any order where none is promised, replicas within the lag), yet the run failed');
    problems.push(...(await warehouseProblems(spec, truth, server, sinkPath, first.exit === 0)));
    if (first.exit !== 0) {
      server.healthy = true;
      const rerun = await sync(pipeline, timeoutMs);
      if (rerun.hung) problems.push(...exitProblems(rerun).map((p) => `the rerun against the healthy server: ${p}`));
      else if (rerun.exit !== 0) problems.push(`the rerun against the healthy server exited ${rerun.exit}: ${rerun.message}`);
      else problems.push(...(await warehouseProblems(spec, truth, server, sinkPath, true)).map((p) => `after the rerun: ${p}`));
    }
    if (problems.length > 0) throw new Error(`${describeCase(spec)}\nfirst run: exit ${first.exit} ${first.message}\n- ${problems.join('\n- ')}`);
    return { exit: first.exit, message: first.message, ms: Math.round(performance.now() - started) };
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** No knob, and replicas no further apart than the lag: the run must succeed. */
export function behavesAsTheService(spec: CaseSpec): boolean {
  return spec.misbehaviour.knobs.length === 0 && spec.misbehaviour.replicaLag <= spec.lag;
}

export function describeCase(spec: CaseSpec): string {
  const density = Object.entries(spec.truth.density).map(([name, d]) => `${name} +${d.count}/tie ${d.tie}`);
  return (
    `case: seed ${spec.truth.seed}, ${spec.truth.blocks} blocks, ${density.join(', ') || 'no extra items'}; ${spec.sink}; streams ${spec.streams.join(',')}; ` +
    `start +${spec.startStep}, lag ${spec.lag}, concurrency ${spec.concurrency}, server seed ${spec.seed}; ${describeMisbehaviour(spec.misbehaviour)}`
  );
}

function pipelineYaml(spec: CaseSpec, url: string, sinkPath: string): string {
  return [
    'network: mainnet',
    `base_url: ${url}`,
    `api_key_env: ${KEY_ENV}`,
    `rate: { rps: 5000, concurrency: ${spec.concurrency} }`,
    'http: { retries: 1 }',
    `start: { mc_seqno: ${FIRST_MC + spec.startStep} }`,
    `lag: { mc_blocks: ${spec.lag} }`,
    `streams: [${spec.streams.join(', ')}]`,
    `sink: { kind: ${spec.sink}, path: ${JSON.stringify(sinkPath)} }`,
    '',
  ].join('\n');
}

const RUN_TIMEOUT_MS = 30_000;

interface RunResult {
  readonly exit: number;
  readonly message: string;
  /** It did not end by itself within `timeoutMs`. */
  readonly hung: boolean;
  readonly timeoutMs: number;
}

async function sync(pipeline: string, timeoutMs: number): Promise<RunResult> {
  process.env[KEY_ENV] = KEY;
  let text = '';
  const stderr = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      text += String(chunk);
      callback();
    },
  });
  // A run that pages forever is interrupted as SIGTERM would (the CLI's own handler) and reported.
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    process.emit('SIGTERM', 'SIGTERM');
  }, timeoutMs);
  try {
    const exit = await runCli(['sync', pipeline, '--log-level', 'silent'], stderr);
    return { exit, message: text.trimEnd(), hung, timeoutMs };
  } finally {
    clearTimeout(timer);
  }
}

function exitProblems(run: RunResult): string[] {
  if (run.hung) return [`the run did not end within ${run.timeoutMs / 1000} s (interrupted: exit ${run.exit})`];
  if (run.exit === 0) return run.message === '' ? [] : [`exit 0 but stderr says: ${run.message}`];
  const problems: string[] = [];
  if (run.exit !== 1 && run.exit !== 2) problems.push(`exit ${run.exit}, expected 1 (run failure) or 2 (refused)`);
  const lines = run.message.split('\n');
  if (lines.length !== 1) problems.push(`the failure took ${lines.length} lines of stderr, not one`);
  if (!/^chain-etl: \S/.test(lines[0] ?? '')) problems.push('the failure message does not start with "chain-etl: "');
  if (run.message.includes('unexpected failure')) problems.push('the failure is an unexpected one (a crash, not a named problem)');
  if (run.message.includes(KEY)) problems.push('the message holds the API key');
  return problems;
}

/** The rows the truth holds for one stream, by table and primary key, with each row's position. */
function expectedRows(truth: Truth, name: StreamName): Map<string, Map<string, { row: Row; position: bigint; item: string }>> {
  const byTable = new Map(streamNamed(name).tables.map((table) => [table.name, new Map<string, { row: Row; position: bigint; item: string }>()]));
  for (const item of truth.items.get(name) ?? []) {
    for (const [table, rows] of item.rows) {
      const map = byTable.get(table)!;
      for (const row of rows) map.set(keyOf(tableNamed(table), row), { row, position: item.position, item: item.key });
    }
  }
  return byTable;
}

/** The range a run ending at the settled tip must cover on a stream's axis. */
function requestedRange(spec: CaseSpec, truth: Truth, name: StreamName): Range {
  const chain = truth.api.view.chain;
  const start = chain.mcBlock(spec.startStep);
  const tip = chain.mcBlock(truth.api.view.indexedStep - spec.lag);
  return streamNamed(name).axis === 'lt' ? { from: BigInt(start.startLt), to: BigInt(tip.endLt) } : { from: BigInt(start.genUtime), to: BigInt(tip.genUtime) - 1n };
}

/** Where a poisoned item's unsafe integer lands, when its row is stored: it must be exact there. */
const POISONED_COLUMN: Readonly<Partial<Record<StreamName, readonly [table: string, column: string]>>> = {
  transactions: ['transactions', 'compute_gas_used'],
  jetton_transfers: ['jetton_transfers', 'query_id'],
  validator_events: ['validator_events', 'amount'],
};

async function warehouseProblems(spec: CaseSpec, truth: Truth, server: AdversarialServer, sinkPath: string, complete: boolean): Promise<string[]> {
  let snapshot: Snapshot;
  try {
    snapshot = await readWarehouse(spec.sink, sinkPath, { partial: true, glob: false });
  } catch (error) {
    return [`the warehouse cannot be read: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`];
  }
  const problems: string[] = [];
  for (const name of spec.streams) {
    const covered = snapshot.covered.get(name) ?? [];
    const inCovered = (position: bigint): boolean => covered.some((range) => range.from <= position && position <= range.to);
    const wanted = requestedRange(spec, truth, name);
    if (complete && wanted.from <= wanted.to && !covered.some((range) => range.from <= wanted.from && wanted.to <= range.to)) {
      problems.push(`${name}: exit 0 but the checkpoint covers ${showRanges(covered)}, not [${wanted.from}, ${wanted.to}]`);
    }
    const excused = server.poisoned.get(name) ?? new Set<string>();
    for (const [table, expected] of expectedRows(truth, name)) {
      const definition = tableNamed(table);
      const text = (row: Row): string => canonical(definition.columnNames.map((column) => row[column]));
      const stored = snapshot.tables.get(table) ?? [];
      const seen = new Set<string>();
      const counts = { extra: 0, changed: 0, duplicate: 0, missing: 0 };
      const examples: string[] = [];
      for (const row of stored) {
        const key = keyOf(definition, row);
        const want = expected.get(key);
        if (seen.has(key)) counts.duplicate += 1;
        seen.add(key);
        if (want !== undefined && excused.has(want.item)) {
          const [poisonedTable, column] = POISONED_COLUMN[name] ?? [];
          if (poisonedTable === table && String(row[column!]) !== UNSAFE_INTEGER) (counts.changed += 1), examples.push(`${key}: ${column} ${String(row[column!])} stored for ${UNSAFE_INTEGER}`);
          continue;
        }
        if (want === undefined) (counts.extra += 1), examples.push(`extra ${key}`);
        else if (text(want.row) !== text(row)) (counts.changed += 1), examples.push(`changed ${key}`);
      }
      for (const [key, want] of expected) {
        if (inCovered(want.position) && !seen.has(key) && !excused.has(want.item)) (counts.missing += 1), examples.push(`missing ${key} at ${want.position}`);
      }
      if (Object.values(counts).some((count) => count > 0)) {
        problems.push(`${table}: ${Object.entries(counts).map(([what, count]) => `${what} ${count}`).join(', ')} (covered ${showRanges(covered)}); e.g. ${examples.slice(0, 3).join('; ')}`);
      }
    }
  }
  return problems;
}

function showRanges(ranges: readonly Range[]): string {
  return ranges.length === 0 ? 'nothing' : ranges.map((range) => `[${range.from}, ${range.to}]`).join(' ');
}
