import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/core/errors.js';
import { loadFaultProfile } from '../../../src/devnet/http/faults.js';
import { seededRandom } from '../../support/seeded-random.js';
import { FakeClock } from './helpers.js';
import { FaultInjector, NO_FAULTS, sampleLatency } from '../../../src/devnet/http/fault-plan.js';

describe('loadFaultProfile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'devnet-faults-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function file(name: string, text: string): Promise<string> {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  }

  it('reads a valid profile', async () => {
    const profile = {
      http5xx: 0.01,
      storm429: { rate: 0.001, durationMs: 5000 },
      stall: { rate: 0.001, ms: 60_000 },
      reset: 0.005,
      truncate: 0.005,
      malformedJson: 0.001,
      unknownFields: 0.1,
      unknownEnum: 0.01,
      latency: { medianMs: 40, p99Ms: 1500 },
    };
    expect(await loadFaultProfile(await file('ok.json', JSON.stringify(profile)))).toEqual(profile);
    expect(await loadFaultProfile(await file('empty.json', '{}'))).toEqual({});
  });

  it.each([
    ['unknown.json', '{"http5xx":0.1,"bogus":1}', 'unknown key "bogus"'],
    ['nested.json', '{"stall":{"rate":0.1,"ms":100,"seconds":1}}', 'unknown key "stall.seconds"'],
    ['type.json', '{"storm429":{"rate":0.1,"durationMs":"5s"}}', 'storm429.durationMs: Invalid input: expected number, received string'],
    ['range.json', '{"reset":1.5}', 'reset: Too big: expected number to be <=1'],
    ['tail.json', '{"latency":{"medianMs":100,"p99Ms":10}}', 'latency.p99Ms: p99Ms must be >= medianMs'],
    ['array.json', '[]', '(top level): Invalid input: expected object, received array'],
  ])('rejects %s naming the file and the bad key', async (name, text, detail) => {
    const path = await file(name, text);
    const err = await loadFaultProfile(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toBe(`invalid fault profile ${path}: ${detail}`);
  });

  it('reports a file that is not JSON or cannot be read', async () => {
    const bad = await file('bad.json', '{http5xx: 1}');
    await expect(loadFaultProfile(bad)).rejects.toThrow(new RegExp(`^invalid fault profile ${bad}: not JSON \\(`));
    const missing = join(dir, 'missing.json');
    const err = await loadFaultProfile(missing).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(new RegExp(`^cannot read fault profile ${missing}: ENOENT`));
  });
});

describe('FaultInjector', () => {
  const profile = {
    http5xx: 0.1,
    storm429: { rate: 0.01, durationMs: 2000 },
    stall: { rate: 0.05, ms: 30_000 },
    reset: 0.05,
    truncate: 0.05,
    malformedJson: 0.05,
    unknownFields: 0.2,
    unknownEnum: 0.2,
    latency: { medianMs: 40, p99Ms: 1500 },
  };

  function plans(seed: number, n: number) {
    const clock = new FakeClock();
    const injector = new FaultInjector(profile, seededRandom(seed), clock.now);
    return Array.from({ length: n }, () => {
      clock.advance(100);
      return injector.plan();
    });
  }

  it('makes the same decisions for the same seed and different ones for another', () => {
    expect(plans(42, 500)).toEqual(plans(42, 500));
    expect(plans(42, 500)).not.toEqual(plans(43, 500));
  });

  it('injects each kind at roughly its rate', () => {
    const all = plans(7, 20_000);
    const share = (pred: (p: (typeof all)[number]) => boolean) => all.filter(pred).length / all.length;
    expect(share((p) => p.unknownFields)).toBeCloseTo(0.2, 1);
    expect(share((p) => p.reset)).toBeGreaterThan(0.03);
    expect(share((p) => p.rejectStatus !== undefined && p.rejectStatus >= 500)).toBeGreaterThan(0.07);
    expect(share((p) => p.rejectStatus === 429)).toBeGreaterThan(0.01);
  });

  it('injects nothing with an empty profile', () => {
    const injector = new FaultInjector({}, seededRandom(1), () => 0);
    expect(injector.plan()).toEqual(NO_FAULTS);
  });

  it('samples a log-normal latency with the given median and 99th percentile', () => {
    expect(sampleLatency(40, 1500, 0, 0)).toBe(40);
    const u1ForZ99 = 1 - Math.exp(-(2.3263478740408408 ** 2) / 2);
    expect(sampleLatency(40, 1500, u1ForZ99, 0)).toBeCloseTo(1500, 6);
    expect(sampleLatency(40, 1500, u1ForZ99, 0.5)).toBeCloseTo((40 * 40) / 1500, 6);
    expect(sampleLatency(40, 1500, 1 - 1e-300, 0)).toBe(15_000);
  });
});
