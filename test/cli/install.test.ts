/**
 * The install path README's "Install" gives: the package `npm pack` makes, installed with
 * `npm install -g` (into a scratch prefix, from npm's cache), runs from any folder through the link
 * in `<prefix>/bin`, says its version, and the crontab lines of pipelines/cron-sync.yaml work as
 * written (their PATH with the prefix for /usr/local/bin, their folder and key for the placeholders)
 * against a devnet: exit 0, nothing printed.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/build.js';
import { startTestDevnet, type TestDevnet } from '../support/test-devnet.js';
import { KEY } from '../support/test-key.js';
import { makeWorkspace, type Workspace } from '../support/workspace.js';

const run = promisify(execFile);
const CRON_PIPELINE = join(PROJECT_ROOT, 'pipelines', 'cron-sync.yaml');
const PACKAGE = JSON.parse(await readFile(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

let devnet: TestDevnet;
let work: Workspace;
let prefix: string;

beforeAll(async () => {
  [devnet, work] = await Promise.all([startTestDevnet({ seed: 5, blocks: 8 }), makeWorkspace('install')]);
  prefix = join(work.dir, 'prefix');
  // dist/ is built by the tests' global setup; the package carries it, so nothing runs at install.
  await run('npm', ['pack', '--ignore-scripts', '--pack-destination', work.dir], { cwd: PROJECT_ROOT });
  const tarball = join(work.dir, `${PACKAGE.name}-${PACKAGE.version}.tgz`);
  await run('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', tarball], { cwd: work.dir });
}, 240_000);

afterAll(async () => {
  await devnet?.close();
  await work?.remove();
});

/** A cron-like environment: only PATH (the given one, then the folder of the node running the tests: /usr/bin here, a cached release under .ci/run) and HOME. */
function cronEnv(path: string): NodeJS.ProcessEnv {
  return { PATH: `${path}:${dirname(process.execPath)}`, HOME: work.dir };
}

describe('npm install -g', () => {
  it('links chain-etl into <prefix>/bin, and it says its version from any folder', async () => {
    const { stdout } = await run('chain-etl', ['--version'], { cwd: '/', env: cronEnv(join(prefix, 'bin')) });
    expect(stdout).toBe(`${PACKAGE.version}\n`);
  });

  it('the crontab lines of pipelines/cron-sync.yaml work as written: exit 0, nothing printed', async () => {
    const text = await readFile(CRON_PIPELINE, 'utf8');
    const path = /^# {3}PATH=(\S+)$/m.exec(text)?.[1];
    const command = /^# {3}\*\/5 \* \* \* \* (.+)$/m.exec(text)?.[1];
    expect(path, 'the PATH line of the crontab example').toBe('/usr/local/bin:/usr/bin:/bin');
    expect(command, 'the crontab line').toBe('cd /srv/chain-etl && TONCENTER_API_KEY=… chain-etl sync pipelines/cron-sync.yaml');
    // The folder the line changes to, as the comment describes it: the pipeline file (pointed at the devnet) and data/.
    const home = join(work.dir, 'srv-chain-etl');
    await mkdir(join(home, 'pipelines'), { recursive: true });
    await mkdir(join(home, 'data'));
    await writeFile(join(home, 'pipelines', 'cron-sync.yaml'), `${text}base_url: ${devnet.url}\n`);
    const line = command!.replace('/srv/chain-etl', home).replace('…', KEY);
    const result = await run('sh', ['-c', line], { cwd: '/', env: cronEnv(path!.replace('/usr/local/bin', join(prefix, 'bin'))) });
    expect(result).toEqual({ stdout: '', stderr: '' });
    const status = await run('sh', ['-c', `cd ${home} && chain-etl status pipelines/cron-sync.yaml --offline`], { env: cronEnv(`${join(prefix, 'bin')}:/usr/bin:/bin`) });
    expect(status.stdout).toContain('pipeline pipelines/cron-sync.yaml → duckdb data/warehouse.duckdb');
  });
});
