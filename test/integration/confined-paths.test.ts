/**
 * Every path a warehouse command writes or deletes stays inside the warehouse, from the user's side:
 * a manifest entry planted outside the folder (`../victim.txt`) makes every command refuse the
 * manifest and touch nothing; a symlink planted at a temp file's name is removed, never written through.
 */
import { lstat, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { describeResult, messageLines, type CliResult } from '../support/cli-result.js';
import { KEY } from '../support/test-key.js';
import { makeWorkspace, type SinkKind, type Workspace } from '../support/workspace.js';

const STREAMS = ['transactions', 'blocks'];
const VICTIM = 'keep me';

let work: Workspace;
let devnet: Devnet;

beforeAll(async () => {
  work = await makeWorkspace('confined');
  devnet = await startDevnet({ seed: 77, blocks: 20, keys: new Map([[KEY, 'mainnet']]), keyRps: 1000 });
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

const run = (...args: string[]): Promise<CliResult> => runCliInProcess(args);

async function synced(kind: SinkKind, label: string): Promise<{ pipeline: string; sinkPath: string }> {
  const sinkPath = work.sinkPath(kind, label);
  const pipeline = await work.pipeline({ url: devnet.url, kind, sinkPath, name: `${label}.yaml`, streams: STREAMS });
  const result = await run('sync', pipeline);
  expect(result.code, describeResult(result)).toBe(0);
  return { pipeline, sinkPath };
}

describe('paths confined to the warehouse', () => {
  for (const where of ['files', 'retired'] as const) {
    it(`a manifest ${where} entry ../victim.txt: sync, repair and compact refuse the manifest (exit 2) and the file outside stays`, async () => {
      const { pipeline, sinkPath } = await synced('parquet', `planted-${where}`);
      const victim = join(work.dir, `victim-${where}.txt`);
      await writeFile(victim, VICTIM);
      const manifestPath = join(sinkPath, '_manifest.json');
      const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { tables: Record<string, { files: object[] }>; retired: object[] };
      const planted = `../victim-${where}.txt`;
      if (where === 'files') manifest.tables['transactions']!.files.push({ path: planted, rows: 1, bytes: VICTIM.length });
      else manifest.retired.push({ path: planted, retiredAt: 0 });
      await writeFile(manifestPath, JSON.stringify(manifest));
      for (const command of ['sync', 'repair', 'compact']) {
        const refused = await run(command, pipeline);
        expect(refused.code, `${command}: ${describeResult(refused)}`).toBe(2);
        expect(messageLines(refused.stderr)).toEqual([
          expect.stringMatching(
            new RegExp(
              `^chain-etl: Parquet manifest ${manifestPath} is not a chain-etl manifest this release reads: ✖ a path outside the warehouse folder .* → at ${where === 'files' ? 'tables\\.transactions\\.files' : 'retired'}\\[1\\]\\.path; chain-etl changes nothing in the folder`,
            ),
          ),
        ]);
        expect(await readFile(victim, 'utf8'), command).toBe(VICTIM);
      }
    });
  }

  for (const kind of ['parquet', 'duckdb'] as const) {
    it(`${kind}: a symlink planted at the temp file's name is removed and the file it points to is not written`, async () => {
      const { pipeline, sinkPath } = await synced(kind, `symlink-${kind}`);
      const target = join(work.dir, `target-${kind}.txt`);
      await writeFile(target, VICTIM);
      const temp = kind === 'parquet' ? join(sinkPath, 'views.sql.tmp') : `${sinkPath}.progress.json.tmp`;
      await symlink(target, temp);
      devnet.grow(2);
      const result = await run('sync', pipeline);
      expect(result.code, describeResult(result)).toBe(0);
      expect(await readFile(target, 'utf8')).toBe(VICTIM);
      // The progress file of a DuckDB warehouse lives only while a run writes it.
      if (kind === 'parquet') expect((await lstat(join(sinkPath, 'views.sql'))).isFile()).toBe(true);
      await expect(lstat(temp)).rejects.toThrow(/ENOENT/);
    });
  }
});
