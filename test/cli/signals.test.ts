/**
 * The interrupt handlers a run installs (src/cli/signals.ts) leave with it, however it ends: a command
 * that fails before its run starts leaves no SIGINT or SIGTERM listener on the process behind.
 */
import { expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';

const listeners = (): number[] => [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];

it('leaves no signal handler behind when sync, backfill or repair fails before its run', async () => {
  const before = listeners();
  for (const args of [['sync', 'missing.yaml'], ['backfill', 'missing.yaml', '--from', 'mc:1'], ['repair', 'missing.yaml']]) {
    const result = await runCliInProcess(args);
    expect(result.stderr, args.join(' ')).toMatch(/^chain-etl: cannot read pipeline file .*missing\.yaml: no such file/);
    expect(result.code, args.join(' ')).toBe(2);
  }
  expect(listeners()).toEqual(before);
});
