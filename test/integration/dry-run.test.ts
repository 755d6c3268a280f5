/**
 * `backfill --dry-run` and `sync --dry-run` plan the run and estimate its requests from one probe
 * page per range, and write nothing: no warehouse where there was none, not a byte changed where
 * there is one. The estimate is judged against the pages the real run then records.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { streams } from '../../src/streams/index.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult, messageLines } from '../support/cli-result.js';
import { FIRST_MC, startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { readWarehouse } from '../support/warehouse-snapshot.js';
import { makeWorkspace, type Workspace } from '../support/workspace.js';

let devnet: TestDevnet;
let work: Workspace;

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: 4242, blocks: 300 });
  work = await makeWorkspace('dry-run');
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

const RANGE = ['--from', `mc:${FIRST_MC}`, '--to', `mc:${FIRST_MC + 250}`];
const fileHash = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

/** The estimated requests per stream, from the dry run's table. */
function estimatedRequests(stdout: string): Map<string, number> {
  const estimates = new Map<string, number>();
  for (const line of stdout.split('\n')) {
    const [name] = line.split(/\s+/);
    if (name === undefined || !streams.some((s) => s.name === name) || line.endsWith('nothing to fetch')) continue;
    const requests = Number(line.trim().split(/\s+/).at(-2));
    estimates.set(name, (estimates.get(name) ?? 0) + requests);
  }
  return estimates;
}

describe('backfill --dry-run', () => {
  it('prints every stream with its range and estimate, writes nothing, and estimates within a factor of two of the real run', async () => {
    const sinkPath = work.sinkPath('duckdb', 'planned');
    const pipeline = await work.pipeline({ url: devnet.url, kind: 'duckdb', sinkPath, name: 'planned.yaml' });
    const served = devnet.served();
    const dry = await runCliInProcess(['backfill', pipeline, ...RANGE, '--dry-run']);
    expect(dry.code, describeResult(dry)).toBe(0);
    expect(dry.stderr).toBe('');
    expect(existsSync(sinkPath)).toBe(false);
    const lines = dry.stdout.split('\n');
    expect(lines[0]).toBe(`backfill --dry-run ${pipeline} → duckdb ${sinkPath}: nothing is written`);
    expect(lines[1]).toMatch(/^settled tip: masterchain block \d+ \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\); 200 requests\/s, 8 at a time$/);
    const estimates = estimatedRequests(dry.stdout);
    expect([...estimates.keys()].sort()).toEqual(streams.map((s) => s.name).sort());
    const total = [...estimates.values()].reduce((a, b) => a + b, 0);
    expect(lines.at(-2)).toMatch(new RegExp(`^total≈ ${total} requests, \\d+s at 200 requests/s`));
    // A handful of landmark requests beside one probe page per stream.
    expect(devnet.served() - served).toBeLessThan(streams.length + 12);

    const real = await runCliInProcess(['backfill', pipeline, ...RANGE]);
    expect(real.code, describeResult(real)).toBe(0);
    const pages = JSON.parse(String((await readWarehouse('duckdb', sinkPath)).runs[0]!.requests)) as Record<string, number>;
    for (const stream of streams) {
      const estimate = estimates.get(stream.name)!;
      expect(estimate, `${stream.name}: ${estimate} estimated, ${pages[stream.name]} pages`).toBeGreaterThanOrEqual(pages[stream.name]! / 2);
      expect(estimate, `${stream.name}: ${estimate} estimated, ${pages[stream.name]} pages`).toBeLessThanOrEqual(pages[stream.name]! * 2);
    }
  });
});

describe('sync --dry-run', () => {
  it('after a sync to the tip: nothing to fetch but the actions re-scan and the cycles still open, and the warehouse file unchanged', async () => {
    // A short chain of its own: what is left to fetch after a sync does not depend on the chain's length.
    const short = await startTestDevnet({ seed: 4242, blocks: 40 });
    onTestFinished(() => short.close());
    const sinkPath = work.sinkPath('duckdb', 'synced');
    const pipeline = await work.pipeline({ url: short.url, kind: 'duckdb', sinkPath, name: 'synced.yaml' });
    const synced = await runCliInProcess(['sync', pipeline]);
    expect(synced.code, describeResult(synced)).toBe(0);
    const before = fileHash(sinkPath);
    const dry = await runCliInProcess(['sync', pipeline, '--dry-run']);
    expect(dry.code, describeResult(dry)).toBe(0);
    expect(fileHash(sinkPath)).toBe(before);
    for (const stream of streams) {
      const line = dry.stdout.split('\n').find((l) => l.startsWith(`${stream.name} `));
      if (stream.rescansOverlap || stream.openUntil !== undefined) expect(line, stream.name).toMatch(/ \d+ +\d+s$/);
      else expect(line, stream.name).toBe(`${stream.name.padEnd(20)} nothing to fetch`);
    }
  });

  it('refuses --follow with exit 2', async () => {
    const pipeline = await work.pipeline({ url: devnet.url, kind: 'duckdb', sinkPath: work.sinkPath('duckdb', 'follow'), name: 'follow.yaml' });
    const result = await runCliInProcess(['sync', pipeline, '--dry-run', '--follow']);
    expect(result.code, describeResult(result)).toBe(2);
    expect(messageLines(result.stderr)).toEqual(['chain-etl: --dry-run plans one run: leave out --follow']);
  });
});
