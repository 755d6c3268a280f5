/**
 * A devnet with a fault profile (5xx, 429 storms, stalls past the client timeout, connection resets,
 * truncated and malformed bodies, heavy-tail latency, unknown fields and enum values): `sync`
 * exits 0 and the warehouse equals the truth; `finality` values the client does not know are stored
 * as sent, not rejected. Then the chain grows and a second sync under the same faults catches up.
 */
import { expect } from 'vitest';
import type { FaultProfile } from '../../../src/devnet/http/faults.js';
import { describeResult } from '../../support/cli-result.js';
import { sleep } from '../../support/sleep.js';
import { readVerified } from '../support/read.js';
import type { SinkKind, Workspace } from '../../support/workspace.js';
import { chaosPipeline, runLogged } from '../support/cli.js';
import { startChaosDevnet } from '../support/devnet.js';
import { ExitLog, recordScenario } from '../support/table.js';
import { UsedAnswers } from '../support/used-answers.js';
import { CLEAN, faults, syncedBounds, tableRow, verifyWarehouse } from '../support/verify.js';

/** The endpoints whose items carry `finality`. */
const FINALITY_PATHS = new Set(['/api/v3/transactions', '/api/v3/actions']);

export interface FaultsScenario {
  readonly name: string;
  readonly seed: number;
  readonly blocks: number;
  /** Blocks the chain grows by before the second sync (0: one sync only). */
  readonly growBy: number;
  readonly profile: FaultProfile;
  readonly sinks: readonly SinkKind[];
  /** Fault kinds the devnet must have injected, or the scenario proved nothing about them. */
  readonly mustSee: readonly string[];
  /** Per CLI run. */
  readonly timeoutMs: number;
  /** The pipeline's `http.timeout_seconds`; a stall longer than it makes the client give up and retry. @default 15 */
  readonly httpTimeoutSeconds?: number;
}

/** The full profile of the issue; a stall's `ms` must exceed the pipeline's per-attempt timeout. */
export function issueProfile(stall: { rate: number; ms: number } | undefined, unknownEnum = 0.05): FaultProfile {
  return {
    http5xx: 0.05,
    storm429: { rate: 0.01, durationMs: 2000 },
    ...(stall === undefined ? {} : { stall }),
    reset: 0.01,
    truncate: 0.01,
    malformedJson: 0.01,
    unknownFields: 0.1,
    unknownEnum,
    latency: { medianMs: 50, p99Ms: 800 },
  };
}

/** Runs the scenario for each sink at once (each with its own devnet of the same seed, so the same faults in the same request order). */
export async function runFaultsScenario(work: Workspace, scenario: FaultsScenario): Promise<void> {
  const outcomes = await Promise.allSettled(scenario.sinks.map((kind) => runOne(work, scenario, kind)));
  for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
}

async function runOne(work: Workspace, scenario: FaultsScenario, kind: SinkKind): Promise<void> {
  const { devnet, log } = await startChaosDevnet({ seed: scenario.seed, blocks: scenario.blocks, faults: scenario.profile });
  try {
    const sinkPath = work.sinkPath(kind, `faults-${scenario.seed}`);
    const pipeline = await chaosPipeline(work, { url: devnet.url, kind, sinkPath, httpTimeoutSeconds: scenario.httpTimeoutSeconds, name: `faults-${scenario.seed}-${kind}.yaml` });
    const exits = new ExitLog();
    const results = [];
    const unknownEnumAnswers = new Set<number>();
    const stopCounting = log.listen((info) => {
      if (info.status === 200 && info.faults.includes('unknownEnum') && FINALITY_PATHS.has(info.path)) unknownEnumAnswers.add(info.answer);
    });
    // What the client used, not what the devnet sent: an answer sent after the client's timeout is never used.
    const used = new UsedAnswers(work.dir, `faults-${scenario.seed}-${kind}`);
    results.push(await runLogged(exits, ['sync', pipeline], { cwd: work.dir, timeoutMs: scenario.timeoutMs, env: used.env() }));
    stopCounting();
    const usedAnswers = used.read();
    const unknownEnumPages = [...unknownEnumAnswers].filter((answer) => usedAnswers.has(answer)).length;
    // Counted after the first sync: a later sync's actions re-scan may read the same pages again, fault-free.
    const firstSnapshot = await readVerified(kind, sinkPath);
    const storedUnknownEnum = verifyWarehouse(devnet, firstSnapshot, syncedBounds(devnet, firstSnapshot), { unknownEnumAllowed: true }).unknownEnum;
    if (scenario.growBy > 0) {
      devnet.grow(scenario.growBy);
      results.push(await runLogged(exits, ['sync', pipeline], { cwd: work.dir, timeoutMs: scenario.timeoutMs }));
    }
    const snapshot = await readVerified(kind, sinkPath);
    const verdict = verifyWarehouse(devnet, snapshot, syncedBounds(devnet, snapshot), { unknownEnumAllowed: true });
    const retries = snapshot.runs.reduce((total, run) => total + Number(run.retries), 0);
    recordScenario(
      tableRow(scenario.name, kind, verdict, exits.exits(), [`${log.total} requests, injected: ${log.describeFaults()}`, `${retries} client retries`]),
    );
    for (const result of results) expect(result.code, describeResult(result)).toBe(0);
    expect(faults(verdict), verdict.problems.join('\n')).toEqual(CLEAN);
    // Which answers carry a fault depends on the seed and the order of requests, not on the endpoint.
    expect(usedAnswers.size, 'answers the first sync used, as its probe logged them').toBeGreaterThan(0);
    if (unknownEnumPages > 0) expect(storedUnknownEnum, 'rows whose finality was sent as unknown_3 are stored with it').toBeGreaterThan(0);
    // A stalled answer is logged when the devnet gives up holding it, a moment after the client's timeout.
    for (let waited = 0; waited < 5000 && scenario.mustSee.some((fault) => !log.faults.has(fault)); waited += 100) await sleep(100);
    for (const fault of scenario.mustSee) expect(log.faults.get(fault) ?? 0, `injected ${fault} (${log.describeFaults()})`).toBeGreaterThan(0);
    expect(snapshot.runs.map((run) => run.status)).toEqual(results.map(() => 'ok'));
  } finally {
    await devnet.close();
  }
}
