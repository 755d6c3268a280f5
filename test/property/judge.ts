/**
 * The judge of one generated case: a sync run in process (`runCli`) against the adversarial server,
 * then the warehouse read back and held to the property: `chain-etl verify`'s checks find nothing in
 * it, and exit 0 ⇒ every stream covers the whole requested range and its rows equal the truth there;
 * any other exit ⇒ one clear line, exit 1 or 2,
 * nothing stored that the truth lacks, no covered position missing a row, and a rerun against the
 * healthy server exits 0 with the warehouse equal to the truth.
 */
import { existsSync } from 'node:fs';
import { writeFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Range } from '../../src/core/checkpoint/coverage.js';
import { FIRST_MC } from '../support/test-devnet.js';
import { KEY_ENV } from '../support/test-key.js';
import type { SinkKind } from '../support/workspace.js';
import { makeCaseDir } from './case-dir.js';
import { RUN_TIMEOUT_MS, exitProblems, runInProcess, type RunResult } from './cli-run.js';
import { smallDiskRuns } from './small-disk-runs.js';
import { tmpfsUnavailable } from '../support/small-disk.js';
import { describeMisbehaviour, type Misbehaviour } from './knobs.js';
import { startAdversarialServer, type AdversarialServer } from './server.js';
import { staleCopies } from './stale-copies.js';
import { buildTruth, positionOf, tipPositionOf, type StreamName, type Truth, type TruthItem, type TruthSpec } from './truth.js';
import { readSnapshot, streamProblems } from './warehouse-check.js';

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
  /** The first sync's warehouse on a disk of this many bytes (small-disk-runs.ts), the rerun's on a roomy one. @default a roomy disk */
  readonly diskBytes?: number;
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
  const truth = buildTruth(spec.truth, spec.streams);
  const stale = staleCopies(truth, spec.misbehaviour.knobs, (name) => requestedRange(spec, truth, name), spec.seed);
  const server = await startAdversarialServer(truth, spec.misbehaviour, spec.seed, stale);
  const dir = await makeCaseDir('property');
  try {
    const pipeline = join(dir, 'pipeline.yaml');
    const warehouse = spec.sink === 'duckdb' ? 'warehouse.duckdb' : 'warehouse-parquet';
    const disk = spec.diskBytes === undefined || SMALL_DISK_UNAVAILABLE !== undefined ? undefined : await smallDiskRuns(dir, spec.diskBytes, warehouse, timeoutMs);
    const sinkPath = disk?.sinkPath ?? join(dir, warehouse);
    const sync = async (): Promise<{ run: RunResult; copy: string }> => ({ run: await runInProcess(['sync', pipeline], timeoutMs), copy: sinkPath });
    try {
      await writeFile(pipeline, pipelineYaml(spec, server.url, sinkPath));
      const { run: first, copy: afterFirst } = disk === undefined ? await sync() : await disk.first(pipeline);
      const problems = exitProblems(first);
      if (first.exit !== 0 && behavesAsTheService(spec)) problems.push('the server behaved as the service may (ties in any order where none is promised, replicas within the lag), yet the run failed');
      problems.push(...(await warehouseProblems(spec, truth, server, afterFirst, first.exit === 0)));
      if (first.exit !== 0) {
        server.healthy = true;
        const { run: rerun, copy: afterRerun } = disk === undefined ? await sync() : await disk.rerun();
        if (rerun.hung) problems.push(...exitProblems(rerun).map((p) => `the rerun against the healthy server: ${p}`));
        else if (rerun.exit !== 0) problems.push(`the rerun against the healthy server exited ${rerun.exit}: ${rerun.message}`);
        else problems.push(...(await warehouseProblems(spec, truth, server, afterRerun, true)).map((p) => `after the rerun: ${p}`));
      }
      if (problems.length > 0) throw new Error(`${describeCase(spec)}\nfirst run: exit ${first.exit} ${first.message}\n- ${problems.join('\n- ')}`);
      return { exit: first.exit, message: first.message, ms: Math.round(performance.now() - started) };
    } finally {
      await disk?.close();
    }
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** No knob, replicas no further apart than the lag, no glitched tip and room on the disk: the run must succeed. */
export function behavesAsTheService(spec: CaseSpec): boolean {
  return spec.misbehaviour.knobs.length === 0 && spec.misbehaviour.replicaLag <= spec.lag && (spec.misbehaviour.tipGlitch ?? 0) === 0 && spec.diskBytes === undefined;
}

/** Why a case's small disk cannot be had here (its runs then use a roomy disk), or undefined. */
const SMALL_DISK_UNAVAILABLE = tmpfsUnavailable();

export function describeCase(spec: CaseSpec): string {
  const density = Object.entries(spec.truth.density).map(([name, d]) => `${name} +${d.count}/tie ${d.tie}`);
  return (
    `case: seed ${spec.truth.seed}, ${spec.truth.blocks} blocks, ${density.join(', ') || 'no extra items'}; ${spec.sink}; streams ${spec.streams.join(',')}; ` +
    `start +${spec.startStep}, lag ${spec.lag}, concurrency ${spec.concurrency}, server seed ${spec.seed}; ${describeMisbehaviour(spec.misbehaviour)}` +
    (spec.diskBytes === undefined ? '' : `; a disk of ${spec.diskBytes} bytes${SMALL_DISK_UNAVAILABLE === undefined ? '' : ` (not had: ${SMALL_DISK_UNAVAILABLE})`}`)
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

/** The range a run ending at the settled tip must cover on a stream's axis. */
function requestedRange(spec: CaseSpec, truth: Truth, name: StreamName): Range {
  return { from: positionOf(truth.api, name, spec.startStep), to: tipPositionOf(truth.api, name, truth.api.view.indexedStep - spec.lag) };
}

async function warehouseProblems(spec: CaseSpec, truth: Truth, server: AdversarialServer, sinkPath: string, complete: boolean): Promise<string[]> {
  if (!existsSync(sinkPath)) return complete ? ['exit 0 but no warehouse was written'] : [];
  const snapshot = await readSnapshot(spec.sink, sinkPath, spec.streams);
  if (typeof snapshot === 'string') return [snapshot];
  // A failed run may hold what the server listed before a key moved on; a run that ended well, none of it.
  const stale = (name: StreamName): readonly TruthItem[] => (complete ? [] : (server.stale.get(name) ?? []));
  const staleKeys = spec.streams.flatMap((name) => stale(name).map((item) => item.key));
  const inconsistencies = (snapshot.inconsistencies ?? []).filter((line) => !staleKeys.some((key) => line.includes(key)));
  return inconsistencies.map((line) => `verify: ${line}`).concat(spec.streams.flatMap((name) =>
    streamProblems(truth, name, snapshot, { required: complete ? [requestedRange(spec, truth, name)] : [], poisoned: server.poisoned.get(name), stale: stale(name) }),
  ));
}
