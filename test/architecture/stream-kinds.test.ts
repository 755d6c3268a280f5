/**
 * Where a stream's kind is asked (issue 27): `isSnapshot(` is called only by the plan's partitions
 * (src/run/plan.ts, src/run/snapshot-plan.ts), the registry's (src/streams/index.ts) and `byKind`
 * (src/core/stream.ts), through which every other place that treats the kinds apart goes, so that a
 * new kind of stream is a compile error at each of them rather than a silent default.
 */
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { callsIn, sourceFiles } from './source-files.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SITES = ['src/core/stream.ts', 'src/run/plan.ts', 'src/run/snapshot-plan.ts', 'src/streams/index.ts'];

/** `file:line` of each call of `isSnapshot`. */
function kindQuestions(file: string): string[] {
  return callsIn(ROOT, file, (call) => (ts.isIdentifier(call.expression) && call.expression.text === 'isSnapshot' ? '' : undefined));
}

it('asks a stream its kind in the plan, the registry and byKind only', () => {
  const calls = sourceFiles(join(ROOT, 'src')).map((path) => relative(ROOT, path)).flatMap(kindQuestions);
  expect(calls.filter((call) => !SITES.some((site) => call.startsWith(`${site}:`)))).toEqual([]);
  // Each site still asks (a site renamed away would leave this test checking nothing).
  expect(SITES.map((site) => calls.some((call) => call.startsWith(`${site}:`)))).toEqual([true, true, true, true]);
});
