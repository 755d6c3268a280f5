/**
 * Generated schedules (issue 10, class 8, second part): a sequence of commands over a growing chain
 * (syncs with or without `start`, backfills with --from/--to, a changed filter, late and re-classified
 * actions, a sync against a head that moved backwards), each run in process against the generated
 * server, with a model of the exit code each must give and the ranges the warehouse must then cover.
 * After every command the warehouse holds only truth rows and no covered position misses one; a last
 * sync against the healthy head must leave it equal to the truth.
 */
import fc from 'fast-check';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Range } from '../../src/core/checkpoint/coverage.js';
import { reclassifyTraces } from '../../src/devnet/chain/reclassify.js';
import { FIRST_MC } from '../support/test-devnet.js';
import { KEY_ENV } from '../support/test-key.js';
import type { SinkKind } from '../support/workspace.js';
import { makeCaseDir } from '../property/case-dir.js';
import type { Snapshot } from '../support/warehouse-snapshot.js';
import { exitProblems, runInProcess, type RunResult } from '../property/cli-run.js';
import { HEALTHY } from '../property/knobs.js';
import { startAdversarialServer } from '../property/server.js';
import { buildTruth, positionOf, refreshTruth, STREAM_NAMES, tipPositionOf, type StreamName } from '../property/truth.js';
import { readSnapshot, streamProblems } from '../property/warehouse-check.js';

export type Command =
  | { readonly kind: 'grow'; readonly blocks: number }
  | { readonly kind: 'sync' }
  /** `from` in percent of the settled tip's step (above 100: after the tip), `to` in percent of the steps from there to the tip. */
  | { readonly kind: 'backfill'; readonly from: number; readonly to?: number }
  | { readonly kind: 'reclassify'; readonly traces: number }
  /** The same warehouse synced with a transactions filter it was not loaded with. */
  | { readonly kind: 'changedFilters' }
  /** A sync served by a replica this many blocks behind the last head seen. */
  | { readonly kind: 'headBehind'; readonly blocks: number };

export interface ScheduleSpec {
  readonly seed: number;
  readonly blocks: number;
  readonly classifyDelay: number;
  readonly sink: SinkKind;
  /** Masterchain blocks after the first where the pipeline's `start` lies; none: a cron pipeline. */
  readonly startStep: number | undefined;
  readonly lag: number;
  readonly commands: readonly Command[];
}

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 25 }).map((blocks): Command => ({ kind: 'grow', blocks })) },
  { weight: 4, arbitrary: fc.constant<Command>({ kind: 'sync' }) },
  {
    weight: 2,
    arbitrary: fc
      .record({
        from: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 0, max: 100 }) }, { weight: 1, arbitrary: fc.constant(150) }),
        to: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
      })
      .map(({ from, to }): Command => (to === undefined ? { kind: 'backfill', from } : { kind: 'backfill', from, to })),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }).map((traces): Command => ({ kind: 'reclassify', traces })) },
  { weight: 1, arbitrary: fc.constant<Command>({ kind: 'changedFilters' }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 4 }).map((blocks): Command => ({ kind: 'headBehind', blocks })) },
);

export const scheduleArbitrary: fc.Arbitrary<ScheduleSpec> = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  blocks: fc.integer({ min: 6, max: 14 }),
  classifyDelay: fc.integer({ min: 0, max: 8 }),
  sink: fc.constantFrom('duckdb' as const, 'parquet' as const),
  startStep: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined, freq: 2 }),
  lag: fc.integer({ min: 0, max: 2 }),
  commands: fc.array(command, { minLength: 2, maxLength: 6 }),
});

/** Runs a schedule; throws naming the step and every broken rule when the warehouse or an exit is wrong. */
export async function judgeSchedule(spec: ScheduleSpec): Promise<void> {
  const truth = buildTruth({ seed: spec.seed, blocks: spec.blocks, density: {}, classifyDelay: spec.classifyDelay });
  const server = await startAdversarialServer(truth, HEALTHY, spec.seed);
  const dir = await makeCaseDir('schedule');
  const sinkPath = join(dir, spec.sink === 'duckdb' ? 'warehouse.duckdb' : 'warehouse-parquet');
  const main = join(dir, 'main.yaml');
  const filtered = join(dir, 'filtered.yaml');
  const account = String(truth.items.get('transactions')![0]!.raw.account);
  await writeFile(main, pipelineYaml(spec, server.url, sinkPath, 'transactions'));
  await writeFile(filtered, pipelineYaml(spec, server.url, sinkPath, `transactions: { accounts: ["${account}"] }`));
  /** Ranges each stream must cover from now on, each inside one covered range. */
  const required = new Map<StreamName, Range[]>(STREAM_NAMES.map((name) => [name, []]));
  let loaded = false;
  const log: string[] = [];
  /** The warehouse as the last command left it (read once per command that ran the CLI). */
  let stored: Snapshot | string | undefined;
  try {
    for (const [index, step] of [...spec.commands, { kind: 'sync' } as const].entries()) {
      const final = index === spec.commands.length;
      const label = final ? 'final sync' : `command ${index + 1} ${JSON.stringify(step)}`;
      const before = stored;
      const tipStep = truth.api.view.indexedStep - spec.lag;
      let run: RunResult | undefined;
      let expected: readonly number[] = [0];
      let strict = false;
      switch (step.kind) {
        case 'grow':
          for (let i = 0; i < step.blocks; i++) truth.api.generator.advance();
          refreshTruth(truth);
          break;
        case 'reclassify':
          reclassifyTraces(truth.api.view.chain, step.traces, truth.api.view.indexedSeqno - spec.classifyDelay);
          refreshTruth(truth);
          break;
        case 'sync':
          run = await runInProcess(['sync', main]);
          strict = true;
          if (run.exit === 0) {
            for (const name of STREAM_NAMES) {
              const position = typeof before === 'object' ? before.checkpoints.get(name) : undefined;
              const from = spec.startStep !== undefined ? positionOf(truth.api, name, spec.startStep) : position === undefined ? undefined : position + 1n;
              if (from !== undefined) required.get(name)!.push({ from, to: tipPositionOf(truth.api, name, tipStep) });
            }
          }
          break;
        case 'backfill': {
          const from = Math.floor((step.from * tipStep) / 100);
          const to = step.to === undefined ? undefined : from + Math.ceil((step.to * (tipStep - from)) / 100);
          if (to === from) break;
          const args = ['backfill', main, '--from', `mc:${FIRST_MC + from}`, ...(to === undefined ? [] : ['--to', `mc:${FIRST_MC + to}`])];
          run = await runInProcess(args);
          expected = from > tipStep ? [2] : [0];
          if (run.exit === 0) {
            for (const name of STREAM_NAMES) {
              const end = to === undefined ? tipPositionOf(truth.api, name, tipStep) : positionOf(truth.api, name, to) - 1n;
              required.get(name)!.push({ from: positionOf(truth.api, name, from), to: end });
            }
          }
          break;
        }
        case 'changedFilters':
          run = await runInProcess(['sync', filtered]);
          expected = loaded ? [2] : [0, 2];
          break;
        case 'headBehind':
          server.headBehind = step.blocks;
          run = await runInProcess(['sync', main]);
          server.headBehind = 0;
          expected = [0, 1, 2];
          break;
      }
      const problems = run === undefined ? [] : exitProblems(run);
      if (run !== undefined && !expected.includes(run.exit)) problems.push(`exit ${run.exit} (${run.message}), expected ${expected.join(' or ')}`);
      if (run !== undefined) log.push(`${label}: exit ${run.exit}${run.message === '' ? '' : ` ${run.message.slice(0, 160)}`}`);
      if (step.kind === 'changedFilters' && run?.exit === 0) break; // the warehouse now holds a filtered scope: nothing more to model
      loaded ||= run?.exit === 0 && step.kind !== 'headBehind';
      const after = run === undefined ? before : existsSync(sinkPath) ? await readSnapshot(spec.sink, sinkPath) : undefined;
      stored = after;
      if (typeof after === 'string') problems.push(after);
      else if (after !== undefined) {
        for (const name of STREAM_NAMES) {
          // Actions classified or re-classified since the last sync wait for the next one's re-scan.
          const relaxed = !strict && name === 'actions';
          problems.push(...streamProblems(truth, name, after, { required: required.get(name), extra: !relaxed, missing: !relaxed }).map((p) => `${label}: ${p}`));
        }
      }
      if (problems.length > 0) throw new Error(`${describeSchedule(spec)}\n${log.join('\n')}\n- ${problems.join('\n- ')}`);
    }
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export function describeSchedule(spec: ScheduleSpec): string {
  return (
    `schedule: seed ${spec.seed}, ${spec.blocks} blocks, classify delay ${spec.classifyDelay}, ${spec.sink}, ` +
    `${spec.startStep === undefined ? 'no start' : `start +${spec.startStep}`}, lag ${spec.lag}: ${spec.commands.map((c) => JSON.stringify(c)).join(' ')}`
  );
}

function pipelineYaml(spec: ScheduleSpec, url: string, sinkPath: string, transactions: string): string {
  return [
    'network: mainnet',
    `base_url: ${url}`,
    `api_key_env: ${KEY_ENV}`,
    'rate: { rps: 5000, concurrency: 2 }',
    ...(spec.startStep === undefined ? [] : [`start: { mc_seqno: ${FIRST_MC + spec.startStep} }`]),
    `lag: { mc_blocks: ${spec.lag} }`,
    `streams: { ${transactions}, actions: , jetton_transfers: , validator_events: }`,
    `sink: { kind: ${spec.sink}, path: ${JSON.stringify(sinkPath)} }`,
    '',
  ].join('\n');
}
