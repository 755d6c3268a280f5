/**
 * What a command loads: the process runs with a module hook that logs every module it loads, so the
 * test sees that `--help` lists the commands without importing any of them, and that a sync imports
 * its own command and not the devnet, the report or another command's module. The CLI runs from a
 * bundle (scripts/bundle.mjs): each of its files loaded counts as the modules it holds.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/build.js';
import { runCli } from '../support/cli.js';
import { describeResult } from '../support/cli-result.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { KEY, KEY_ENV } from '../support/test-key.js';
import { makeWorkspace, type Workspace } from '../support/workspace.js';

/** Registers a load hook appending each module's URL, one a line, to $MODULE_LOG. */
const HOOK = `
import { register } from 'node:module';
const hooks = \`
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (!url.startsWith('node:')) appendFileSync(process.env.MODULE_LOG, url + '\\\\n');
  return next(url, context);
}\`;
register('data:text/javascript,' + encodeURIComponent(hooks));
`;

/** Every command module but sync's (and compact's: a sync compacts a Parquet warehouse when due). */
const OTHER_COMMANDS = ['backfill', 'status', 'repair', 'migrate', 'query', 'sql', 'report', 'datasets', 'devnet', 'demo'];

let devnet: TestDevnet;
let work: Workspace;

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: 13, blocks: 40 });
  work = await makeWorkspace('modules');
  writeFileSync(join(work.dir, 'hook.mjs'), HOOK);
});

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

/** Runs the CLI with the hook; the project's modules it loaded (`cli/sync.js`, …) and the packages. */
async function loadedBy(args: readonly string[], label: string): Promise<{ project: string[]; packages: Set<string> }> {
  const log = join(work.dir, `${label}.log`);
  writeFileSync(log, '');
  const env = { ...process.env, [KEY_ENV]: KEY, NO_COLOR: '1', MODULE_LOG: log, NODE_OPTIONS: `--import=${join(work.dir, 'hook.mjs')}` };
  const result = await runCli(args, { cwd: work.dir, env });
  expect(result.code, describeResult(result)).toBe(0);
  const urls = readFileSync(log, 'utf8').trimEnd().split('\n');
  // A loaded file of the bundle stands for the modules esbuild put in it; a package outside it loads its own files.
  const inputs = urls.flatMap((url) => bundledModules(url) ?? [url]);
  const project = inputs.flatMap((path) => /(?:^|\/)src\/(.*)\.ts$/.exec(path)?.[1] ?? []).map((module) => `${module}.js`);
  const packages = new Set(inputs.flatMap((path) => /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1] ?? []));
  return { project, packages };
}

/** The modules a file of dist/bundle/ holds, from the build's metafile; undefined for any other URL. */
function bundledModules(url: string): string[] | undefined {
  const file = /\/(dist\/bundle\/[^/]+\.js)$/.exec(url)?.[1];
  if (file === undefined) return undefined;
  const output = BUNDLE_META.outputs[file];
  if (output === undefined) throw new Error(`${file} is not in dist/bundle/meta.json: run npm run build`);
  return Object.keys(output.inputs);
}

const BUNDLE_META = JSON.parse(readFileSync(join(PROJECT_ROOT, 'dist', 'bundle', 'meta.json'), 'utf8')) as {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
};

/** What every command line loads before a command is chosen: the parser, the command list, closed-pipe and unknown-flag handling, the version. */
const CLI_FRAME = ['cli/main.js', 'cli/commands.js', 'cli/closed-pipe.js', 'cli/unknown-flags.js', 'cli/version.js'];

describe('modules a command loads', () => {
  it('--help lists every command without importing one, nor zod or DuckDB', async () => {
    const { project, packages } = await loadedBy(['--help'], 'help');
    expect(project).toContain('cli/main.js');
    expect(project.filter((module) => module.startsWith('cli/') && !CLI_FRAME.includes(module))).toEqual([]);
    expect([...packages].filter((name) => name === 'zod' || name.startsWith('@duckdb/'))).toEqual([]);
  });

  it("a sync imports its own command's modules and not the devnet, the report or another command", async () => {
    const sinkPath = work.sinkPath('duckdb');
    const pipeline = await work.pipeline({ url: devnet.url, kind: 'duckdb', sinkPath, streams: ['transactions'] });
    await loadedBy(['sync', pipeline], 'first-sync');
    const { project } = await loadedBy(['sync', pipeline], 'no-op-sync');
    expect(project).toContain('cli/sync.js');
    expect(project.filter((module) => OTHER_COMMANDS.some((name) => module === `cli/${name}.js`))).toEqual([]);
    expect(project.filter((module) => module.startsWith('devnet/') || module.startsWith('report/'))).toEqual([]);
  });
});
