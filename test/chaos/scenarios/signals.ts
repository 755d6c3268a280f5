/**
 * SIGINT and SIGTERM in the middle of a run: the CLI exits 130 / 143 with one line on stderr, records
 * the run as interrupted, keeps a consistent prefix, and the same command resumes to the truth.
 * A second signal while the first is being honoured ends the process at once (same exit code) with
 * a line saying so, and the next run still resumes to the truth, marking the run abandoned.
 */
import { expect } from 'vitest';
import type { StreamDefinition } from '../../../src/core/stream.js';
import { streams } from '../../../src/streams/index.js';
import { mcBlock, positionAt, tipBlock, tipPositionOf, type Bounds } from '../../support/chain-points.js';
import { spawnCli } from '../../support/cli.js';
import { describeResult, messageLines } from '../../support/cli-result.js';
import { sleep } from '../../support/sleep.js';
import { FIRST_MC } from '../../support/test-devnet.js';
import { readVerified } from '../support/read.js';
import type { SinkKind, Workspace } from '../../support/workspace.js';
import { chaosPipeline, describeMoment, runLogged, signalAt, type Moment } from '../support/cli.js';
import type { ChaosDevnet } from '../support/devnet.js';
import { ExitLog, recordScenario } from '../support/table.js';
import { CLEAN, faults, prefixProblems, tableRow, verifyWarehouse } from '../support/verify.js';
import { rangeBounds } from './kills.js';

export interface SignalScenario {
  readonly name: string;
  readonly command: 'sync' | 'backfill';
  readonly signal: 'SIGINT' | 'SIGTERM';
  /** Send the signal a second time this long after the first (the process must then end at once). */
  readonly twiceAfterMs?: number;
  readonly moment: Moment;
  /** `backfill --to mc:FIRST_MC + rangeBlocks`. */
  readonly rangeBlocks: number;
  readonly rate: { readonly rps: number; readonly concurrency: number };
}

const EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

export async function runSignalScenario(work: Workspace, chaos: ChaosDevnet, scenario: SignalScenario, kind: SinkKind): Promise<void> {
  const { devnet, log } = chaos;
  const label = `${scenario.command}-${scenario.signal}${scenario.twiceAfterMs === undefined ? '' : '-twice'}-${kind}`;
  const sinkPath = work.sinkPath(kind, label);
  const pipeline = await chaosPipeline(work, { url: devnet.url, kind, sinkPath, rate: scenario.rate, name: `${label}.yaml` });
  const toMc = FIRST_MC + scenario.rangeBlocks;
  const args = scenario.command === 'sync' ? ['sync', pipeline] : ['backfill', pipeline, '--from', `mc:${FIRST_MC}`, '--to', `mc:${toMc}`];
  const whole: (stream: StreamDefinition) => Bounds =
    scenario.command === 'sync'
      ? (stream) => ({ from: positionAt(mcBlock(devnet, FIRST_MC), stream), to: tipPositionOf(tipBlock(devnet), stream) })
      : rangeBounds(devnet, toMc);
  const exits = new ExitLog();
  const problems: string[] = [];

  const run = spawnCli(args, { cwd: work.dir, timeoutMs: 120_000 });
  let again = false;
  const twice = (): void => {
    if (scenario.twiceAfterMs === undefined) return;
    void sleep(scenario.twiceAfterMs).then(() => {
      if (run.child.exitCode === null && run.child.signalCode === null) again = run.child.kill(scenario.signal);
    });
  };
  const { result: interrupted, sent } = await signalAt(run, scenario.signal, scenario.moment, { log, kind, sinkPath }, twice);
  exits.add(interrupted);
  const lines = messageLines(interrupted.stderr);
  const partial = await readVerified(kind, sinkPath);
  problems.push(...prefixProblems(devnet, partial, whole).map((problem) => `after ${scenario.signal}: ${problem}`));
  const short = streams.filter((stream) => (partial.checkpoints.get(stream.name) ?? -1n) < whole(stream).to).map((stream) => stream.name);

  const resumed = await runLogged(exits, args, { cwd: work.dir, timeoutMs: 120_000 });
  const snapshot = await readVerified(kind, sinkPath);
  const bounds: (stream: StreamDefinition) => Bounds = (stream) => ({ from: whole(stream).from, to: snapshot.checkpoints.get(stream.name) ?? whole(stream).from - 1n });
  const verdict = verifyWarehouse(devnet, snapshot, bounds);
  for (const stream of streams) {
    if (snapshot.checkpoints.get(stream.name) !== whole(stream).to) problems.push(`${stream.name}: checkpoint ${snapshot.checkpoints.get(stream.name)} after the resume, expected ${whole(stream).to}`);
  }
  recordScenario(
    tableRow(scenario.name, kind, verdict, exits.exits(), [
      `${scenario.signal} ${describeMoment(scenario.moment)}${scenario.twiceAfterMs === undefined ? '' : `, again ${scenario.twiceAfterMs} ms later${again ? '' : ' (it had ended)'}`}`,
      `stderr: ${lines.length === 0 ? 'nothing' : `${lines.length} line: ${JSON.stringify(`${lines[0]!.slice(0, 42)}…`)}`}`,
      `${short.length}/${streams.length} streams short of the end`,
      ...(problems.length > 0 ? [`PREFIX/CHECKPOINT PROBLEMS: ${problems.length}`] : []),
    ]),
  );
  expect(sent, 'the signal was sent while the run ran').toBe(true);
  expect(interrupted.code, describeResult(interrupted)).toBe(EXIT[scenario.signal]);
  const message = `chain-etl: interrupted by ${scenario.signal}: every committed page is kept; run the same command again to resume`;
  if (scenario.twiceAfterMs === undefined || !again) {
    expect(lines).toEqual([message]);
    expect(partial.runs.map((r) => [r.command, r.status])).toEqual([[scenario.command, 'interrupted']]);
  } else {
    // The second signal ends the process at once, saying so; the first may not have got to print its
    // line or record the end.
    const secondMessage = `chain-etl: second ${scenario.signal}: exiting now; the commit in progress is rolled back and the next run resumes from the last checkpoint`;
    expect(lines.filter((line) => line !== message)).toEqual([secondMessage]);
    expect(partial.runs.map((r) => r.status)).toEqual([expect.stringMatching(/^(running|interrupted)$/)]);
  }
  expect(short.length, 'the run was stopped before every stream reached its end').toBeGreaterThan(0);
  expect(resumed.code, describeResult(resumed)).toBe(0);
  expect(problems).toEqual([]);
  expect(faults(verdict), verdict.problems.join('\n')).toEqual(CLEAN);
  // A run left `running` by the second signal is marked abandoned by the resuming run.
  const stopped = partial.runs[0]!.status === 'running' ? 'abandoned' : partial.runs[0]!.status;
  expect(snapshot.runs.map((r) => r.status).sort()).toEqual(['ok', stopped].sort());
}
